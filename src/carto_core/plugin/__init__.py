"""The plugin surface, one job per module: `hookspecs` (every hook a plugin may implement),
`markers` (the hookimpl marker, written without pluggy), `resolve` (every "module:attr"
target), `table` (the cached plugin table: entry points, capture handlers, hook and class
records), `registries` (the named registries), `light` (pluggy's manager stood in for on a
partial load), `registry` (the loading sequence and the process's registries) and
`redaction` (the patterns plugins declare)."""
