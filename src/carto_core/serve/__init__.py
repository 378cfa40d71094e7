"""`carto serve`: the explorer web app and its loopback-only HTTP API (extra `carto-core[serve]`).

`create_app(home)` (in `app.py`) builds the ASGI app; `carto serve` runs it with uvicorn on
127.0.0.1. Nothing here is imported by the CLI until `carto serve` runs.
"""
