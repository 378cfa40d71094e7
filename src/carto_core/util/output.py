"""Shared output helpers: JSON to stdout, diagnostics to stderr, exits from the enum."""

from __future__ import annotations

import sys
from typing import NoReturn

import click
import orjson

from carto_core.util.exitcodes import ExitCode


def _default(value):
    from datetime import datetime
    from pathlib import Path

    if isinstance(value, datetime):
        from carto_core.util.timeparse import format_timestamp

        return format_timestamp(value)
    if isinstance(value, (Path, set, frozenset, tuple)):
        return str(value) if isinstance(value, Path) else list(value)
    raise TypeError(f"not JSON serialisable: {type(value).__name__}")


def dumps(document: object, *, pretty: bool = True) -> bytes:
    option = orjson.OPT_INDENT_2 if pretty else 0
    return orjson.dumps(document, default=_default, option=option | orjson.OPT_NON_STR_KEYS)


#: `click.Context.meta` keys (one dict for a whole invocation): the command answers failures
#: in JSON (`JsonErrorCommand`), and a document was written already.
_JSON_ERRORS = "carto.json_errors"
_EMITTED = "carto.json_emitted"


def emit_json(document: object, *, pretty: bool = True) -> None:
    """Write one JSON document to stdout (one document per command: agents parse it whole)."""
    sys.stdout.buffer.write(dumps(document, pretty=pretty) + b"\n")
    sys.stdout.flush()
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_EMITTED] = True


def _json_error(message: str, code: int, **extra) -> None:
    """The error as the one JSON document of a command asked for JSON (`JsonErrorCommand`),
    unless it printed its document already; `extra`: fields it carries beside them."""
    ctx = click.get_current_context(silent=True)
    if ctx is not None and ctx.meta.get(_JSON_ERRORS) and not ctx.meta.get(_EMITTED):
        emit_json({"error": message, "exit_code": int(code), **extra})


def emit_failure(document: dict, message: str, code: int) -> None:
    """A command's own JSON document as a failure: `carto: <message>` on stderr, and the
    document with `error` and `exit_code` on stdout (the shape `fail` gives a command with
    nothing more to say). The caller exits with `code`."""
    click.echo(f"carto: {message}", err=True)
    emit_json({**document, "error": message, "exit_code": int(code)})


def warn(message: str) -> None:
    click.echo(message, err=True)


def fail(message: str, code: ExitCode = ExitCode.ERROR, *, listed: tuple[str, ...] = (),
         **extra) -> NoReturn:
    """Print `carto: <message>` to stderr and exit with `code` (and, for a command asked for
    JSON that has printed nothing yet, `{"error": message, "exit_code": code}` on stdout).
    `listed`: lines a person reads under the message (`<message>:` then one an item, indented);
    `extra`: fields the JSON document carries beside error and exit_code."""
    click.echo(f"carto: {message}" + (":" if listed else ""), err=True)
    for line in listed:
        click.echo(f"  {line}", err=True)
    _json_error(message, code, **extra)
    raise SystemExit(int(code))


def usage_error(message: str) -> NoReturn:
    fail(message, ExitCode.USAGE)


json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON document on stdout instead of text."
)


def _asks_json(args: list[str]) -> bool:
    """Whether a command line asks for JSON (`--json`, `--format json`), before it is parsed."""
    for position, word in enumerate(args):
        if word == "--":
            return False
        if word == "--json" or word == "--format=json" or (
                word == "--format" and args[position + 1:position + 2] == ["json"]):
            return True
    return False


class JsonErrors:
    """Mixed into a command class: the command, asked for JSON, fails with one JSON document on
    stdout too: `{"error": message, "exit_code": n}`, the message its stderr line says. That
    holds from a bad option value (click's usage error, exit 2) to every `fail` and
    `usage_error` it calls and the home guard's refusal (`carto_core.cli.homeguard`); a command
    that printed its document before failing prints no second one."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        ctx.meta[_JSON_ERRORS] = _asks_json(args)
        try:
            rest = super().parse_args(ctx, args)
        except click.UsageError as exc:
            _json_error(exc.format_message(), exc.exit_code)
            raise
        ctx.meta[_JSON_ERRORS] = bool(ctx.params.get("as_json")
                                     or ctx.params.get("output_format") == "json")
        return rest


class JsonErrorCommand(JsonErrors, click.Command):
    """Every command with `--json` (or `--format json`) is one (a test walks the tree)."""


def expect_json_errors(ctx: click.Context, group: click.Group) -> None:
    """Before a group's own work (the home guard) runs, its subcommand has not parsed its
    arguments yet: a failure there answers in JSON when that subcommand would and its words ask
    for it, so `carto digest day --json` without a home still prints its one document."""
    pending = ctx._protected_args if hasattr(ctx, "_protected_args") else ctx.protected_args
    words = [*pending, *ctx.args]
    if not words:
        return
    try:
        command = group.get_command(ctx, words[0])
    except Exception:  # noqa: BLE001 - an unknown or broken subcommand is reported by click later
        return
    if isinstance(command, JsonErrors):
        ctx.meta[_JSON_ERRORS] = _asks_json(words[1:])


#: A log write's outcome as a person reads it (the JSON keeps the key).
OUTCOME_WORDS = {"written": "written", "already_present": "already recorded",
                 "dry_run": "not written (--dry-run)"}


def outcome_words(outcome: str) -> str:
    return OUTCOME_WORDS.get(outcome, outcome.replace("_", " "))


def echo_wrapup_items(decisions, unresolved, insight, width: int | None = None) -> None:
    """A wrapup's decisions, open threads and key insight, one indented line each (cut to
    `width` characters when given): `carto wrapup` and `carto session` print them alike."""

    def cut(text: str) -> str:
        text = " ".join(str(text).split()) if width else str(text)
        return text if not width or len(text) <= width else text[: width - 1] + "…"

    for item in decisions:
        click.echo(f"  decided: {cut(item)}")
    for item in unresolved:
        click.echo(f"  open:    {cut(item)}")
    if insight:
        click.echo(f"  insight: {cut(insight)}")


def when_value(value: str | None, flag: str, *, now=None):
    """A `--since`/`--before` value in the WHEN grammar (carto_core.util.timeparse), or None; exit 2
    naming the flag when it does not parse. `now`: the instant relative values count back from."""
    if value is None:
        return None
    from carto_core.util.timeparse import WhenError, parse_when

    try:
        return parse_when(value, now=now)
    except WhenError as exc:
        usage_error(f"{flag}: {exc}")
