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


def emit_json(document: object, *, pretty: bool = True) -> None:
    """Write one JSON document to stdout (one document per command: agents parse it whole)."""
    sys.stdout.buffer.write(dumps(document, pretty=pretty) + b"\n")
    sys.stdout.flush()


def warn(message: str) -> None:
    click.echo(message, err=True)


def fail(message: str, code: ExitCode = ExitCode.ERROR) -> NoReturn:
    """Print `carto: <message>` to stderr and exit with `code`."""
    click.echo(f"carto: {message}", err=True)
    raise SystemExit(int(code))


def usage_error(message: str) -> NoReturn:
    fail(message, ExitCode.USAGE)


json_option = click.option(
    "--json", "as_json", is_flag=True, help="Print one JSON document on stdout instead of text."
)


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


def when_value(value: str | None, flag: str):
    """A `--since`/`--before` value in the WHEN grammar (carto_core.util.timeparse), or None; exit 2
    naming the flag when it does not parse."""
    if value is None:
        return None
    from carto_core.util.timeparse import WhenError, parse_when

    try:
        return parse_when(value)
    except WhenError as exc:
        usage_error(f"{flag}: {exc}")
