"""The `carto` command line: one click command per module, loaded only when called.

Core commands are listed in `CORE_COMMANDS` and imported lazily, so `carto search` pays for the
search module and nothing else; plugin commands arrive through `carto_register_commands` and are
built only when a name is not a core command or when the full list is needed (`--help`).
"""

from __future__ import annotations

import click

from carto_core import __version__

#: command name -> "module:attribute" (one command per module).
CORE_COMMANDS: dict[str, str] = {
    "plugins": "carto_core.cli.plugins_cmd:plugins",
    "config": "carto_core.cli.config_cmd:config",
    "doctor": "carto_core.cli.doctor_cmd:doctor",
    "demo": "carto_core.cli.demo_cmd:demo",
    "ingest": "carto_core.cli.ingest_cmd:ingest",
    "install": "carto_core.cli.install_cmd:install",
    "uninstall": "carto_core.cli.uninstall_cmd:uninstall",
    "hook": "carto_core.cli.hook_cmd:hook",
    "search": "carto_core.cli.search_cmd:search",
    "index": "carto_core.cli.index_cmd:index",
    "eval": "carto_core.cli.eval_cmd:eval_command",
    "serve": "carto_core.cli.serve_cmd:serve",
    "facts": "carto_core.cli.facts_cmd:facts",
    "mcp": "carto_core.cli.mcp_cmd:mcp",
    "standup": "carto_core.cli.standup_cmd:standup",
    "new-plugin": "carto_core.cli.new_plugin_cmd:new_plugin",
    "digest": "carto_core.cli.digest_cmd:digest",
    "wrapup": "carto_core.cli.wrapup_cmd:wrapup",
    "decision": "carto_core.cli.decision_cmd:decision",
    "trustmap": "carto_core.cli.trustmap_cmd:trustmap",
    "profile": "carto_core.cli.profile_cmd:profile",
    "repair": "carto_core.cli.repair_cmd:repair",
    "sessions": "carto_core.cli.sessions_cmd:sessions",
    "session": "carto_core.cli.sessions_cmd:session",
    "related": "carto_core.cli.related_cmd:related",
    "handoff": "carto_core.cli.handoff_cmd:handoff",
    "memory": "carto_core.cli.memory_cmd:memory",
    "report": "carto_core.cli.report_cmd:report",
    "team": "carto_core.cli.team_cmd:team",
    "forget": "carto_core.cli.forget_cmd:forget",
    "export": "carto_core.cli.export_cmd:export",
    "import": "carto_core.cli.import_cmd:import_",
    "backup": "carto_core.cli.backup_cmd:backup",
    "restore": "carto_core.cli.restore_cmd:restore",
}


#: Commands that use an existing home but start without one: on a home that does not exist they
#: say so (one line on stderr) before answering for an empty home, so a moved home is never
#: mistaken for a quiet one. Only `mcp` (the agent starts it before anything is recorded): every
#: command that reads a home refuses a missing one with exit 3 (`carto_core.cli.homeguard`).
HOME_COMMANDS = frozenset({"mcp"})


def _note_missing_home() -> None:
    from carto_core.logio.home import current_home

    try:
        root = current_home().root
    except Exception:  # noqa: BLE001 - the command reports a broken config itself
        return
    if not root.exists():
        click.echo(f"carto: the home {root} does not exist (nothing recorded there yet, or it "
                   "moved: set CARTO_HOME or `home` in the config file); answering for an empty home",
                   err=True)


def installed_names(attr: str) -> str:
    """The names in search registry `attr` (rankers, fusions, analyzers, decay policies) of
    every installed plugin, comma-separated; "see `carto plugins`" when they cannot be had."""
    try:
        from carto_core.plugin.registry import RANKING_HOOKS, get_registries

        names = getattr(get_registries(hooks=RANKING_HOOKS), attr).names()
    except Exception:  # noqa: BLE001 - help must print whatever a plugin does
        names = []
    return ", ".join(names) if names else "see `carto plugins`"


class RegistryNamesOption(click.Option):
    """An option whose help has `{names}`, filled with `installed_names(registry)` when the
    help is printed, never when the command runs: a cold `carto search` must not load the
    registries to build its options (docs/performance.md). Here rather than in a module of its
    own, which would cost every cold search an import."""

    def __init__(self, *args, registry: str, **kwargs):
        self.registry = registry
        self.help_template = kwargs.get("help") or ""
        super().__init__(*args, **kwargs)

    def get_help_record(self, ctx: click.Context):
        self.help = self.help_template.format(names=installed_names(self.registry))
        return super().get_help_record(ctx)


class CartoGroup(click.Group):
    """A group whose core commands load on demand and whose plugins load once."""

    _plugins_loaded = False

    def _load_plugins(self) -> None:
        if self._plugins_loaded:
            return
        self._plugins_loaded = True
        from carto_core.plugin.registry import get_registries

        registries = get_registries()
        core_objects = {name: self.get_command(None, name) for name in CORE_COMMANDS}
        registries.register_commands(self)
        # Core names win: a plugin command that took a core name is put back and reported.
        for name, command in core_objects.items():
            if self.commands.get(name) is not command:
                self.commands[name] = command
                registries.problems.append(
                    f"plugin command {name!r} refused: the name belongs to a core command"
                )

    def list_commands(self, ctx: click.Context) -> list[str]:
        self._load_plugins()
        return sorted(set(CORE_COMMANDS) | set(self.commands))

    def resolve_command(self, ctx: click.Context, args: list[str]):
        name, command, rest = super().resolve_command(ctx, args)
        if name in HOME_COMMANDS and not {"-h", "--help"} & set(rest):
            _note_missing_home()
        return name, command, rest

    def invoke(self, ctx: click.Context):
        # A home that cannot be written (read-only, full, not ours) or that vanished is the
        # machine's state, not a bug: one line naming it and exit 1, never a traceback.
        try:
            return super().invoke(ctx)
        except BrokenPipeError:
            # The reader left early (`carto sessions | head`): click's main ends quietly, exit 1.
            raise
        except ValueError as exc:
            # A config file that cannot be read is the user's to mend: the one line naming the
            # file and the fault, as `carto config` prints it, from any command that reads it.
            from carto_core.model.config import ConfigError
            from carto_core.util.output import fail

            if not isinstance(exc, ConfigError):
                raise
            fail(str(exc))
        except OSError as exc:
            from carto_core.logio.home import current_home
            from carto_core.logio.homefaults import fault_message
            from carto_core.util.output import fail

            try:
                root = current_home().root
            except Exception:  # noqa: BLE001 - the message must not fail in turn
                root = None
            name = f"{ctx.invoked_subcommand}: " if ctx.invoked_subcommand else ""
            fail(f"{name}{fault_message(exc, root)}")

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name in self.commands:
            return self.commands[name]
        target = CORE_COMMANDS.get(name)
        if target is not None:
            from carto_core.cli.homeguard import guard
            from carto_core.plugin.resolve import resolve

            command = guard(name, resolve(target))
            self.add_command(command, name)
            return command
        self._load_plugins()
        return self.commands.get(name)


class PluginGroup(click.Group):
    """A core group that plugins extend (`ingest`, `install`, `uninstall`).

    The root loads plugins only for names it does not know, so a plugin's subcommand under a
    core group would never be seen; this group asks the root to load them before a lookup.
    """

    def load_root_plugins(self, ctx: click.Context | None) -> None:
        root = ctx.find_root().command if ctx is not None else None
        load = getattr(root, "_load_plugins", None)
        if callable(load):
            load()

    def list_commands(self, ctx: click.Context) -> list[str]:
        self.load_root_plugins(ctx)
        return super().list_commands(ctx)

    def get_command(self, ctx: click.Context | None, name: str) -> click.Command | None:
        if name not in self.commands:
            self.load_root_plugins(ctx)
        return super().get_command(ctx, name)


@click.group(cls=CartoGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="carto")
def cli() -> None:
    """carto: a memory of their own work for AI coding agents.

    Hooks in Claude Code and Codex (and adapters for Hermes and git history) append what agents
    do to JSONL logs in a home folder; these commands read them. Every data command takes
    --json and exits 0 (ok), 1 (error), 2 (usage), 3 (ran fine, found nothing), 4 (conflict),
    75 (unavailable, retry later); docs/cli.md has the details.

    \b
    Start with:  carto demo            a tour on sample data in a temporary home
                 carto install claude  record Claude Code's work from now on (codex alike)
                 carto ingest --all    what your agents left on disk before that
                 carto search "..."    ask it; carto sessions, standup, serve to look around
                 carto doctor          what your home holds and what is wrong with it
                 carto plugins         installed providers, rankers and verbs
    A person's guide: docs/using.md; every command: docs/cli.md.
    """
