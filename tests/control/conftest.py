"""A home that holds two projects in every place carto keeps anything: both logs of every kind
(transcript turns and prompt history by backfill, tool calls and research by hooks, milestones,
a knowledge gap), the live transcript state, checkpoints, hook.log, telemetry (served-log,
access-ledger, search-calls, a served list), the keyword index, the facts cache, vectors, a
profile and a MEMORY.md section.

`zanzibar` is the project a test forgets; every one of its rows carries the word `quokkaflux`,
which nothing of `webshop`'s holds.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.logio.home import Home

P, Q = "zanzibar", "webshop"
MARK, QMARK = "quokkaflux", "lemoncart"
SID_P = "5a1e0000-aaaa-4000-8000-0000000000aa"
SID_Q = "5b2e0000-bbbb-4000-8000-0000000000bb"


def invoke(*args, env=None, ok=(0,)):
    result = CliRunner().invoke(cli, [str(a) for a in args], env=env or {}, catch_exceptions=False)
    assert result.exit_code in ok, (args, result.exit_code, result.output)
    return result


def transcript(path: Path, sid: str, cwd: str, turns: list[tuple[str, str]], day: int = 10) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for n, (ask, answer) in enumerate(turns):
        stamp = f"2026-05-{day:02d}T1{n}:00:00Z"
        lines.append({"type": "user", "timestamp": stamp, "parentUuid": None, "isSidechain": False,
                      "userType": "external", "cwd": cwd, "sessionId": sid, "version": "2.1.0",
                      "uuid": f"{sid[:8]}-u{n}", "message": {"role": "user", "content": ask}})
        lines.append({"type": "assistant", "timestamp": stamp.replace(":00:00Z", ":00:30Z"),
                      "parentUuid": f"{sid[:8]}-u{n}", "isSidechain": False, "userType": "external",
                      "cwd": cwd, "sessionId": sid, "version": "2.1.0", "uuid": f"{sid[:8]}-a{n}",
                      "message": {"id": f"msg-{sid[:8]}-{n}", "type": "message", "role": "assistant",
                                  "model": "claude-x", "content": [{"type": "text", "text": answer}],
                                  "stop_reason": "end_turn"}})
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")
    return path


def hook(home: Home, event: str, payload: dict, provider: str = "claude") -> None:
    from carto_core.capture.hookpath import run

    run(provider, event, json.dumps(payload).encode(), home)


def tool_payload(project: str, sid: str, command: str) -> dict:
    return {"session_id": sid, "cwd": f"/work/{project}", "hook_event_name": "PostToolUse",
            "transcript_path": "", "tool_name": "Bash", "tool_input": {"command": command},
            "tool_response": {"stdout": "ok", "stderr": "", "interrupted": False},
            "tool_use_id": f"toolu_{abs(hash(command)) % 10**12}"}


def fetch_payload(project: str, sid: str, url: str, prompt: str) -> dict:
    return {"session_id": sid, "cwd": f"/work/{project}", "hook_event_name": "PostToolUse",
            "transcript_path": "", "tool_name": "WebFetch", "tool_input": {"url": url, "prompt": prompt},
            "tool_response": {"result": "fine", "code": 200, "url": url}}


class FullHome:
    def __init__(self, root: Path, user: Path):
        self.home = Home(root)
        self.user = user
        self.projects = user / ".claude" / "projects"
        self.memory_file = user / "notes" / "MEMORY.md"


def write_projects(user: Path) -> None:
    projects = user / ".claude" / "projects"
    transcript(projects / f"-work-{P}" / f"{SID_P}.jsonl", SID_P, f"/work/{P}", [
        (f"always run the {MARK} checks before committing anything.",
         f"Understood: the {MARK} checks run first from now on."),
        (f"why does the {MARK} parser drop the zanzibar manifest?",
         f"The {MARK} parser skipped manifests without a version field; fixed in parse.py."),
    ])
    transcript(projects / f"-work-{Q}" / f"{SID_Q}.jsonl", SID_Q, f"/work/{Q}", [
        (f"add {QMARK} discount codes to the cart, percent and fixed amount",
         f"I added a {QMARK} DiscountCode model and applied it in Cart.total() before tax."),
        (f"make the {QMARK} coupon survive a page reload",
         f"The {QMARK} coupon now lives in the session cookie."),
    ], day=11)
    history = user / ".claude" / "history.jsonl"
    rows = [{"display": f"always keep the {MARK} log quiet please.", "pastedContents": {},
             "timestamp": 1778400000000, "project": f"/work/{P}", "sessionId": SID_P},
            {"display": f"show the {QMARK} totals for last week", "pastedContents": {},
             "timestamp": 1778500000000, "project": f"/work/{Q}", "sessionId": SID_Q}]
    history.write_text("".join(json.dumps(r) + "\n" for r in rows), "utf-8")


@pytest.fixture
def full_home(tmp_path) -> FullHome:
    """Both projects in every log and every derived store (see the module docstring)."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.home import current_home
    from carto_core.logio.logs import order_row
    from carto_core.search.telemetry import Telemetry

    user = Path(os.environ["HOME"])
    made = FullHome(current_home().root, user)
    home = made.home
    home.root.mkdir(parents=True, exist_ok=True)
    write_projects(user)
    invoke("ingest", "claude", "--settle", "0")
    for project, sid, mark in ((P, SID_P, MARK), (Q, SID_Q, QMARK)):
        hook(home, "PostToolUse", tool_payload(project, sid, f"make {mark}-build"))
        hook(home, "PostToolUse", fetch_payload(project, sid, f"https://docs.example.com/{mark}",
                                                f"how does {mark} caching work"))
        # The live transcript: a Stop hook reads it (its state names the transcript).
        path = made.projects / f"-work-{project}" / f"{sid}.jsonl"
        hook(home, "Stop", {"session_id": sid, "cwd": f"/work/{project}", "transcript_path": str(path),
                            "hook_event_name": "Stop", "last_assistant_message": f"done with {mark}"})
        # A hook.log line naming the project's folder.
        hook(home, "Stop", {"session_id": sid, "cwd": f"/work/{project}",
                            "transcript_path": f"/work/{project}/gone-{mark}.jsonl",
                            "hook_event_name": "Stop"})
        append_rows(home.log("milestones"), [order_row("milestones", {
            "event_id": f"milestone-{mark}", "timestamp": "2026-05-12T10:00:00Z",
            "milestone": "session_wrapup", "provider": "claude",
            "description": f"Wrapup: decided to keep the {mark} cache",
            "session_id": sid, "project": project, "cwd": f"/work/{project}",
            "decisions": [f"keep the {mark} cache warm"], "unresolved": [], "key_insight": ""})])
        Telemetry(home, session_id=sid, provider="claude").record_gap(
            f"where is {mark}_config.yaml", project, [f"{mark}_config.yaml"], cwd=f"/work/{project}")
    invoke("index")
    invoke("facts", "census")
    invoke("profile")
    for mark, sid in ((MARK, SID_P), (QMARK, SID_Q)):
        invoke("search", mark, "--json", env={"CARTO_SESSION_ID": sid})
        found = json.loads(invoke("search", mark, "--json", "--all").output)["results"]
        invoke("search", "--touch", found[0]["event_id"], env={"CARTO_SESSION_ID": sid})
    made.memory_file.parent.mkdir(parents=True)
    made.memory_file.write_text("# My notes\n\nThe person's own line.\n", "utf-8")
    invoke("memory", "--project", P, "--write", "--file", made.memory_file)
    return made


def files_holding(root: Path, needles: list[str]) -> list[str]:
    """Every file under `root` holding a needle, as UTF-8 (any case) or as UTF-32 (numpy's
    text arrays)."""
    encoded = []
    for needle in needles:
        encoded += [needle.lower().encode(), needle.encode("utf-32-le"), needle.encode("utf-16-le")]
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        data = path.read_bytes()
        lowered = data.lower()
        if any(n in lowered or n in data for n in encoded):
            found.append(str(path.relative_to(root)))
    return found


def light_home(root: Path) -> Home:
    """Both projects in every log, telemetry, state file and derived store, written directly
    (no hooks, no embedder: random vectors), for tests that build many homes."""
    import numpy as np

    from carto_core.facts.store import open_columns
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.logs import order_row
    from carto_core.search.index import KeywordIndex
    from carto_core.semantic.embedded import EmbeddedStore
    from carto_core.semantic.store import vectors_dir

    home = Home(root)
    home.root.mkdir(parents=True, exist_ok=True)
    ids: dict[str, list[str]] = {P: [], Q: []}
    for project, sid, mark in ((P, SID_P, MARK), (Q, SID_Q, QMARK)):
        t = f"/t/{project}/{sid}.jsonl"
        for n in range(4):
            stamp = f"2026-05-1{n}T10:00:00Z"
            common = {"timestamp": stamp, "provider": "claude", "project": project,
                      "cwd": f"/work/{project}", "transcript_path": t}
            tool = f"evt-{mark[:4]}tool{n}"
            append_rows(home.log("tool-use"), [order_row("tool-use", {
                "event_id": tool, **common, "type": "tool_bash", "tool": "Bash",
                "summary": f"Ran: make {mark} step {n}", "session": sid, "salience": 0.4})])
            append_rows(home.log("changelog"), [order_row("changelog", {
                "event_id": tool, **common, "type": "tool_bash", "session_id": sid,
                "summary": f"Ran: make {mark} step {n}", "related_ids": [], "salience": 0.4})])
            fetch = f"evt-{mark[:4]}web{n}"
            append_rows(home.log("research"), [order_row("research", {
                "event_id": fetch, **common, "type": "fetch", "url": f"https://x.test/{mark}/{n}",
                "prompt": f"read about {mark} {n}", "session": sid})])
            prompt = f"evt-{mark[:4]}ask{n}"
            append_rows(home.log("prompts"), [order_row("prompts", {
                "event_id": prompt, **common, "type": "prompt",
                "summary": f"please fix the {mark} thing number {n}", "session_id": sid})])
            turn = f"turn-{sid}-{n}"
            # A turn written open, then final (the newest row wins): ids repeat in turns.
            for text, is_open in ((f"{mark} turn {n} so far", True), (f"{mark} turn {n} final answer", False)):
                append_rows(home.log("turns"), [order_row("turns", {
                    "event_id": turn, **common, "type": "transcript", "summary": text,
                    "session": sid, "turn_idx": n, **({"open": True} if is_open else {})})])
            ids[project] += [tool, fetch, prompt, turn]
        milestone = f"evt-{mark[:4]}mile"
        append_rows(home.log("milestones"), [order_row("milestones", {
            "event_id": milestone, "timestamp": "2026-05-15T10:00:00Z", "milestone": "session_wrapup",
            "provider": "claude", "description": f"Wrapup of {mark}", "session_id": sid,
            "project": project, "cwd": f"/work/{project}", "transcript_path": t})])
        # A row without a project, in a session only this project has: it goes with it.
        append_rows(home.log("milestones"), [{"event_id": f"evt-{mark[:4]}bare",
                                              "timestamp": "2026-05-15T11:00:00Z",
                                              "milestone": "compaction_auto", "session_id": sid,
                                              "description": "Context compacted"}])
        gap = f"evt-{mark[:4]}gap0"
        append_rows(home.log("knowledge-gaps"), [{"event_id": gap, "timestamp": "2026-05-15T12:00:00Z",
                                                  "type": "knowledge_gap", "query": f"where is {mark}.yaml",
                                                  "project_filter": project, "cwd": f"/work/{project}",
                                                  "session": sid}])
        append_rows(home.log("changelog"), [order_row("changelog", {
            "event_id": gap, "timestamp": "2026-05-15T12:00:00Z", "type": "knowledge_gap",
            "session_id": sid, "project": project, "cwd": f"/work/{project}",
            "summary": f"Knowledge gap: {mark}.yaml"})])
        ids[project] += [milestone, f"evt-{mark[:4]}bare", gap]
        append_rows(home.log("access"), [{"event_id": ids[project][0], "timestamp": "2026-05-16T10:00:00Z",
                                          "session_id": sid, "source": "result_used"}])
        append_rows(home.state / "search-calls.jsonl", [{
            "timestamp": "2026-05-16T10:00:00Z", "call_id": f"call-{project}", "session_id": sid,
            "query": f"{mark} steps", "project": None, "result_count": 2}])
        (home.state / "served").mkdir(parents=True, exist_ok=True)
        (home.state / "served" / f"{sid}.txt").write_text("\n".join(ids[project][:3]) + "\n")
        (home.state / "live" / "claude").mkdir(parents=True, exist_ok=True)
        (home.state / "live" / "claude" / f"{project}.json").write_text(json.dumps(
            {"v": 1, "key": t, "checkpoint": {"offset": 10}, "written": {ids[project][3]: 1}}))
        with open(home.state / "hook.log", "a") as handle:
            handle.write(f"2026-05-16T10:00:00Z claude Stop: transcript_path /work/{project}/x-{mark}.jsonl: does not exist\n")
    # A search that served both projects' events, and one that served only Q's.
    for call, served in (("call-both", [ids[P][0], ids[Q][0]]), ("call-q", [ids[Q][1]])):
        append_rows(home.log("served"), [{"timestamp": "2026-05-16T10:00:00Z", "call_id": call,
                                          "query": "steps", "event_id": e, "rank": r,
                                          "project": P if e in ids[P] else Q}
                                         for r, e in enumerate(served, 1)])
    (home.state / "checkpoints").mkdir(parents=True, exist_ok=True)
    (home.state / "checkpoints" / "claude.json").write_text(json.dumps(
        {f"/t/{project}/{sid}.jsonl": {"offset": 99} for project, sid in ((P, SID_P), (Q, SID_Q))}))
    KeywordIndex.build(home)
    open_columns(home)
    rng = np.random.default_rng(0)
    every = ids[P] + ids[Q]
    EmbeddedStore(vectors_dir(home)).upsert_arrays(
        "test-model", every, rng.normal(size=(len(every), 16)).astype(np.float32),
        [P if e in ids[P] else Q for e in every], [None] * len(every))
    home.ids = ids  # type: ignore[attr-defined]
    return home
