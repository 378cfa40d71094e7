"""carto-hermes: Hermes Agent sessions (`state.db`, read-only) and artifacts as carto events.

The hooks are in `carto_hermes.plugin` (entry point `hermes`, as every carto plugin's
`carto_<name>.plugin`); the source is `carto_hermes.source`. See docs/providers/hermes.md.
"""
