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
    from datetime import timedelta

    from carto_core.evaluation.sample import SESSIONS
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.home import Home
    from carto_core.util.timeparse import format_timestamp, utcnow

    # one live session that began five days ago (the sample's own span hours): 4d 23h15m
    append_rows(Home(sample_home).log("tool-use"), [{
        "event_id": "evt-longsession01", "timestamp": format_timestamp(utcnow() - timedelta(days=5, minutes=15)),
        "session_id": SESSIONS["c"], "project": "infra-tools", "type": "tool_bash", "tool": "Bash",
        "summary": "terraform init", "provider": "claude"}])
    text = piped(["standup", "--since", "6h"], env_for()).stdout
    spans = re.findall(r"· (\S+(?: \d+h)?) span ·", text)
    assert spans and all(not re.fullmatch(r"\d{2,}h\d\dm", s) or int(s.split("h")[0]) < 48 for s in spans)
    assert "4d 23h" in spans, spans
    assert sum(bool(re.fullmatch(r"\d+d \d+h", s)) for s in spans) == 1, spans


def test_trustmap_says_its_lists_in_words_and_the_empty_ones_on_one_line(sample_home):
    """`carto trustmap`: a heading per list a person can read ("Kubernetes namespaces", not
    "k8s_namespaces"), what + means, the empty lists on one line (they were a heading each
    with nothing under it), and a long list cut with a count of the rest."""
    from carto_core.cli.trustmap_cmd import SHOWN, render_text

    doc = {"settings": "/home/u/.claude/settings.json",
           "hosts": [{"id": "docs.python.org", "hits": 3, "covered": True, "kind": "public"},
                     {"id": "10.0.0.7", "hits": 5, "covered": False, "kind": "lan"}],
           "clis": [{"id": f"tool{i}", "hits": 9, "covered": False} for i in range(SHOWN + 2)],
           "orgs": [], "buckets": [], "registries": [], "mcp_servers": [], "k8s_namespaces": [],
           "k8s_contexts": [{"id": "prod-eu", "hits": 4, "covered": False}]}
    lines = render_text(doc, "30d").splitlines()
    assert lines[0] == ("What your agents relied on in the last 30d; + marks what "
                        "/home/u/.claude/settings.json does not mention yet.")
    assert lines[1:4] == ["Hosts:", "    docs.python.org (public)  ×3", "  + 10.0.0.7 (lan)  ×5"]
    assert lines[4] == "CLIs:" and lines[5] == "  + tool0  ×9"
    assert lines[5 + SHOWN] == "  ... and 2 more (--json lists them all)"
    assert lines[6 + SHOWN:] == ["Kubernetes contexts:", "  + prod-eu  ×4",
                                 "None seen: Source control orgs, Cloud storage buckets, Package "
                                 "registries, MCP servers, Kubernetes namespaces."]
    # as printed, with no settings file to read
    text = plain(piped(["trustmap", "--settings", "/nonexistent/settings.json"], env_for()).stdout)
    assert text.startswith("What your agents relied on in the last 365d; + marks every entry: "
                           "no Claude Code settings file was read.")
    assert "k8s_" not in text and "mcp_servers" not in text


def test_doctor_counts_one_row_as_a_row_and_keeps_its_columns(sample_home):
    """The sample home's turns log holds one row: "turns 1 rows" read as a typo; the column of
    "newest" stays where the other logs' is."""
    text = plain(piped(["doctor", "--no-probe"], env_for()).stdout)
    logs = [line for line in text.splitlines() if re.match(r"  \S+ +\d+ rows? +newest ", line)]
    one = [line for line in logs if re.match(r"  \S+ +1 row ", line)]
    assert one and not [line for line in logs if re.match(r"  \S+ +1 rows", line)]
    assert len({line.index("newest") for line in logs}) == 1 and len(logs) >= 3
