"""Base classes for what plugins register: sources and writers, and the records they exchange.

Rankers, decay policies, fact verbs and embedders have their base classes beside the engines
that call them (`carto_core.search`, `carto_core.facts`, `carto_core.semantic`).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import ClassVar

import attrs


@attrs.frozen
class Emit:
    """One row for one log: `log` is a label of `carto_core.logio.logs.SEARCHED_LOGS` (or a side log)."""

    log: str
    row: dict


@attrs.frozen
class Stream:
    """One readable unit of a source (a transcript file, a database, a repository).

    `key` is stable across runs (it keys the checkpoint); `path` is shown to people.
    """

    key: str
    path: Path | None = None
    size: int | None = None
    meta: dict = attrs.field(factory=dict, eq=False, hash=False)


@attrs.define
class ReadBatch:
    """What `Source.read` returns for one stream."""

    rows: list[Emit] = attrs.field(factory=list)
    #: The checkpoint to resume from next time (JSON-serialisable); None leaves it unchanged.
    checkpoint: dict | None = None
    #: Units read (messages, lines, commits): feeds the progress bar and throughput figures.
    units: int = 0
    #: What was skipped, by reason (`broken_line`, `unknown_type:foo`, ...).
    skipped: Counter = attrs.field(factory=Counter)
    #: Human-readable notes about this stream (shown by `carto ingest -v`).
    messages: list[str] = attrs.field(factory=list)
    #: Rows written as revisions that a later read will replace (open turns of a transcript
    #: still being written), and when they become final if nothing more is written (epoch
    #: seconds). The ingest summary reports both.
    open_rows: int = 0
    open_until: float | None = None


def batch_of(read, log: str = "turns") -> ReadBatch:
    """The `ReadBatch` of a transcript parser's read (`carto_core.transcript.read.TurnRead`: plain
    data, so that the Stop hook's path never imports attrs)."""
    return ReadBatch(rows=[Emit(log, row) for row in read.rows], checkpoint=read.checkpoint,
                     units=read.units, skipped=read.skipped, messages=read.messages,
                     open_rows=read.open_rows, open_until=read.open_until)


def since_cutoff(options: dict, now: float | None = None) -> float | None:
    """Epoch seconds of a source's `since` option: an aware datetime, a WHEN string (from the
    config file; `carto_core.util.timeparse.parse_when`), or the older `since_days` number; None for
    no limit. Streams last modified before it are not opened."""
    import time
    from datetime import datetime

    since = options.get("since")
    if isinstance(since, str) and since.strip():
        from carto_core.util.timeparse import parse_when

        since = parse_when(since)
    if isinstance(since, datetime):
        return since.timestamp()
    days = options.get("since_days")
    if days not in (None, "", 0):
        return (time.time() if now is None else now) - float(days) * 86400
    return None


def settle_option(options: dict, default: float) -> float:
    """A transcript source's `settle_seconds` option (how long a transcript must be quiet, by
    its mtime or its own newest timestamp, to be finished: `carto_core.transcript.settle`)."""
    value = options.get("settle_seconds")
    return default if value is None else float(value)


class Source:
    """A provider's backfill adapter. Subclass, set `name` and `provider`, implement `discover`
    and `read`; run it against `carto_core.testing.SourceContract`.

    Live capture is not a method here: `carto hook` runs a stdlib-only handler declared by the
    `carto.capture` entry point (docs/capture.md), since a Source's module may import anything
    (attrs, a database driver) and is found through pluggy, neither of which the hook path may
    load."""

    name: ClassVar[str] = ""
    provider: ClassVar[str] = "unknown"
    #: One line for `carto plugins` and `carto ingest --help`.
    description: ClassVar[str] = ""
    #: Logs whose rows this source may write again under the same event_id with newer content
    #: (turns of a transcript still being written); `carto_core.ingest.runner` then compares content,
    #: not only ids, and readers keep the newest row (`carto_core.logio.fold`).
    revisable_logs: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, options: dict | None = None):
        self.options = dict(options or {})

    def given_roots(self) -> list[Path]:
        """The folders or files the `roots` option names (`carto ingest NAME --root`, repeatable,
        or `roots` under `[sources.NAME]` in the config file; `root` and a single path are
        accepted too), `~` expanded; [] when none was given."""
        given = self.options.get("roots") or self.options.get("root")
        if isinstance(given, (str, os.PathLike)):
            given = [given]
        return [Path(os.fspath(r)).expanduser() for r in given or ()]

    def root_paths(self, default: Iterable = ()) -> list[Path]:
        """`given_roots()`, else `default` (expanded the same way): where `discover` looks."""
        return self.given_roots() or [Path(os.fspath(r)).expanduser() for r in default]

    def read_roots(self) -> list[Path]:
        """The folders this source reads (its roots, given or default). A backfill never reads
        a stream's file that lies in one of them but leads out of it through a symlink, nor
        another user's file (`carto_core.ingest.runner.refused_stream`). Default: the given
        roots; a source with default folders returns those too."""
        return self.given_roots()

    def discover(self) -> Iterable[Stream]:
        """Streams this source can read, using `self.options` (`root_paths()`, filters)."""
        raise NotImplementedError(f"source {self.name!r} has no backfill")

    def read(self, stream: Stream, checkpoint: dict | None) -> ReadBatch:
        """Read one stream from `checkpoint` (None = from the start)."""
        raise NotImplementedError(f"source {self.name!r} has no backfill")

    def hook_files(self) -> list[Path]:
        """Files where an agent may keep this source's live-capture hooks (the ones `carto
        install` writes); `carto doctor` runs every carto handler it finds there the way the
        agent does. None by default."""
        return []

    def hook_problems(self, path: Path, settings: dict) -> list[dict]:
        """What is wrong with the installed hooks file at `path` beyond whether each handler
        fires (Codex: handlers it will skip as untrusted), as `{problem, fix}` items."""
        return []

    @classmethod
    def can_backfill(cls) -> bool:
        return cls.read is not Source.read

    @classmethod
    def present_by_default(cls) -> bool:
        """Whether what this source reads lies where it looks by default. Asked only of a source
        that cannot be built without a setting of its own (Hermes without its policy file):
        `carto ingest --all` asks for the setting where there is something to read, and
        otherwise counts the source among those with nothing to read."""
        return True


class Writer:
    """A sink for redacted rows. Subclass, set `name`, implement `write`."""

    name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    #: True for the source of truth (the JSONL logs); a failing primary writer fails the batch.
    primary: ClassVar[bool] = False

    def enabled(self, config) -> bool:
        return True

    def write(self, home, log: str, rows: list[dict]) -> int:
        raise NotImplementedError
