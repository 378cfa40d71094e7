"""Logs a command answers without: one that cannot be read is left out, named, and the rest
answer (as `carto search` does, docs/search.md#a-log-that-cannot-be-read)."""

from __future__ import annotations

from carto_core.util.output import fail


def fail_if_none_readable(home, labels) -> None:
    """Exit 1 naming them when none of the logs `labels` that are there can be read: a
    damaged home is not an empty one."""
    from carto_core.model.corpus import none_readable

    damaged = none_readable(home, labels)
    if damaged:
        fail(damaged)


def skip_unreadable(home, labels, left_out: str) -> list[dict]:
    """The `skipped_files` of the logs `labels` that cannot be read, each said on stderr;
    exits 1 naming them when none of those logs that are there can be read (a damaged home
    is not an empty one). `left_out` says what the answer lacks for each."""
    from carto_core.cli.search_text import say_skipped
    from carto_core.model.corpus import skipped_files, unreadable_logs

    labels = list(labels)
    fail_if_none_readable(home, labels)
    skipped = skipped_files(home, unreadable_logs(home, labels), left_out)
    say_skipped(home, skipped)
    return skipped
