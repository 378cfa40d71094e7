"""Where the pinned real clients live: `pins.json` (package, version, binary per client) and the
cache folder `install_clients.py` fills. Stdlib only: the install script imports it too.

Cache: `$CARTO_REALCLIENTS`, else `${XDG_CACHE_HOME:-~/.cache}/carto/realclients`; one npm prefix
per pinned version (`<cache>/<client>-<version>/node_modules/.bin/<bin>`), so bumping a pin keeps
the old version beside the new one for `bump.py` to compare. `CARTO_CLAUDE_BIN` /
`CARTO_CODEX_BIN` name a binary explicitly (another version, a system install).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

HERE = Path(__file__).resolve().parent
PINS_FILE = HERE / "pins.json"
CLIENTS = ("claude", "codex")


def pins() -> dict:
    return json.loads(PINS_FILE.read_text("utf-8"))


def cache_root(env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    if env.get("CARTO_REALCLIENTS"):
        return Path(env["CARTO_REALCLIENTS"]).expanduser()
    base = env.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "carto" / "realclients"


def prefix(client: str, version: str | None = None, env: dict | None = None) -> Path:
    version = version or pins()[client]["version"]
    return cache_root(env) / f"{client}-{version}"


def binary(client: str, version: str | None = None, env: dict | None = None) -> Path:
    """The client's binary: `CARTO_<CLIENT>_BIN` when set (and no version asked), else the
    cached pinned (or given) version. The path may not exist."""
    env = os.environ if env is None else env
    explicit = env.get(f"CARTO_{client.upper()}_BIN")
    if explicit and version is None:
        return Path(explicit).expanduser()
    return prefix(client, version, env) / "node_modules" / ".bin" / pins()[client]["bin"]
