"""Session tags against an independent scan of the transcripts (json only), and `--tag` on
`carto sessions` and `carto search` keeping exactly the sessions the scan gives the tag.

The scan, per Claude Code session (its file and its subagents' files): `tool:` the names of its
`tool_use` blocks (an MCP tool as `mcp:<server>`), `ext:` the extensions of the files its edit
tools wrote (and the shell's `bashEditDiff.changedFiles`), `outcome:failure` an error result,
`outcome:commit` a commit the client reported (`gitOperation`, or git's `[branch sha]` line),
`outcome:test-run` a shell command starting a test runner; per Codex rollout, `tool:` the names
of its calls. Only what happens after a session's first prompt counts (before it there is no
turn).
"""

from __future__ import annotations

import json
import re
import shutil
from collections import defaultdict
from pathlib import Path

import pytest

from tests.clikit import run as _run, object_rows as _lines

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = [ROOT / "plugins" / "claude" / "tests" / "fixtures" / "claude-2.1.328",
            ROOT / "plugins" / "claude" / "tests" / "fixtures" / "claude-2.1.328-lineage"]
CODEX_REAL = ROOT / "plugins" / "codex" / "tests" / "fixtures" / "codex-0.169.0"
TESTS = re.compile(r"(^|[\s;&|])(pytest|npm test|go test|cargo test)(\s|$)")
COMMIT_LINE = re.compile(r"\[[^\]\s]+(?: \(root-commit\))? [0-9a-f]{7,40}\] ")


def _human(line: dict) -> bool:
    content = line["message"].get("content") if isinstance(line.get("message"), dict) else None
    texts = [content] if isinstance(content, str) else [
        b.get("text", "") for b in content or () if isinstance(b, dict) and b.get("type") == "text"]
    return line.get("type") == "user" and not line.get("isMeta") and any(
        t.strip() and not t.lstrip().startswith("<") and not t.startswith("This session is being continued")
        for t in texts if isinstance(t, str))


def scan_claude(root: Path) -> dict[str, set]:
    tags: dict[str, set] = defaultdict(set)
    for path in root.rglob("*.jsonl"):
        sid = None if path.name.startswith("agent-") else path.stem
        calls, started = {}, False
        for line in _lines(path):
            if not isinstance(line.get("message"), dict) or line.get("type") not in ("user", "assistant"):
                continue
            sid = sid or line.get("sessionId")
            started = started or _human(line)
            if not started or line.get("requestSessionId", line.get("sessionId")) != line.get("sessionId"):
                continue
            tags[sid].add("provider:claude")
            content = line["message"].get("content")
            for block in content if isinstance(content, list) else ():
                if not isinstance(block, dict):
                    continue
                if block.get("type") == "tool_use":
                    name = block["name"]
                    calls[block["id"]] = block
                    tags[sid].add("tool:" + (f"mcp:{name.split('__')[1].lower()}" if name.startswith("mcp__") else name.lower()))
                    if name in ("Edit", "Write", "MultiEdit") and "." in Path(block["input"].get("file_path", "")).name:
                        tags[sid].add("ext:" + Path(block["input"]["file_path"]).suffix.lstrip(".").lower())
                    if name == "Bash" and TESTS.search(block["input"].get("command", "")):
                        tags[sid].add("outcome:test-run")
                elif block.get("type") == "tool_result" and block.get("tool_use_id") in calls:
                    call, result = calls[block["tool_use_id"]], line.get("toolUseResult")
                    if block.get("is_error"):
                        tags[sid].add("outcome:failure")
                        # an edit the tool refused edited nothing
                        if call["name"] in ("Edit", "Write", "MultiEdit"):
                            others = [c for c in calls.values() if c is not call and c["name"] in ("Edit", "Write", "MultiEdit")
                                      and Path(c["input"].get("file_path", "")).suffix == Path(call["input"].get("file_path", "")).suffix]
                            if not others:
                                tags[sid].discard("ext:" + Path(call["input"]["file_path"]).suffix.lstrip(".").lower())
                    facts = result if isinstance(result, dict) else {}
                    for changed in (facts.get("bashEditDiff") or {}).get("changedFiles") or ():
                        tags[sid].add("ext:" + Path(changed).suffix.lstrip(".").lower())
                    if (facts.get("gitOperation") or {}).get("commit") or (
                            call["name"] == "Bash" and "git commit" in call["input"].get("command", "")
                            and COMMIT_LINE.search(json.dumps(block.get("content")))):
                        tags[sid].add("outcome:commit")
    return tags


def scan_codex(root: Path) -> dict[str, set]:
    tags: dict[str, set] = defaultdict(set)
    for path in root.rglob("rollout-*.jsonl"):
        sid, started = None, False
        for line in _lines(path):
            payload = line.get("payload") if isinstance(line.get("payload"), dict) else {}
            sid = sid or (payload.get("id") if line.get("type") == "session_meta" else None)
            started = started or (line.get("type") == "event_msg" and payload.get("type") == "user_message"
                                  and not str(payload.get("message", "")).lstrip().startswith("<"))
            if started:
                tags[sid].add("provider:codex")
                if line.get("type") == "response_item" and payload.get("type") in ("function_call", "custom_tool_call"):
                    tags[sid].add("tool:" + payload["name"].lower())
    return tags


@pytest.fixture
def home(shared_fixtures, tmp_path):
    claude = tmp_path / "claude"
    shutil.copytree(shared_fixtures / "claude" / "claude-code-viewer", claude / "viewer", ignore=shutil.ignore_patterns("*.md"))
    shutil.copytree(shared_fixtures / "claude" / "claude-code-log" / "minimal_showcase", claude / "showcase")
    for n, folder in enumerate(FIXTURES):
        shutil.copytree(folder, claude / f"real{n}", ignore=shutil.ignore_patterns("*.md", "payloads"))
    codex = tmp_path / "codex"
    shutil.copytree(CODEX_REAL / "sessions", codex)
    _run("ingest", "claude", "--root", str(claude), "--json")
    _run("ingest", "codex", "--root", str(codex), "--json")
    return claude, codex


def test_tags_match_the_transcripts(home):
    claude, codex = home
    truth_claude, truth_codex = scan_claude(claude), scan_codex(codex)
    listed = {s["session_id"]: set(s["tags"]) for s in _run("sessions", "--limit", "1000", "--json")["sessions"]}
    for sid, want in truth_claude.items():
        assert listed[sid] - {"outcome:push"} == want, sid  # no fixture pushes
    for sid, want in truth_codex.items():
        assert {t for t in listed[sid] if t.startswith(("provider:", "tool:"))} == want, sid
    everything = set().union(*listed.values())
    assert {"outcome:test-run", "outcome:commit", "outcome:failure", "ext:py", "ext:txt", "tool:task",
            "tool:mcp:plugin_showcase_example"} <= everything


def test_tag_filters_keep_exactly_the_tagged_sessions(home):
    listed = {s["session_id"]: set(s["tags"]) for s in _run("sessions", "--limit", "1000", "--json")["sessions"]}
    for tag in sorted(set().union(*listed.values())):
        kept = {s["session_id"] for s in _run("sessions", "--tag", tag, "--limit", "1000", "--json", ok=(0, 3))["sessions"]}
        assert kept == {sid for sid, tags in listed.items() if tag in tags}, tag
    both = _run("sessions", "--tag", "outcome:commit", "--tag", "ext:py", "--json", ok=(0, 3))["sessions"]
    assert {s["session_id"] for s in both} == {sid for sid, t in listed.items() if {"outcome:commit", "ext:py"} <= t}
    found = _run("search", "commit", "--tag", "outcome:commit", "--all", "--json")["results"]
    assert found and {r["session_id"] for r in found} <= {sid for sid, t in listed.items() if "outcome:commit" in t}
    assert _run("sessions", "--tag", "nonsense", ok=(2,)) is not None


def test_topic_tags_come_from_the_keyword_index(home):
    from carto_core.logio.home import current_home
    from carto_core.search.engine import SearchEngine
    from carto_core.search.related import related

    demo = "5c0375b4-57a5-4f26-b12d-d022ee4e51b7"
    top = related(SearchEngine(current_home()), demo, kind="session", limit=3)["co_terms"][0]["term"]
    kept = {s["session_id"] for s in _run("sessions", "--tag", f"topic:{top}", "--json")["sessions"]}
    assert demo in kept


def test_topic_tags_show_the_word_people_wrote_and_filter_by_it(tmp_path, monkeypatch):
    """Topic tags (the explorer's Topics facets) read "claud", "decim", "bundl": index terms,
    stemmed. Each is the word the session's rows hold, and the tag as shown filters to it."""
    from carto_core.evaluation.sample import SESSIONS, build_sample_home
    from carto_core.lenses.tags import matching_sessions, topic_tags
    from carto_core.lenses.views import session_summaries
    from carto_core.lenses.livecorpus import LiveCorpus
    from carto_core.logio.home import Home
    from carto_core.search.engine import SearchEngine

    root = tmp_path / "sample"
    build_sample_home(root)
    monkeypatch.setenv("CARTO_HOME", str(root))
    engine = SearchEngine(Home(root))
    engine.refresh()
    words = {w.lower() for path in root.glob("*.jsonl") for w in re.findall(r"\w+", path.read_text("utf-8"))}
    summaries = session_summaries(LiveCorpus(Home(root)))
    shown = {sid: topic_tags(engine, sid) for sid in SESSIONS.values()}
    everything = {tag for tags in shown.values() for tag in tags}
    assert {"topic:claude", "topic:decimal"} <= everything, everything
    assert not {"topic:claud", "topic:decim", "topic:bundl"} & everything
    for sid, tags in shown.items():
        for tag in tags:
            # a word of the rows, as written ("why", not its stem "whi")
            assert tag.partition(":")[2] in words, tag
            assert sid in matching_sessions(summaries, [tag], engine), (sid, tag)
    # what a person types, in any case or as the stem, finds the same sessions
    claude = matching_sessions(summaries, ["topic:claude"], engine)
    assert claude and claude == matching_sessions(summaries, ["topic:Claude"], engine) \
        == matching_sessions(summaries, ["topic:claud"], engine)
    assert {s["session_id"] for s in _run("sessions", "--since", "3650d", "--tag", "topic:Claude",
                                          "--json")["sessions"]} == claude
