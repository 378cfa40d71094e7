"""A turn the Stop hook just wrote is recalled by the very next prompt, before any index is saved
again: the prompt hook reads the keyword index's unsaved tail (`carto_core.search.index_tail`).
Plain payloads through the real hook processes (`carto hook claude Stop`, then
`carto hook claude UserPromptSubmit`)."""

from __future__ import annotations

import json

from carto_core.logio.home import Home
from carto_core.search.index_view import IndexView

from .conftest import context_of, prompt_payload, run_hook

SID = "a1b2c3d4-0000-4000-8000-00000000beef"
ANSWER = ("The quokka importer now retries the S3 uploads with exponential backoff and a jitter "
          "of up to two seconds; the flaky manifest checksum came from a truncated multipart part.")
PROMPT = "why did the quokka importer upload fail on the manifest checksum?"
#: Hooks that would save the index behind the test's back stay off: the tail is what is tested.
QUIET = {"CARTO_KEEPUP": "0", "CARTO_CATCHUP": "0"}


def _transcript(path, cwd: str) -> None:
    lines = [
        {"type": "user", "timestamp": "2026-05-10T10:00:00Z", "parentUuid": None, "isSidechain": False,
         "userType": "external", "cwd": cwd, "sessionId": SID, "version": "2.1.0", "uuid": "u-1",
         "message": {"role": "user", "content": "the quokka importer keeps failing on uploads, fix it"}},
        {"type": "assistant", "timestamp": "2026-05-10T10:00:30Z", "parentUuid": "u-1",
         "isSidechain": False, "userType": "external", "cwd": cwd, "sessionId": SID, "version": "2.1.0",
         "uuid": "a-1", "message": {"id": "msg-1", "type": "message", "role": "assistant",
                                    "model": "claude-x", "content": [{"type": "text", "text": ANSWER}],
                                    "stop_reason": "end_turn"}},
    ]
    path.write_text("".join(json.dumps(line) + "\n" for line in lines), "utf-8")


def _turn_ids(home) -> list[str]:
    path = home / "turns.jsonl"
    return [json.loads(line)["event_id"] for line in path.read_text().splitlines()] if path.exists() else []


def test_the_next_prompt_recalls_the_turn_the_stop_hook_just_wrote(recall_home, tmp_path):
    before = run_hook(recall_home, "claude", prompt_payload("next-session", PROMPT), env=QUIET)
    assert before.returncode == 0 and before.stdout == b""  # nothing about it yet
    transcript = tmp_path / f"{SID}.jsonl"
    _transcript(transcript, "/src/webshop")
    stop = run_hook(recall_home, "claude", {"session_id": SID, "cwd": "/src/webshop",
                                             "transcript_path": str(transcript),
                                             "hook_event_name": "Stop", "last_assistant_message": ANSWER},
                    env=QUIET, event="Stop")
    assert stop.returncode == 0, stop.stderr
    turns = _turn_ids(recall_home)
    assert len(turns) == 1
    done = run_hook(recall_home, "claude", prompt_payload("next-session-2", PROMPT), env=QUIET)
    assert done.returncode == 0, done.stderr
    context = context_of(done)
    assert context is not None and turns[0] in context, context
    assert "quokka importer" in context
    # it came from the tail: the saved index still does not hold the turn
    assert IndexView.open(Home(recall_home)).index_of(turns[0]) is None
    # and the session that wrote it is not told its own turn
    own = run_hook(recall_home, "claude", prompt_payload(SID, PROMPT), env=QUIET)
    assert own.returncode == 0 and own.stdout == b""


def test_a_large_tail_is_read_and_starts_the_catch_up_a_small_one_does_not(recall_home):
    from carto_core.recall.prompt import TAIL_REFRESH_BYTES

    stamp = recall_home / ".carto" / "recall-refresh.last"
    with open(recall_home / "changelog.jsonl", "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"event_id": "evt-smalltail01", "timestamp": "2026-05-10T10:00:00Z",
                                 "type": "tool_bash", "summary": "Ran: quokka importer --retry",
                                 "project": "webshop", "session_id": "s-small"}) + "\n")
    small = run_hook(recall_home, "claude", prompt_payload("next-session", PROMPT), env=QUIET)
    assert small.returncode == 0 and not stamp.exists()
    filler = {"timestamp": "2026-05-10T10:00:00Z", "type": "tool_bash", "project": "infra",
              "session_id": "s-filler", "summary": "Ran: make " + "x" * 900}
    with open(recall_home / "changelog.jsonl", "a", encoding="utf-8") as handle:
        for i in range(TAIL_REFRESH_BYTES // 900 + 5):
            handle.write(json.dumps({**filler, "event_id": f"evt-filler{i:06d}"}) + "\n")
    _transcript_turn = {"event_id": "turn-big-1", "timestamp": "2026-05-10T10:00:30Z", "project": "webshop",
                        "type": "transcript", "session": "s-big", "summary": f"{PROMPT} {ANSWER}"}
    with open(recall_home / "turns.jsonl", "a", encoding="utf-8") as handle:
        handle.write(json.dumps(_transcript_turn) + "\n")
    large = run_hook(recall_home, "claude", prompt_payload("next-session-3", PROMPT), env=QUIET)
    assert large.returncode == 0
    assert "turn-big-1" in (context_of(large) or "")  # read, and answered from it
    assert stamp.exists()                              # and the catch-up started
    assert any("bytes of the keyword index's unsaved tail; started the keyword index refresh" in line
               for line in (recall_home / ".carto" / "hook.log").read_text().splitlines())


def test_a_tail_past_the_read_limit_is_left_unread_and_the_saved_index_answers(recall_home):
    from carto_core.recall.prompt import TAIL_READ_BYTES

    from .conftest import WORK_ID, COMMIT_ID

    filler = {"timestamp": "2026-05-10T10:00:00Z", "type": "tool_bash", "project": "infra",
              "session_id": "s-filler", "summary": "Ran: make " + "x" * 900}
    with open(recall_home / "turns.jsonl", "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"event_id": "turn-unread-1", "timestamp": "2026-05-10T10:00:30Z",
                                 "project": "webshop", "type": "transcript", "session": "s-big",
                                 "summary": f"{PROMPT} {ANSWER}"}) + "\n")
    with open(recall_home / "changelog.jsonl", "a", encoding="utf-8") as handle:
        for i in range(TAIL_READ_BYTES // 900 + 5):
            handle.write(json.dumps({**filler, "event_id": f"evt-filler{i:06d}"}) + "\n")
    unread = run_hook(recall_home, "claude", prompt_payload("next-session", PROMPT), env=QUIET)
    assert unread.returncode == 0 and "turn-unread-1" not in (unread.stdout.decode() or "")
    older = run_hook(recall_home, "claude", prompt_payload("next-session-2", "how did we fix the coupon "
                                                                               "stacking bug in checkout?"), env=QUIET)
    context = context_of(older)
    assert context and (WORK_ID in context or COMMIT_ID in context)  # the saved index still answers
    assert any("left " in line and "bytes of the keyword index's unsaved tail unread; started the keyword index "
               "refresh" in line for line in (recall_home / ".carto" / "hook.log").read_text().splitlines())
