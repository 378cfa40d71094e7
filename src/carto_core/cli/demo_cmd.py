"""`carto demo`: a tour of carto on sample data in a temporary home."""

from __future__ import annotations

import os
import shutil
import tempfile

import click

from carto_core.util.exitcodes import ExitCode

#: The tour: (title, argv, exit codes that are an answer and not a failure). Steps whose command
#: is not installed are skipped with a note. The sample home has no hooks installed by design, so
#: doctor's "problems found" (exit 1, it lists "no hooks installed") is part of the tour.
TOUR: list[tuple[str, list[str], frozenset[int]]] = [
    ("what the home holds", ["doctor"], frozenset({ExitCode.OK, ExitCode.ERROR})),
    ("ranked recall", ["search", "discount codes cart", "--all", "--limit", "5"],
     frozenset({ExitCode.OK, ExitCode.NOT_FOUND})),
    ("facts: a census with sample ids", ["facts", "census", "--top", "5", "--sample", "2"],
     frozenset({ExitCode.OK})),
    ("who is working on what, and where they collide", ["standup", "--since", "6h"],
     frozenset({ExitCode.OK})),
]


#: Environment variables the demo clears: carto's settings and the agents' session ids.
_USER_SETTINGS = ("CARTO_", "CARTOGRAPHER_", "CLAUDE_SESSION_ID", "CLAUDE_CODE_SESSION_ID",
                  "CODEX_SESSION_ID", "CODEX_THREAD_ID")
#: Where the agents' folders are found: the demo points them into its temporary folder, so no
#: step (doctor's hook check, a source's discovery) reads the machine's ~/.claude, ~/.codex or
#: ~/.hermes, nor runs the hooks installed there.
_AGENT_PLACES = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "CODEX_HOME",
                 "CLAUDE_CONFIG_DIR", "HERMES_HOME")


@click.command(
    epilog="""\b
Examples:
  carto demo           the tour; the temporary home is removed afterwards
  carto demo --keep    keep the home: CARTO_HOME=<printed path> carto search cart"""
)
@click.option("--keep", is_flag=True, help="Keep the demo home and print its path.")
def demo(keep: bool) -> None:
    """Build a sample home in a temporary folder and show carto on it.

    Runs a search, a facts census and a standup against three scripted agent sessions of the
    last hours on two projects (and older ones, months back), with carto's defaults (your
    config file and CARTO_* settings are set aside).
    Nothing outside the temporary folder is written or read: HOME and the current folder point
    into it for the tour, so your ~/.claude, ~/.codex and ~/.hermes, and the project folder you
    run it from, stay out of it.
    """
    from carto_core.cli import cli
    from carto_core.evaluation.sample import build_sample_home

    root = tempfile.mkdtemp(prefix="carto-demo-")
    # The tour runs on defaults: none of the user's carto settings (a config file, rankers, an
    # embedder service, disabled plugins: a broken or unreachable one would fail the tour) and
    # no live session (delta serving would hide results). All are put back afterwards.
    saved = {key: value for key, value in os.environ.items() if key.startswith(_USER_SETTINGS)}
    saved.update({key: os.environ.get(key) for key in ("CARTO_HOME", "CARTO_CONFIG", *_AGENT_PLACES)})
    failures = 0
    here = os.getcwd()
    try:
        build_sample_home(root)
        for key in saved:
            os.environ.pop(key, None)
        os.environ["CARTO_HOME"] = root
        os.environ["CARTO_CONFIG"] = os.path.join(root, ".carto", "no-config.toml")
        os.environ["HOME"] = os.path.join(root, ".carto", "demo-user")  # an empty machine
        # makedirs gives its mode to the leaf only: `.carto` first, else the umask's 0755 makes
        # the tour's doctor report a readable home that carto itself made
        os.mkdir(os.path.join(root, ".carto"), mode=0o700)
        os.mkdir(os.environ["HOME"], mode=0o700)
        # doctor also reads the current folder's project settings (.claude/, .codex/) and runs
        # the hooks there: the tour stands in its empty machine, not in the person's project
        os.chdir(os.environ["HOME"])
        click.echo(f"carto demo: sample home in {root}\n")
        for title, argv, answers in TOUR:
            click.secho(f"$ carto {' '.join(argv)}    # {title}", bold=True)
            if cli.get_command(click.Context(cli), argv[0]) is None:
                click.echo(f"  (`carto {argv[0]}` is not installed here; skipped)\n")
                continue
            try:
                cli.main(args=argv, prog_name="carto", standalone_mode=False)
            except SystemExit as exc:
                if (exc.code or 0) not in answers:
                    click.echo(f"  (`carto {argv[0]}` failed: exit {exc.code})", err=True)
                    failures += 1
            except click.ClickException as exc:
                exc.show()
                failures += 1
            click.echo()
    finally:
        os.chdir(here)
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
        if keep:
            click.echo(f"demo home kept at {root}  (CARTO_HOME={root} carto search ...)")
        else:
            shutil.rmtree(root, ignore_errors=True)
    if failures:
        raise SystemExit(int(ExitCode.ERROR))
