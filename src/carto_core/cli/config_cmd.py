"""`carto config`: the resolved home, config file and selected ranker, decay and embedder."""

from __future__ import annotations

import click

from carto_core.util.output import emit_json, fail, json_option
from carto_core.model.config import DEFAULTS, ConfigError, load_config


@click.command(
    epilog="""\b
Examples:
  carto config                              which home, which config file, and why
  carto config --json | jq -r .home         the home folder, for scripts
  CARTO_HOME=/tmp/h carto config            see an override take effect

Exit codes: 0 ok, 1 the config file cannot be read."""
)
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
    document = {
        "home": str(cfg.home.root),
        "home_origin": cfg.home_origin,
        "state_dir": str(cfg.home.state),
        "config_file": str(cfg.path),
        "config_file_exists": cfg.exists,
        "settings": settings,
    }
    if as_json:
        emit_json(document)
        return
    click.echo(f"home:        {document['home']}  ({cfg.home_origin})")
    click.echo(f"state:       {document['state_dir']}")
    exists = "" if cfg.exists else "  (not present; defaults apply)"
    click.echo(f"config file: {document['config_file']}{exists}")
    for key, item in settings.items():
        value = item["value"]
        shown = ", ".join(value) if isinstance(value, list) else value
        click.echo(f"{key:18} {shown}  ({item['origin']})")
