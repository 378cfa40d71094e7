"""The Hermes adapter on state.db files built in code (current and old schemas)."""

from __future__ import annotations

import hashlib
import json
import os
from collections import Counter

import pytest
from hypothesis import given, strategies as st

from carto_core.logio.logs import SHAPES
from carto_hermes.fixtures import T0, call
from carto_hermes.policy import load_policy
from carto_hermes.content import STRUCTURED_PREFIXES, LineFilter, decode_content
from carto_hermes.source import HermesSource


NOW = T0 + 30 * 86400  # long after every fixture session: all settled unless said otherwise


def read(policy_path, now=NOW, checkpoints=None, **options):
    """Every stream of a source built from the policy file: (rows by log, skipped, checkpoints)."""
    source = HermesSource({"policy": load_policy(str(policy_path)), "_now": now, **options})
    rows: dict[str, list[dict]] = {}
    skipped: Counter = Counter()
    saved = {}
    for stream in source.discover():
        batch = source.read(stream, (checkpoints or {}).get(stream.key))
        for emit in batch.rows:
            rows.setdefault(emit.log, []).append(emit.row)
        skipped.update(batch.skipped)
        saved[stream.key] = batch.checkpoint
    return rows, skipped, saved


def all_text(rows) -> str:
    return json.dumps(rows, ensure_ascii=False)


def test_turns_lifecycle_and_what_is_never_indexed(hermes_home, make_policy, corpus_root):
    repo = corpus_root / "carto"
    (repo / ".git").mkdir(parents=True)
    db = hermes_home.db()
    db.session("s1", cwd=str(repo / "src"), title="Fix flaky test")
    db.message("s1", "system", "SYSTEM-PROMPT-TEXT", T0 + 1)
    prompts = db.conversation("s1", [("why does test_x fail?", "Let me run it."),
                                     ("and now?", "It passes.")],
                              start=T0 + 1, tools={0: [call("terminal", command="pytest -x")]})
    rows, skipped, _ = read(make_policy())
    turns = rows["turns"]
    assert [t["event_id"] for t in turns] == [f"turn-hermes-s1-{i}" for i in prompts]
    assert turns[0]["summary"] == "why does test_x fail? Let me run it. [tools: terminal]"
    assert turns[1]["summary"] == "and now? It passes."
    assert [t["turn_idx"] for t in turns] == [1, 2]
    assert {t["project"] for t in turns} == {"carto"}
    assert all(list(t) == [k for k in SHAPES["turns"] if k in t] + ["salience", "prompt_intent", "ended"]
               for t in turns)
    # a turn ends at its last reply (its tool rows are no reply: never indexed, not its end)
    assert [t["ended"] for t in turns] == ["2026-09-21T14:13:31Z", "2026-09-21T14:13:42Z"]
    # each turn's intent is its human prompt's, not its reply's (issue 17)
    assert [t["prompt_intent"] for t in turns] == ["bug-fixes", "other"]
    [life] = rows["milestones"]
    assert life["event_id"] == "hermes-session-s1"
    assert life["milestone"] == "hermes_session" and life["event"] == "HermesSession"
    assert life["timestamp"] == "2026-09-21T14:13:20Z"
    assert life["hermes_profile"] == "default" and life["hermes_source"] == "desktop"
    assert life["salience"] == 0.25 and life["transcript_path"] == ""
    assert "Fix flaky test" in life["summary"] and "2 prompts, 1 tool calls" in life["summary"]
    text = all_text(rows)
    assert "TOOL-RESULT-TEXT" not in text and "SYSTEM-PROMPT-TEXT" not in text
    assert not skipped


def test_structured_content_both_prefixes(hermes_home, make_policy):
    db = hermes_home.db()
    db.session("s2")
    for index, prefix in enumerate(STRUCTURED_PREFIXES):
        parts = [{"type": "text", "text": f"look at picture {index}"},
                 {"type": "image_url", "image_url": {"url": "data:image/png;base64,AAAA"}}]
        db.message("s2", "user", prefix + json.dumps(parts), T0 + 10 * index + 1)
        db.message("s2", "assistant", f"I see picture {index}", T0 + 10 * index + 2)
    rows, _, _ = read(make_policy())
    assert [t["summary"] for t in rows["turns"]] == ["look at picture 0 I see picture 0",
                                                     "look at picture 1 I see picture 1"]
    assert "base64" not in all_text(rows)


def test_only_the_live_transcript(hermes_home, make_policy):
    db = hermes_home.db()
    db.session("s3")
    long_prompt = "please refactor the ingest runner for checkpoints"
    db.message("s3", "user", long_prompt, T0 + 1, active=0, compacted=1)
    db.message("s3", "assistant", "done: the runner checkpoints per stream now", T0 + 2,
               active=0, compacted=1)
    db.message("s3", "user", "REWOUND prompt that was taken back", T0 + 3, active=0, compacted=0)
    db.message("s3", "assistant", "COMPACTION SUMMARY of earlier work", T0 + 4,
               _compressed_summary=1)
    db.message("s3", "user", long_prompt, T0 + 5)  # active copy of a compacted text
    db.message("s3", "user", "Review the conversation above and consider saving to memory", T0 + 6)
    db.message("s3", "user", "HIDDEN scaffolding", T0 + 7, display_kind="hidden")
    db.message("s3", "user", "next: add the tests", T0 + 8)
    db.message("s3", "assistant", "tests added", T0 + 9)
    rows, _, _ = read(make_policy())
    assert [t["summary"] for t in rows["turns"]] == [
        f"{long_prompt} done: the runner checkpoints per stream now",
        "next: add the tests tests added",
    ]
    text = all_text(rows)
    for gone in ("REWOUND", "COMPACTION SUMMARY", "HIDDEN", "saving to memory"):
        assert gone not in text


def test_single_shot_hidden_and_unselected_sessions_are_skipped(hermes_home, make_policy):
    db = hermes_home.db()
    db.session("one-shot")
    db.conversation("one-shot", [("just one question", "one answer")])
    db.session("one-shot-with-tool")
    db.conversation("one-shot-with-tool", [("list files", "here")], tools={0: [call("terminal")]})
    db.session("hidden", hidden=1)
    db.conversation("hidden", [("a", "b"), ("c", "d")])
    db.session("telegram", source="telegram")
    db.conversation("telegram", [("a", "b"), ("c", "d")])
    rows, skipped, _ = read(make_policy())
    assert {r["session_id"] for r in rows["milestones"]} == {"one-shot-with-tool"}
    assert skipped == Counter(single_shot=1, hidden=1, source_not_selected=1)
    rows, skipped, _ = read(make_policy(min_user_prompts=1))
    assert {r["session_id"] for r in rows["milestones"]} == {"one-shot", "one-shot-with-tool"}


def test_two_level_exclusion_and_redaction(hermes_home, make_policy, corpus_root):
    db = hermes_home.db()
    db.session("private", cwd=str(corpus_root / "secret-proj" / "src"))
    db.conversation("private", [("PRIVATE-WORK one", "x"), ("PRIVATE-WORK two", "y")])
    db.session("public", cwd=str(corpus_root / "carto"))
    db.conversation("public", [
        ("compare with secret-proj please\nand keep this line", "ok\nmy password manager says hi"),
        ("second", "fine"),
    ])
    rows, skipped, _ = read(make_policy(exclude_projects=["Secret-Proj"],
                                        redact_patterns=["(?i)password manager"]))
    assert skipped["excluded_project"] == 1
    assert {r["session_id"] for r in rows["milestones"]} == {"public"}
    text = all_text(rows)
    assert "PRIVATE-WORK" not in text and "secret-proj" not in text.lower()
    first = rows["turns"][0]["summary"]
    assert first == "[excluded] and keep this line ok [excluded]"


def test_cron_runs(hermes_home, make_policy):
    db = hermes_home.db()
    sid = "cron_ab12cd_20260925_040300"
    db.session(sid, source="cron", title="nightly-digest · Sep 25 04:03")
    db.message(sid, "user", "CRON-PROMPT: summarise yesterday", T0 + 1)
    db.message(sid, "assistant", "working on it", T0 + 2, tool_calls=[call("read_file")])
    db.message(sid, "tool", "TOOL-RESULT-TEXT", T0 + 3)
    final = db.message(sid, "assistant", "Digest: three sessions, one release.", T0 + 4)
    rows, _, _ = read(make_policy(cron_projects={"ab12cd": "ops"}))
    [turn] = rows["turns"]
    assert turn["event_id"] == f"turn-hermes-{sid}-{final}"
    assert turn["summary"] == "Digest: three sessions, one release."
    assert turn["salience"] == 0.3 and turn["project"] == "ops"
    [life] = rows["milestones"]
    assert life["event_id"] == f"hermes-cron-{sid}" and life["milestone"] == "hermes_cron_run"
    assert life["event"] == "CronRun" and life["cron_job_id"] == "ab12cd"
    assert life["cron_job"] == "nightly-digest" and life["ended_at"] == "2026-09-21T14:23:20Z"
    assert "CRON-PROMPT" not in all_text(rows)
    rows, _, _ = read(make_policy(cron_skip_turns=["ab12cd"]))
    assert "turns" not in rows and len(rows["milestones"]) == 1


def test_lifecycle_waits_until_settled_and_checkpoints_resume(hermes_home, make_policy):
    db = hermes_home.db()
    db.session("live", ended=None)
    ids = db.conversation("live", [("first prompt", "first reply"), ("second prompt", "partial")])
    policy = make_policy()
    now = T0 + 100  # the last message is seconds old: not settled
    rows, _, checkpoints = read(policy, now=now)
    assert [t["event_id"] for t in rows["turns"]] == [f"turn-hermes-live-{ids[0]}"]
    assert "milestones" not in rows  # no lifecycle row before the session settles
    again, _, checkpoints = read(policy, now=now, checkpoints=checkpoints)
    assert again == {}
    later = T0 + 100 + 3600
    rows, _, checkpoints = read(policy, now=later, checkpoints=checkpoints)
    assert [t["event_id"] for t in rows["turns"]] == [f"turn-hermes-live-{ids[1]}"]
    assert [m["event_id"] for m in rows["milestones"]] == ["hermes-session-live"]
    assert read(policy, now=later + 10, checkpoints=checkpoints)[0] == {}
    # a session with ended_at set is settled at once, however recent its last message
    db.session("closed", ended=T0 + 50)
    db.conversation("closed", [("a prompt", "a reply"), ("b prompt", "b reply")])
    rows, _, _ = read(policy, now=now, checkpoints=checkpoints)
    assert [m["event_id"] for m in rows["milestones"]] == ["hermes-session-closed"]
    assert len(rows["turns"]) == 2


def test_project_attribution_order(hermes_home, make_policy, corpus_root, tmp_path):
    (corpus_root / "repo-a" / ".git").mkdir(parents=True)
    outside = tmp_path / "elsewhere"
    db = hermes_home.db()
    pairs = [("p one", "r one"), ("p two", "r two")]
    # 1. cwd under corpus_root: the shared resolver (git repo name), even if path_projects matches
    db.session("by-cwd", cwd=str(corpus_root / "repo-a" / "pkg"))
    db.conversation("by-cwd", pairs)
    # 2. path_projects, longest prefix wins
    db.session("by-prefix", cwd=str(outside / "clients" / "acme" / "web"))
    db.conversation("by-prefix", pairs)
    # 3. cron_projects for a cron job without a usable cwd
    db.session("cron_ff00_20260925_040300", source="cron", title="job · Sep 25")
    db.conversation("cron_ff00_20260925_040300", pairs)
    # 4. the dominant tool path under corpus_root (3 of 4 votes)
    db.session("by-tools")
    db.conversation("by-tools", pairs, tools={
        0: [call("read_file", path=str(corpus_root / "tooled" / "a.py")),
            call("write_file", path=str(corpus_root / "tooled" / "b.py"))],
        1: [call("patch", path=str(corpus_root / "tooled" / "c.py")),
            call("read_file", path=str(corpus_root / "other" / "d.py"))]})
    # a tie is no majority: falls through to default_project
    db.session("tie")
    db.conversation("tie", pairs, tools={0: [call("read_file", path=str(corpus_root / "x" / "1")),
                                             call("read_file", path=str(corpus_root / "y" / "2"))]})
    # 5. default_project
    db.session("nothing")
    db.conversation("nothing", pairs)
    policy = make_policy(
        path_projects={str(outside): "outer", str(outside / "clients" / "acme"): "acme",
                       str(corpus_root / "repo-a"): "never-used"},
        cron_projects={"ff00": "cron-proj"}, default_project="misc")
    rows, _, _ = read(policy)
    projects = {r["session_id"]: r["project"] for r in rows["milestones"]}
    assert projects == {"by-cwd": "repo-a", "by-prefix": "acme",
                        "cron_ff00_20260925_040300": "cron-proj", "by-tools": "tooled",
                        "tie": "misc", "nothing": "misc"}
    source = HermesSource({"policy": load_policy(str(policy)), "_now": NOW})
    [stream] = list(source.discover())
    assert source.explain(stream, "by-tools").project_reason == "dominant tool path (3 of 4)"


def test_old_minimal_schema(old_hermes_home, make_policy):
    db = old_hermes_home.db()
    db.session("legacy", source="cli", title="Old install")
    db.conversation("legacy", [("hello old hermes", "hi"), ("and again", "sure")],
                    tools={1: [call("terminal")]})
    rows, skipped, _ = read(make_policy(hermes_home=str(old_hermes_home.root)))
    assert [t["summary"] for t in rows["turns"]] == ["hello old hermes hi",
                                                     "and again sure [tools: terminal]"]
    assert rows["milestones"][0]["project"] == "hermes" and "cwd" in rows["milestones"][0]
    assert not skipped


def test_profiles_and_tombstones(hermes_home, make_policy):
    for profile in ("default", "work", "gone"):
        db = hermes_home.db(profile)
        db.session(f"s-{profile}")
        db.conversation(f"s-{profile}", [("a", "b"), ("c", "d")])
    (hermes_home.root / "profiles" / ".deleted" / "gone").mkdir(parents=True)
    backup = hermes_home.root / "state.db.bak"
    backup.write_bytes((hermes_home.root / "state.db").read_bytes())
    rows, _, _ = read(make_policy())
    assert {(r["session_id"], r["hermes_profile"]) for r in rows["milestones"]} == {
        ("s-default", "default"), ("s-work", "work")}
    rows, _, _ = read(make_policy(profiles=["work"]))
    assert [r["session_id"] for r in rows["milestones"]] == ["s-work"]


def test_garbage_rows_are_skipped_and_counted(hermes_home, make_policy):
    db = hermes_home.db()
    db.session("messy")
    db.message("messy", "user", "\x01json:[{not json", T0 + 1)
    db.message("messy", "user", "a fine prompt", T0 + 2)
    db.message("messy", "assistant", "reply", T0 + 3, tool_calls="{broken")
    db.message("messy", "session_meta", "{}", T0 + 4)
    db.message("messy", "user", "another prompt", T0 + 5)
    rows, skipped, _ = read(make_policy())
    assert skipped == Counter({"bad_structured_content": 1, "bad_tool_calls": 1,
                               "unknown_role:session_meta": 1})
    assert [t["summary"] for t in rows["turns"]] == ["a fine prompt reply", "another prompt"]


def test_artifacts_are_versioned_rows(hermes_home, make_policy, tmp_path):
    plans = tmp_path / "plans"
    (plans / "deep").mkdir(parents=True)
    (plans / "README.md").write_text("# Readme\n\nnot an artifact\n", "utf-8")
    (plans / "deep" / "nested.md").write_text("# Nested\n\ntoo deep\n", "utf-8")
    plan = plans / "Release Plan.md"
    plan.write_text("# Release plan\n\nShip 0.2 on Friday.\nThen rest.\n\n## Risks\n\n"
                    "the password manager key\n", "utf-8")
    policy = make_policy(artifacts=[{"kind": "plan", "dir": str(plans), "salience": 0.8}],
                         redact_patterns=["password manager"])
    rows, _, checkpoints = read(policy, _only="artifacts")
    [row] = rows["milestones"]
    digest = hashlib.sha256(plan.read_bytes()).hexdigest()
    assert row["event_id"] == f"hermes-plan-release-plan-{digest[:8]}"
    assert row["milestone"] == "hermes_plan" and row["event"] == "Plan"
    assert row["summary"] == "Release plan: Ship 0.2 on Friday. Then rest."
    assert "[excluded]" in row["description"] and "password" not in row["description"]
    assert row["content_hash"] == digest and row["salience"] == 0.8
    assert read(policy, _only="artifacts", checkpoints=checkpoints)[0] == {}
    plan.write_text("# Release plan\n\nShip 0.3 instead.\n", "utf-8")
    rows, _, _ = read(policy, _only="artifacts", checkpoints=checkpoints)
    [new] = rows["milestones"]
    assert new["event_id"] != row["event_id"] and new["summary"] == "Release plan: Ship 0.3 instead."
    rows, _, _ = read(make_policy(artifacts=[{"kind": "plan", "dir": str(plans), "depth": 1}]),
                      _only="artifacts")
    assert sorted(r["summary"].split(":")[0] for r in rows["milestones"]) == ["Nested", "Release plan"]


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=30),
                min_size=1, max_size=5))
def test_both_structured_prefixes_decode_alike(texts):
    parts = [{"type": "text", "text": t} for t in texts] + [{"type": "image_url", "image_url": {}}]
    decoded = {decode_content(p + json.dumps(parts)) for p in STRUCTURED_PREFIXES}
    assert decoded == {("\n".join(t for t in texts if t), True)}


@given(st.text(max_size=200))
def test_line_filter_replaces_exactly_the_matching_lines(text):
    import re

    pattern = re.compile("secret", re.IGNORECASE)
    out = LineFilter([pattern])(text).splitlines()
    assert not any(pattern.search(line) for line in out)
    for line in text.splitlines():
        if line and not pattern.search(line):
            assert line in out
    assert out.count("[excluded]") >= sum(1 for line in text.splitlines() if pattern.search(line))


def test_policy_defaults_and_hermes_home_from_env(monkeypatch, tmp_path, hermes_home):
    monkeypatch.setenv("HERMES_HOME", str(hermes_home.root))
    path = tmp_path / "p.json"
    path.write_text("{}", "utf-8")
    policy = load_policy(str(path))
    assert policy.hermes_home == hermes_home.root and policy.min_user_prompts == 2
    assert os.fspath(policy.path) == os.fspath(path)


def test_source_without_a_policy_refuses(tmp_path):
    from carto_hermes.policy import PolicyError

    with pytest.raises(PolicyError, match="no Hermes policy file"):
        HermesSource({})
    inline = HermesSource({"policy": {"hermes_home": str(tmp_path), "min_user_prompts": 1}})
    assert inline.policy.min_user_prompts == 1 and inline.policy.hermes_home == tmp_path


def test_since_days_and_profile_options(hermes_home, make_policy):
    for profile in ("default", "work"):
        db = hermes_home.db(profile)
        db.session(f"old-{profile}", started=T0, ended=T0 + 60)
        db.conversation(f"old-{profile}", [("a", "b"), ("c", "d")], start=T0)
        db.session(f"new-{profile}", started=NOW - 3 * 86400, ended=NOW - 3 * 86400 + 60)
        db.conversation(f"new-{profile}", [("a", "b"), ("c", "d")], start=NOW - 3 * 86400)
    rows, skipped, _ = read(make_policy(), _since_days=7)
    assert {r["session_id"] for r in rows["milestones"]} == {"new-default", "new-work"}
    assert skipped == Counter(older_than_since=2)
    rows, _, _ = read(make_policy(), _profiles=["work"])
    assert {r["session_id"] for r in rows["milestones"]} == {"old-work", "new-work"}
    # --profile narrows the policy's list, never widens it
    assert read(make_policy(profiles=["work"]), _profiles=["default"])[0] == {}


def test_the_fixture_leaves_no_connection_for_the_collector(tmp_path):
    """A leaked writer connection would checkpoint the WAL into state.db whenever the garbage
    collector reached it, changing the file under the byte-identical read-only checks."""
    import gc
    import hashlib

    from carto_hermes.fixtures import HermesDB

    collecting = gc.isenabled()
    gc.disable()
    try:
        db = HermesDB(tmp_path / "state.db")
        db.session("s1")
        before = hashlib.sha256((tmp_path / "state.db").read_bytes()).hexdigest()
        gc.collect()
        after = hashlib.sha256((tmp_path / "state.db").read_bytes()).hexdigest()
    finally:
        if collecting:
            gc.enable()
    assert after == before
