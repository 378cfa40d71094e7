"""When prompt recall finds its keyword index stale, hook.log says why in words: a log replaced
under it (a restored or copied home: same bytes, new inodes) is not "0 bytes appended"."""

from __future__ import annotations

import shutil

from .conftest import prompt_payload, run_hook

QUESTION = "how did we fix the coupon stacking bug in checkout?"


def _stale_line(home) -> str:
    lines = (home / ".carto" / "hook.log").read_text().splitlines()
    return next(line for line in lines if "keyword index stale" in line)


def test_a_log_copied_over_itself_is_named_as_replaced(recall_home):
    log = recall_home / "changelog.jsonl"
    shutil.copy2(log, recall_home / "copy.tmp")
    (recall_home / "copy.tmp").replace(log)  # the same bytes under a new inode
    done = run_hook(recall_home, "claude", prompt_payload("new-session", QUESTION))
    assert done.returncode == 0
    line = _stale_line(recall_home)
    assert "changelog log was replaced" in line and "bytes appended" not in line, line


def test_a_truncated_log_is_named_as_such(recall_home):
    log = recall_home / "changelog.jsonl"
    rows = log.read_text().splitlines()
    with open(log, "r+") as handle:  # the same file, shorter
        handle.truncate(len("\n".join(rows[:-1])) + 1)
    run_hook(recall_home, "claude", prompt_payload("new-session", QUESTION))
    line = _stale_line(recall_home)
    assert "changelog log is shorter" in line and "bytes appended" not in line, line
