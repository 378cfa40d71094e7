"""No accidental homes: a command that only reads a home refuses a home that does not exist.

A mistyped `CARTO_HOME=/tmp/typo carto facts census` used to answer "0 events" and create the
folder (which `carto serve` then served). Only capture (`carto hook`), `carto ingest` and `carto
install` may create a home; every command in `HOME_READERS` exits 3 (ran fine, found nothing)
with one line on stderr naming the path and how to make a home, before it opens anything.

The check runs when the command is invoked, after click has parsed its arguments, so
`carto search --help` still answers on a machine with no home. `SELF_GUARDED` readers check for
themselves; `HOME_FREE` lists the commands that do not read the user's home or are allowed to
create it; a test fails when a command `carto --help` lists is in none of the three.
"""

from __future__ import annotations

import click

from carto_core.util.exitcodes import ExitCode

#: command -> predicate on the parsed parameters: the command reads the user's home (None: always).
#: The check runs before the command's body.
HOME_READERS: dict[str, object] = {
    "digest": None, "facts": None, "index": None, "profile": None, "repair": None, "search": None,
    "serve": None, "standup": None, "trustmap": None, "wrapup": None, "sessions": None,
    "session": None, "memory": None, "report": None, "related": None,
    "handoff": None, "decision": None,
}
#: Readers that call `require_home` themselves, after their own usage checks: `eval` (not with
#: --generate, which builds a home of its own); `doctor` reports the missing home among its
#: checks and then exits 3; `team` (its `admin` commands need no home, the others do).
SELF_GUARDED = frozenset({"doctor", "eval", "team", "forget", "export", "backup"})
#: Commands that never read the user's home or may create it: `mcp` is started by the agent
#: before anything was recorded, so it starts anyway (and creates nothing); `config` says where
#: the home would be; `import` and `restore` make one from an archive.
HOME_FREE = frozenset({"config", "demo", "hook", "ingest", "install", "mcp", "new-plugin",
                       "plugins", "uninstall", "import", "restore"})


HOW_TO_MAKE_ONE = ("`carto install claude` (or `carto install codex`) makes it and records the "
                   "agent's work from now on; `carto ingest --all` backfills what the agents left "
                   "on disk; or point CARTO_HOME at an existing home (`carto config` says how the "
                   "home was chosen)")


def missing_home_message(root) -> str:
    return f"no carto home at {root} (the folder does not exist: nothing has been recorded there); {HOW_TO_MAKE_ONE}."


def unusable_home_message(root) -> str | None:
    """One line when what is at the home's path cannot be one (a file, a folder this user may
    not read): what it is and the fix."""
    from carto_core.logio.homefaults import home_refusal

    refused = home_refusal(root)
    return f"{refused[0]}; {refused[1]}" if refused else None


def refuse_unusable_home(command: str) -> None:
    """Exit 1 before `command` (one that may create the home: install, ingest) writes anything
    when what is at the home's path cannot be one: "made the home" over a file, and every
    source's raw "[Errno 20] Not a directory", said otherwise."""
    from carto_core.model.config import ConfigError, load_config

    try:
        root = load_config().home.root
    except ConfigError:
        return
    refused = unusable_home_message(root)
    if refused:
        from carto_core.util.output import fail

        fail(f"{command}: {refused}")


def require_home() -> None:
    """Exit 3 with `missing_home_message` when the resolved home does not exist, 1 when it is a
    file or a folder this user cannot read. A config file that cannot be read is left to the
    command (it reports it)."""
    from carto_core.model.config import ConfigError, load_config

    try:
        root = load_config().home.root
    except ConfigError:
        return
    from carto_core.util.output import fail

    refused = unusable_home_message(root)
    if refused:  # something is there: "does not exist" and its install would mislead
        fail(refused)
    if not root.is_dir():
        fail(missing_home_message(root), ExitCode.NOT_FOUND)
    finish_forget(root)


def finish_forget(root) -> None:
    """A forget that was interrupted is finished before anything reads the home (one `stat`
    when none waits): no reader ever sees half a forget for longer than that."""
    import os

    if not os.path.exists(os.path.join(root, ".carto", "forget", "intent.json")):
        return
    from carto_core.control.forget import resume
    from carto_core.logio.home import Home

    click.echo("carto: finishing a forget that was interrupted first", err=True)
    try:
        resume(Home(root))
    except OSError as exc:  # a home that cannot be written: the command reads what there is
        from carto_core.logio.notafile import NotAFile

        said = exc if isinstance(exc, NotAFile) else exc.strerror or exc  # NotAFile: with its fix
        click.echo(f"carto: could not finish it ({said}); `carto forget --resume` retries", err=True)


def _asks_help(ctx: click.Context) -> bool:
    pending = ctx._protected_args if hasattr(ctx, "_protected_args") else ctx.protected_args
    words = [*pending, *ctx.args]
    return any(word in ("-h", "--help") for word in words)


def guard(name: str, command: click.Command) -> click.Command:
    """Make `command` (a core command or group named `name`) require an existing home when
    `HOME_READERS` says it reads one."""
    if name not in HOME_READERS or getattr(command, "_carto_home_guard", False):
        return command
    reads = HOME_READERS[name]
    original = command.invoke

    def invoke(ctx: click.Context):
        if isinstance(command, click.Group):
            from carto_core.util.output import expect_json_errors

            expect_json_errors(ctx, command)
        # A group runs before its subcommand parses, so `carto facts census --help` must pass.
        if not (isinstance(command, click.Group) and _asks_help(ctx)) and (reads is None or reads(ctx.params)):
            require_home()
        return original(ctx)

    command.invoke = invoke
    command._carto_home_guard = True
    return command
