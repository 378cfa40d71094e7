"""doctor and standup as a person reads them: hooks counted in words, spans in days."""

from __future__ import annotations

import re

from .pty_run import env_for, in_pty, piped, plain


def test_doctor_says_what_its_hook_probe_found_in_words(sample_home):
    env = env_for()
    assert piped(["install", "claude"], env).returncode == 0
    code, out = in_pty(["doctor"], env, columns=160)
    text = plain(out)
    line = next(line for line in text.splitlines() if line.startswith("  claude "))
    assert re.fullmatch(r"  claude   \d+ hooks in \S+settings\.json: each of its \d+ distinct commands "
                        r"ran and recorded", line), line
    assert "handler(s)" not in text and "command(s)" not in text
    hooks, commands = map(int, re.findall(r"\d+", line.split(" in ")[0] + " " + line.split(": ")[1]))
    assert commands <= hooks


def test_standup_spans_longer_than_two_days_read_in_days(sample_home):
    text = piped(["standup", "--since", "6h"], env_for()).stdout
    spans = re.findall(r"· (\S+(?: \d+h)?) span ·", text)
    assert spans and all(not re.fullmatch(r"\d{2,}h\d\dm", s) or int(s.split("h")[0]) < 48 for s in spans)
    assert any(re.fullmatch(r"\d+d \d+h", s) for s in spans), spans  # the sample's long sessions
