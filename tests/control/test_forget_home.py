"""`carto forget --project P --write` on a home that holds P everywhere: no byte of P's text is
left under the home, the other project's answers are what they were, and a re-ingest of P's
transcripts (or P's next Stop hook on them) writes nothing back."""

from __future__ import annotations

import json

from carto_core.logio.logs import SEARCHED_LOGS, SIDE_LOGS
from tests.control.conftest import MARK, P, Q, QMARK, SID_P, SID_Q, files_holding, hook, invoke

QUERIES = [QMARK, "discount codes", "coupon reload", "cart total tax", "make build",
           "caching work", "cache warm"]


def _answers(scope: str | None, *, env=None, semantic: bool = False) -> dict:
    out = {}
    for query in QUERIES:
        args = ["search", query, "--json", "--all", "--limit", "20",
                "--semantic" if semantic else "--no-semantic"]
        if scope:
            args += ["--project", scope]
        document = json.loads(invoke(*args, env=env, ok=(0, 3)).stdout)
        out[query] = [(r["event_id"], round(r["score"], 6)) for r in document["results"]]
    return out


def _reference_home(full_home, root) -> dict:
    """The same home had P never been recorded: every event log copied without P's lines (told
    apart here by their text, not by carto), indexed from scratch."""
    from carto_core.logio.home import Home

    home = Home(root)
    home.root.mkdir()
    for label in (*SEARCHED_LOGS, *SIDE_LOGS):  # the access ledger's reuse counts too
        lines = full_home.home.log(label).read_bytes().splitlines(keepends=True)
        home.log(label).write_bytes(b"".join(
            line for line in lines if P.encode() not in line and MARK.encode() not in line))
    return {"CARTO_HOME": str(home.root)}


def _vectors(home, project: str) -> dict:
    """event id -> (int8 codes, scale) of the project's stored vectors."""
    import numpy as np

    from carto_core.semantic.embedded import EmbeddedStore, Segment
    from carto_core.semantic.store import vectors_dir

    store = EmbeddedStore(vectors_dir(home))
    out = {}
    for entry in store._read_manifest()["segments"]:
        columns = Segment(store.root / entry["name"], entry).columns()
        for i, event_id in enumerate(columns["ids"]):
            if columns["projects"][i] == project:
                out[bytes(event_id).decode()] = (np.asarray(columns["vectors"][i]).tobytes(),
                                                 float(columns["scale"][i]))
    return out


def _lines_of(home, project: str) -> dict[str, list[bytes]]:
    out = {}
    for label in (*SEARCHED_LOGS, "knowledge-gaps"):
        path = home.log(label)
        if path.exists():
            out[label] = sorted(line for line in path.read_bytes().splitlines()
                                if project.encode() in line.lower() or QMARK.encode() in line.lower())
    return out


def test_forget_a_project_leaves_no_byte_of_it_and_changes_no_other_answer(full_home, tmp_path):
    home = full_home.home
    assert len(files_holding(home.root, [P, MARK])) > 20  # the fixture really put P everywhere
    reference = _reference_home(full_home, tmp_path / "never-p")
    invoke("index", env=reference)
    vectors_of_q = _vectors(home, Q)
    kept_rows = _lines_of(home, Q)
    served = [json.loads(line) for line in home.log("served").read_bytes().splitlines()]
    calls_of_p = {r["call_id"] for r in served if r["project"] == P}
    calls_of_q_only = {r["call_id"] for r in served} - calls_of_p
    assert calls_of_q_only  # Q's searches are calls of their own, though made in one second
    census_before = json.loads(invoke("facts", "census", "--json", "--project", Q).stdout)

    dry = json.loads(invoke("forget", "--project", P, "--json").stdout)
    assert dry["dry_run"] and dry["events"] > 0
    assert set(dry["logs"]) >= set(SEARCHED_LOGS)  # P is in every log
    assert files_holding(home.root, [P, MARK])  # a dry run changes nothing

    done = json.loads(invoke("forget", "--project", P, "--write", "--json").stdout)
    assert done["events"] == dry["events"]
    assert done["derived"]["keyword_index"]["outcome"] == "patched"
    assert done["derived"]["facts"]["outcome"] == "patched"
    assert sum(done["derived"]["vectors"]["deleted"].values()) > 0
    assert files_holding(home.root, [P, MARK]) == []

    # The person's part of MEMORY.md stays byte for byte; carto's section for P is gone.
    assert full_home.memory_file.read_text("utf-8") == "# My notes\n\nThe person's own line.\n"

    # Every row of the other project is still there, and its answers are the same.
    assert _lines_of(home, Q) == kept_rows
    served = [json.loads(line) for line in home.log("served").read_bytes().splitlines()]
    assert calls_of_q_only <= {r["call_id"] for r in served}  # searches that never served P stay
    assert not calls_of_p & {r["call_id"] for r in served}  # those that did go whole
    # The other project's answers are those of a home that never held P: the keyword index
    # was patched to what a fresh build gives (same documents, same statistics, same scores).
    assert _answers(Q) == _answers(Q, env=reference)
    assert _answers(None) == _answers(None, env=reference)
    # Its vectors were kept as they were, byte for byte (a patch, not a re-embedding).
    assert _vectors(home, Q) == vectors_of_q and vectors_of_q
    census_after = json.loads(invoke("facts", "census", "--json", "--project", Q).stdout)
    assert census_after["facts"] == census_before["facts"]
    assert census_after["facts"]["by_project"][0]["count"] > 5
    semantic = json.loads(invoke("search", "coupon survives reload", "--json", "--semantic").stdout)
    assert semantic["semantic_status"] == "available"  # the ladder was patched, not dropped
    assert semantic["results"] and {r["project"] for r in semantic["results"]} == {Q}

    # A backfill of P's transcripts and history, and P's next Stop hook, write nothing back.
    before = {label: home.log(label).read_bytes() for label in SEARCHED_LOGS}
    again = json.loads(invoke("ingest", "claude", "--settle", "0", "--json").stdout)
    assert again["rows_written"] == 0 and again["skipped"].get("forgotten", 0) > 0
    path = full_home.projects / f"-work-{P}" / f"{SID_P}.jsonl"
    hook(home, "Stop", {"session_id": SID_P, "cwd": f"/work/{P}", "transcript_path": str(path),
                        "hook_event_name": "Stop"})
    assert {label: home.log(label).read_bytes() for label in SEARCHED_LOGS} == before


def test_a_dry_run_counts_per_log_and_per_store_and_writes_nothing(full_home):
    home = full_home.home
    snapshot = {p: p.read_bytes() for p in home.root.rglob("*") if p.is_file()}
    document = json.loads(invoke("forget", "--project", P, "--json").stdout)
    assert {p: p.read_bytes() for p in home.root.rglob("*") if p.is_file()} == snapshot
    assert document["telemetry"]["served"] > 0 and document["telemetry"]["search-calls"] > 0
    assert document["checkpoints"]["checkpoints"] >= 1 and document["checkpoints"]["live"] == 1
    assert document["derived"]["keyword_index"] == document["events"]
    assert list(document["derived"]["vectors"].values())[0] > 0
    assert document["memory_files"]["removed"] == [str(full_home.memory_file)]
    assert document["tombstones"] == document["events"]


def test_nothing_matched_exits_3_and_no_criteria_is_a_usage_error(full_home):
    assert invoke("forget", "--project", "no-such-project", ok=(3,)).exit_code == 3
    assert invoke("forget", ok=(2,)).exit_code == 2
    assert invoke("forget", "--before", "not a time", ok=(2,)).exit_code == 2


def test_repair_redact_patches_the_stores_and_search_keeps_its_semantic_ladder():
    """`carto repair redact --write` used to delete the vectors (and the keyword index and the
    facts cache): search said the semantic ladder was unavailable until the next keep-up. Now
    the stores are patched: only the changed row's vector goes (embedded again by the next
    keep-up), the others stay, and no store holds the credential."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.home import current_home

    home = current_home()
    secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYzz9EXAMPLE"
    rows = [{"event_id": f"evt-r{i}", "timestamp": f"2026-05-0{i + 1}T10:00:00Z", "type": "tool_bash",
             "project": Q, "session_id": SID_Q, "summary": f"Ran: deploy the {QMARK} shop step {i}"}
            for i in range(5)]
    rows[2]["summary"] = f"Ran: export AWS_SECRET_ACCESS_KEY={secret} before the {QMARK} deploy"
    home.root.mkdir(parents=True)
    append_rows(home.log("changelog"), rows)
    invoke("index")
    invoke("facts", "census")
    before = json.loads(invoke("search", "deploy shop", "--json", "--semantic").stdout)
    assert before["semantic_status"] == "available" and before["semantic"]["not_embedded"] == 0

    done = json.loads(invoke("repair", "redact", "--write", "--json").stdout)
    assert done["fixed"] == 1
    after = json.loads(invoke("search", "release webstore", "--json", "--semantic").stdout)
    assert after["semantic_status"] == "available"  # the ladder never went away
    patched = done["caches"]["patched"]
    assert patched["keyword_index"]["outcome"] == "patched" and patched["facts"]["outcome"] == "patched"
    assert list(patched["vectors"]["deleted"].values()) == [1]
    assert after["semantic"]["not_embedded"] == 1  # the redacted row waits for the keep-up
    semantic = [ladder for ladder in after["ladders"] if ladder["name"] == "semantic"]
    assert semantic and semantic[0]["status"] == "ok" and semantic[0]["contributed"] > 0, after["ladders"]
    assert files_holding(home.root, [secret[:12]]) == []
    invoke("index", "--step", "semantic")
    assert json.loads(invoke("search", "deploy shop", "--json", "--semantic").stdout)["semantic"]["not_embedded"] == 0


def test_the_text_says_each_store_in_words(full_home):
    """What a forget touches, as a person reads it: "keyword index: 7 documents" (a dry run),
    "keyword index: patched, 1,211 documents left" (done), never the document's keys and
    outcomes ("keyword_index: outcome patched, documents 1211, removed_generations 0")."""
    from carto_core.cli.forget_cmd import derived_line, state_line

    document = json.loads(invoke("forget", "--project", P, "--json").stdout)
    text = invoke("forget", "--project", P).stdout
    n = document["derived"]["keyword_index"]
    assert f"keyword index: {n} documents" in text.splitlines()
    assert any(line.startswith("vectors: ") and line.endswith(")") for line in text.splitlines())
    assert f"served log: {document['telemetry']['served']} rows" in text
    for raw in ("keyword_index", "outcome", "search-calls:"):
        assert raw not in text, raw
    assert not any(line.startswith(("checkpoints:", "live:")) for line in text.splitlines())
    assert derived_line("keyword_index", {"outcome": "patched", "documents": 1211,
                                          "removed_generations": 2}) == \
        "keyword index: patched, 1,211 documents left, 2 older generations removed"
    assert derived_line("facts", {"outcome": "rebuilt", "events": 1}) == \
        "facts cache: rebuilt, 1 event left"
    assert derived_line("vectors", {"outcome": "patched", "deleted": {"minilm": 1}}) == \
        "vectors: patched, 1 vector deleted (minilm)"
    assert derived_line("vectors", {"outcome": "failed", "error": "ConnectError: refused"}) == \
        "vectors: failed (ConnectError: refused)"
    assert derived_line("profile", {"outcome": "rewritten"}) == derived_line("profile", True) == \
        "profile.md: written again from what is left"
    assert state_line("checkpoints", "live", 1) == "live transcript states: 1 file"


def test_forgetting_and_backing_up_keep_the_state_folder_one_level_deep(full_home, tmp_path):
    """A forget rewrites the state folder's own logs (search calls, hook.log) and a backup locks
    them: their locks and generations live in that folder, not in a `.carto` inside it."""
    home = full_home.home
    assert (home.state / "search-calls.jsonl").exists()
    invoke("forget", "--project", P, "--write")
    invoke("backup", "--dir", tmp_path / "backups")
    assert not (home.state / ".carto").exists()
    assert json.loads((home.state / "generations.json").read_text())["search-calls.jsonl"] >= 1


def test_a_forget_that_matches_nothing_says_so_and_claims_nothing_patched(tmp_path):
    from carto_core.logio.home import current_home
    from tests.control.conftest import light_home

    light_home(current_home().root)  # vectors, an index and a facts cache to claim patched
    dry = invoke("forget", "--event", "evt-nosuch", ok=(3,))
    assert dry.output == "0 events, 0 rows would be forgotten (dry run: nothing written)\n"
    written = invoke("forget", "--event", "evt-nosuch", "--write", ok=(3,))
    assert written.output == "nothing matched: nothing was forgotten\n"


def test_a_text_only_a_search_query_held_is_found_and_forgotten(tmp_path):
    from carto_core.logio.home import current_home
    from tests.control.conftest import light_home

    home = light_home(current_home().root)
    invoke("search", "hunter2 zebrastripe", ok=(0, 3))
    calls = home.state / "search-calls.jsonl"
    assert b"zebrastripe" in calls.read_bytes()
    dry = invoke("forget", "--match", "zebrastripe")
    assert dry.output.splitlines()[0] == "search-call log: 1 row"
    written = invoke("forget", "--match", "zebrastripe", "--write")
    assert written.output.splitlines()[0] == "search-call log: 1 row"
    assert files_holding(home.root, ["zebrastripe"]) == []


def test_a_project_name_that_names_nothing_is_said_with_the_homes_projects(tmp_path, monkeypatch):
    """`carto forget --project webshp` (a typo; names match whole) printed "0 events, 0 rows
    would be forgotten" and exited 3, leaving the person to guess why; with a second, real
    project the typo's half was dropped without a word. Each name that matches no project of
    the home is now said on stderr, with the projects the home has."""
    from carto_core.evaluation.sample import build_sample_home

    home = build_sample_home(tmp_path / "h")
    monkeypatch.setenv("CARTO_HOME", str(home.root))
    typo = invoke("forget", "--project", "webshp", ok=(3,))
    assert "no project is named 'webshp'" in typo.stderr and "infra-tools, webshop" in typo.stderr, typo.output
    both = invoke("forget", "--project", "webshp", "--project", "INFRA-TOOLS")
    assert "'webshp'" in both.stderr and "'INFRA-TOOLS'" not in both.stderr
    right = invoke("forget", "--project", "webshop")
    assert right.stderr == ""


def test_a_stop_fired_again_after_a_forget_leaves_nothing_a_second_forget_misses(full_home):
    """Claude Code may fire Stop again for a turn: its answer is kept in the transcript's live
    state and checkpoint until its turn is read, whatever the tombstones keep out of the logs,
    so a forget of that text must find it there too."""
    home = full_home.home
    answer = "Noted: kiosk door code zebrafalcon6612."
    path = full_home.projects / f"-work-{Q}" / f"{SID_Q}.jsonl"
    stop = {"session_id": SID_Q, "cwd": f"/work/{Q}", "transcript_path": str(path),
            "hook_event_name": "Stop", "last_assistant_message": answer}
    hook(home, "Stop", stop)
    assert files_holding(home.root, ["zebrafalcon6612"])
    invoke("forget", "--match", "zebrafalcon6612", "--write", ok=(0, 3))
    hook(home, "Stop", stop)
    # the tombstones keep it out of the logs; the Stop's state keeps it for its turn
    held = files_holding(home.root, ["zebrafalcon6612"])
    assert held and all(name.startswith(".carto/") for name in held), held
    invoke("forget", "--match", "zebrafalcon6612", "--write")
    assert files_holding(home.root, ["zebrafalcon6612"]) == []
