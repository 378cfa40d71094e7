"""Resolved configuration: the config file, environment overrides and defaults, with the origin
of every value so that `carto config` can say why a setting is what it is.

File: `$CARTO_CONFIG`, else `$XDG_CONFIG_HOME/carto/config.toml`. Example::

    home = "~/carto-home"

    [search]
    rankers = ["bm25"]        # ladders fused by `carto search` (plus semantic when available)
    fusion = "rrf-prior"
    decay = "gated-prior"
    analyzer = "english"      # terms of the keyword index (a change rebuilds it)
    floor = true              # the relevance floor: weak candidates only -> nothing found

    [semantic]
    embedder = "minilm"       # wordllama answers when minilm is not installed

    [redact]
    patterns = ["corp-[0-9]{6}"]

Environment overrides: `CARTO_HOME`, `CARTO_RANKERS` (comma-separated), `CARTO_DECAY`,
`CARTO_ANALYZER`, `CARTO_SEARCH_FLOOR`, `CARTO_EMBEDDER`.
"""

from __future__ import annotations

import os
from pathlib import Path

from carto_core.logio.home import Home, config_file, resolve_home
from carto_core.util.records import NEW, Record

DEFAULTS: dict[str, object] = {
    "search.rankers": ["bm25"],
    "search.fusion": "rrf-prior",
    "search.decay": "gated-prior",
    "search.analyzer": "english",
    "search.floor": True,
    "semantic.embedder": "minilm",
}

ENV_OVERRIDES: dict[str, str] = {
    "search.rankers": "CARTO_RANKERS",
    "search.decay": "CARTO_DECAY",
    "search.analyzer": "CARTO_ANALYZER",
    "search.floor": "CARTO_SEARCH_FLOOR",
    "semantic.embedder": "CARTO_EMBEDDER",
}


class ConfigError(ValueError):
    """A config file that exists but cannot be read."""


class Config(Record):
    """The config file as read (`data`), the environment it is read with, and the home.
    A plain record (carto_core.util.records: no dataclass to generate on every cold search)."""

    _fields = ("path", "exists", "data", "env", "home", "home_origin")
    _factories = {"env": dict}
    _norepr = ("env",)
    path: Path
    exists: bool
    data: dict
    env: dict
    home: Home
    home_origin: str

    def __init__(self, path: Path, exists: bool, data: dict, env: dict = NEW,
                 home: Home = None, home_origin: str = ""):  # type: ignore[assignment]
        self.path = path
        self.exists = exists
        self.data = data
        self.env = {} if env is NEW else env
        self.home = home
        self.home_origin = home_origin

    def get(self, dotted: str, default: object = None) -> object:
        return self.lookup(dotted, default)[0]

    def lookup(self, dotted: str, default: object = None) -> tuple[object, str]:
        """(value, origin): origin is the env var, `config file`, `default` or `unset`."""
        var = ENV_OVERRIDES.get(dotted)
        if var and self.env.get(var):
            raw = self.env[var]
            value = [p.strip() for p in raw.split(",") if p.strip()] if dotted.endswith("s") else raw
            return value, var
        node: object = self.data
        for part in dotted.split("."):
            if not isinstance(node, dict) or part not in node:
                break
            node = node[part]
        else:
            return node, "config file"
        if dotted in DEFAULTS:
            return DEFAULTS[dotted], "default"
        return default, "unset"

    def section(self, name: str) -> dict:
        value = self.data.get(name)
        return value if isinstance(value, dict) else {}


def load_config(env: dict | None = None) -> Config:
    env = dict(os.environ if env is None else env)
    path = config_file(env)
    data: dict = {}
    exists = path.is_file()
    if not exists and path.is_dir():
        # read as "not present", a folder put where the file goes (a mistyped CARTO_CONFIG, a
        # `mkdir` too many) left every setting at its default without a word
        raise ConfigError(f"cannot read config file {path}: it is a folder, not a file")
    if exists:
        import tomllib  # only when there is a file to parse (a cold search often has none)

        try:
            data = tomllib.loads(path.read_text("utf-8"))
        except (OSError, tomllib.TOMLDecodeError) as exc:
            raise ConfigError(f"cannot read config file {path}: {exc}") from None
    home_value = data.get("home") if isinstance(data.get("home"), str) else None
    root, origin = resolve_home(env, home_value)
    return Config(path=path, exists=exists, data=data, env=env, home=Home(root), home_origin=origin)
