"""Where a carto home is, and the paths inside it. Stdlib only: the hook path imports this.

Resolution order (first that is set wins):

1. `$CARTO_HOME`
2. `home = "..."` in the config file (`$XDG_CONFIG_HOME/carto/config.toml`)
3. `$CARTOGRAPHER_DEV_DIR`: an existing Session Cartographer folder is a valid home, unchanged
4. `$XDG_DATA_HOME/carto`, else `~/.local/share/carto`
"""

from __future__ import annotations

import os
from pathlib import Path

from carto_core.logio.logs import SEARCHED_LOGS, SIDE_LOGS


def config_dir(env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    base = env.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "carto"


def config_file(env: dict | None = None) -> Path:
    env = os.environ if env is None else env
    explicit = env.get("CARTO_CONFIG")
    return Path(explicit).expanduser() if explicit else config_dir(env) / "config.toml"


def resolve_home(env: dict | None = None, config_home: str | None = None) -> tuple[Path, str]:
    """Return (home, why): the folder and which rule chose it."""
    env = os.environ if env is None else env
    if env.get("CARTO_HOME"):
        return Path(env["CARTO_HOME"]).expanduser(), "CARTO_HOME"
    if config_home:
        return Path(config_home).expanduser(), "config file"
    if env.get("CARTOGRAPHER_DEV_DIR"):
        return Path(env["CARTOGRAPHER_DEV_DIR"]).expanduser(), "CARTOGRAPHER_DEV_DIR"
    data = env.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(data) / "carto", "XDG default"


class Home:
    """Paths of one home. Creating the object touches nothing on disk."""

    def __init__(self, root: os.PathLike | str):
        self.root = Path(root)

    def __repr__(self) -> str:
        return f"Home({str(self.root)!r})"

    @property
    def state(self) -> Path:
        """`<home>/.carto/`: state and caches, all derived and deletable."""
        return self.root / ".carto"

    def log(self, label: str) -> Path:
        """Path of a searched or side log by its label (`changelog`, `turns`, `served`, ...)."""
        if label in SEARCHED_LOGS:
            return self.root / SEARCHED_LOGS[label]
        if label in SIDE_LOGS:
            return self.root / SIDE_LOGS[label]
        raise KeyError(f"unknown log label {label!r}")

    def searched_logs(self) -> dict[str, Path]:
        return {label: self.root / name for label, name in SEARCHED_LOGS.items()}

    def state_file(self, name: str) -> Path:
        return self.state / name

    def ensure_state(self) -> Path:
        from carto_core.util.privatefiles import make_dirs

        make_dirs(self.state)
        return self.state


def current_home(env: dict | None = None) -> Home:
    """The home for this process, honouring the config file's `home` key."""
    env = os.environ if env is None else env
    config_home = None
    if not env.get("CARTO_HOME"):
        path = config_file(env)
        if path.is_file():
            import tomllib

            try:
                config_home = tomllib.loads(path.read_text("utf-8")).get("home")
            except (OSError, ValueError):
                config_home = None
    return Home(resolve_home(env, config_home)[0])
