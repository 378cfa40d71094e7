"""`carto mcp`: carto's lenses as a Model Context Protocol server (stdio, official Python SDK).

Modules: `server` (the SDK server and dispatch), `tools` (the tool catalogue: schemas and the
lens calls behind them), `budget` (answers within a character budget, paged), `cursor` (signed
page cursors), `install` (register the server in Claude Code's and Codex's configuration; it
does not need the SDK). Only `server` imports the `mcp` package (`pip install carto-core[mcp]`).
"""
