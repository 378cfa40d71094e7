"""Installing carto into an agent: `hooksfile` merges carto's hook handlers into an agent's hooks
file without clobbering (stdlib only); `agent` is the rest of `carto install <agent>` that every
provider shares (click options, `--mcp`, the report, the exit codes). CLI-only: nothing here runs
on the hook path.
"""
