"""What every repair shares: the dry-run/write driver and the counts document."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field

from carto_core.logio.home import Home
from carto_core.logio.rewrite import parse_lines, rewrite_lines

Line = tuple[bytes, "dict | None"]

#: Examples kept per repair in the document (enough to check by hand, bounded for big homes).
MAX_EXAMPLES = 20


@dataclass
class Tally:
    """What one pass of a repair over one log found and changed."""

    counts: Counter = field(default_factory=Counter)
    examples: list = field(default_factory=list)

    def add(self, key: str, n: int = 1) -> None:
        self.counts[key] += n

    def example(self, **what) -> None:
        if len(self.examples) < MAX_EXAMPLES:
            self.examples.append(what)


class Repair:
    """One repair. Subclasses set the names and implement `fix` (and `prepare` when they read
    other logs or the filesystem first)."""

    #: The command name (`torn-rows`).
    name: str = ""
    #: The document's key for what it found (`torn`), next to `fixed`.
    found_key: str = "found"
    #: Count keys always present in the document (0 when nothing was seen).
    count_keys: tuple[str, ...] = ()
    #: Log labels it may rewrite (searched and side logs).
    labels: tuple[str, ...] = ()

    def prepare(self, home: Home) -> None:
        """Read what `fix` needs (other logs, the filesystem). Called once before any pass."""

    def fix(self, label: str, lines: list[Line], tally: Tally) -> list[bytes]:
        """The log's new lines (each ending in a newline). Counts `found_key` and `fixed` (what
        it changed) in `tally`; must be pure: it runs once dry and once under the lock."""
        raise NotImplementedError


def read_lines(path: os.PathLike | str) -> list[Line]:
    """Every non-blank line of a log with its row (None when it does not parse as one)."""
    from carto_core.logio.rewrite_journal import settle

    settle(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except FileNotFoundError:
        return []
    return parse_lines(path, data)[0]


def run_repair(repair: Repair, home: Home, *, write: bool = False,
               labels: Iterable[str] | None = None) -> dict:
    """Run `repair` over the home, dry unless `write`; returns the counts document.

    `{"repair", "home", "dry_run", <found_key>, "fixed", "would_fix", ..., "logs": {label:
    counts}, "examples": [...]}`: in a dry run `fixed` is 0 and `would_fix` says what `--write`
    would change; after a write `fixed` is what was changed.
    """
    repair.prepare(home)
    chosen = tuple(labels) if labels is not None else repair.labels
    totals: Counter = Counter({key: 0 for key in (repair.found_key, *repair.count_keys)})
    examples: list = []
    per_log: dict[str, dict] = {}
    fixed = would_fix = 0
    for label in chosen:
        path = home.log(label)
        if not path.exists():
            continue
        tally = Tally()
        repair.fix(label, read_lines(path), tally)
        found_here = dict(tally.counts)
        fixable = tally.counts.get("fixed", 0)
        if write and fixable:
            applied = Tally()

            def transform(lines, applied=applied, label=label):
                return repair.fix(label, lines, applied)

            rewrite_lines(path, transform)
            tally = applied
            found_here = dict(applied.counts)
            fixed += applied.counts.get("fixed", 0)
        else:
            would_fix += fixable
        found_here.pop("fixed", None)
        for key, value in found_here.items():
            totals[key] += value
        per_log[label] = {**found_here, "fixed": tally.counts.get("fixed", 0) if write else 0,
                          "would_fix": 0 if write else fixable}
        examples.extend({"log": label, **e} for e in tally.examples[: MAX_EXAMPLES - len(examples)])
    return {
        "repair": repair.name, "home": str(home.root), "dry_run": not write,
        **dict(totals), "fixed": fixed, "would_fix": would_fix,
        "logs": per_log, "examples": examples,
    }
