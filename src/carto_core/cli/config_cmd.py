"""`carto config`: the resolved home, config file and selected ranker, decay and embedder."""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option
from carto_core.model.config import DEFAULTS, ConfigError, load_config


@click.command(
    epilog="""\b
Examples:
  carto config                              which home, which config file, and why
  carto config --json | jq -r .home         the home folder, for scripts
  CARTO_HOME=/tmp/h carto config            see an override take effect

Exit codes: 0 ok, 1 the config file cannot be read or a setting is not accepted
(each is named, with what is accepted)."""
, cls=JsonErrorCommand)
@json_option
def config(as_json: bool) -> None:
    """Show the resolved configuration and where each value came from.

    Home: $CARTO_HOME, else `home` in the config file, else $CARTOGRAPHER_DEV_DIR, else
    $XDG_DATA_HOME/carto. Config file: $CARTO_CONFIG, else $XDG_CONFIG_HOME/carto/config.toml.
    """
    try:
        cfg = load_config()
    except ConfigError as exc:
        fail(str(exc))
    settings = {}
    for key in DEFAULTS:
        value, origin = cfg.lookup(key)
        settings[key] = {"value": value, "origin": origin}
    problems = setting_problems(cfg)
    document = {
        "home": str(cfg.home.root),
        "home_origin": cfg.home_origin,
        "state_dir": str(cfg.home.state),
        "config_file": str(cfg.path),
        "config_file_exists": cfg.exists,
        "settings": settings,
        "problems": problems,
    }
    if as_json:
        emit_json(document)
    else:
        click.echo(f"home:        {document['home']}  ({cfg.home_origin})")
        click.echo(f"state:       {document['state_dir']}")
        exists = "" if cfg.exists else "  (not present; defaults apply)"
        click.echo(f"config file: {document['config_file']}{exists}")
        refused = {p["key"]: p["accepted"] for p in problems}
        for key, item in settings.items():
            value = item["value"]
            # a switch as the config file spells it (TOML's true/false, not Python's True)
            shown = (", ".join(value) if isinstance(value, list)
                     else str(value).lower() if isinstance(value, bool) else value)
            mark = f"  <- not accepted: {refused[key]}" if key in refused else ""
            click.echo(f"{key:18} {shown}  ({item['origin']}){mark}")
    if problems:
        raise SystemExit(int(ExitCode.ERROR))


_SWITCH = frozenset({"0", "false", "no", "off", "1", "true", "yes", "on"})
#: The registry each named setting is looked up in.
_NAMED = {"search.fusion": "fusions", "search.decay": "decay_policies",
          "search.analyzer": "analyzers", "semantic.embedder": "embedders"}


def setting_problems(cfg) -> list[dict]:
    """The shown settings no command would accept, each `{key, value, origin, accepted}`:
    a search (or the keep-up job) would otherwise stop on it later, or quietly read it as
    something else (a string of rankers read letter by letter)."""
    from carto_core.plugin.registry import get_registries

    registries = get_registries()
    out = []

    def refuse(key, value, origin, accepted):
        out.append({"key": key, "value": value, "origin": origin, "accepted": accepted})

    for key in DEFAULTS:
        value, origin = cfg.lookup(key)
        if origin == "default":
            continue
        if key == "search.rankers":
            known = registries.rankers.names()
            if isinstance(value, str):
                refuse(key, value, origin, f'a list: rankers = ["{value}"]')
            elif not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                refuse(key, value, origin, 'a list of ranker names: rankers = ["bm25"]')
            elif [v for v in value if v not in known]:
                refuse(key, value, origin, "ranker names from " + ", ".join(known))
        elif key == "search.floor":
            if not (isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in _SWITCH)):
                refuse(key, value, origin, "true or false")
        elif key in _NAMED:
            known = getattr(registries, _NAMED[key]).names()
            if value not in known:
                refuse(key, value, origin, "one of " + ", ".join(known))
    return out
