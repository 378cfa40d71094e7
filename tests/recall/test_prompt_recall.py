"""Prompt-time recall through the real hook process (`carto hook <provider> UserPromptSubmit`)."""

from __future__ import annotations

import json
import time

import pytest

from .conftest import COMMIT_ID, WORK_ID, build_index, context_of, prompt_payload, run_hook, write_home

QUESTION = "how did we fix the coupon stacking bug in checkout?"


def served_rows(home):
    path = home / "served-log.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_a_prompt_about_another_sessions_work_gets_that_work_within_the_budget(recall_home):
    done = run_hook(recall_home, "claude", prompt_payload("new-session", QUESTION))
    assert done.returncode == 0, done.stderr
    context = context_of(done)
    assert context is not None
    assert len(context) <= 1200
    snippets = [line for line in context.splitlines() if line.startswith("- [")]
    assert 1 <= len(snippets) <= 3
    assert any(WORK_ID in line or COMMIT_ID in line for line in snippets)
    for line in snippets:  # each names its event id, its age and its project
        event_id, age, project = line[3:line.index("]")].split(" · ")
        assert event_id.startswith("evt-") and age.endswith("ago") and project == "webshop"
    # Telemetry: served rows with purpose prompt_recall, and the ids enter the served list.
    rows = served_rows(recall_home)
    assert {r["purpose"] for r in rows} == {"prompt_recall"}
    assert {r["event_id"] for r in rows} == {line[3:line.index(" · ")] for line in snippets}
    assert all(r["session_id"] == "new-session" for r in rows)
    calls = [json.loads(line) for line in (recall_home / ".carto" / "search-calls.jsonl").read_text().splitlines()]
    assert calls[-1]["purpose"] == "prompt_recall" and calls[-1]["result_count"] == len(snippets)
    # Anything already served to the session is not served again.
    again = run_hook(recall_home, "claude", prompt_payload("new-session", QUESTION))
    assert again.returncode == 0
    repeated = context_of(again)
    assert repeated is None or not any(r["event_id"] in repeated for r in rows)


def test_copies_of_one_text_take_one_place(tmp_path):
    home = tmp_path / "home"
    write_home(home)
    lines = (home / "changelog.jsonl").read_text().splitlines()
    work = json.loads(next(line for line in lines if WORK_ID in line))
    with open(home / "changelog.jsonl", "a", encoding="utf-8") as handle:
        for i in range(3):  # the same edit recorded again by other sessions
            handle.write(json.dumps({**work, "event_id": f"evt-coupon0copy{i}",
                                     "session_id": f"copy-{i}"}) + "\n")
    build_index(home)
    prompt = "why are discounts applied before tax with one coupon per order?"
    context = context_of(run_hook(home, "claude", prompt_payload("new-session", prompt)))
    assert context is not None
    snippets = [line for line in context.splitlines() if line.startswith("- [")]
    texts = [line[line.index("] ") + 2:] for line in snippets]
    assert sum("coupon stacking fixed" in text for text in texts) == 1, context


def test_a_prompt_and_the_turn_that_starts_with_it_take_one_place(tmp_path):
    """Claude Code's prompts are in its prompt history and start the turn the transcript
    gives: shown as the turn alone (it holds the answer too), and both served, so the next
    prompt of the session does not bring the prompt back on its own."""
    home = tmp_path / "home"
    write_home(home)
    asked = "add discount codes to the cart, percent and fixed amount"
    common = {"project": "webshop", "provider": "claude", "session_id": "cart-session",
              "cwd": "/src/webshop"}
    with open(home / "prompt-history.jsonl", "a", encoding="utf-8") as handle:
        handle.write(json.dumps({**common, "event_id": "evt-cartprompt1", "type": "prompt",
                                 "timestamp": "2026-01-02T10:00:00Z", "summary": asked}) + "\n")
    with open(home / "turns.jsonl", "w", encoding="utf-8") as handle:
        handle.write(json.dumps({**common, "event_id": "turn-cart-1", "type": "transcript",
                                 "session": "cart-session", "turn_idx": 1,
                                 "timestamp": "2026-01-02T10:01:00Z",
                                 "summary": f"{asked}. I'll add a DiscountCode model and apply "
                                            "it in Cart.total() before tax."}) + "\n")
    build_index(home)
    prompt = "can we add fixed amount discount codes to the cart?"
    context = context_of(run_hook(home, "claude", prompt_payload("new-session", prompt)))
    assert context is not None
    snippets = [line for line in context.splitlines() if line.startswith("- [")]
    assert [line[3:line.index(" · ")] for line in snippets if "discount" in line] == ["turn-cart-1"]
    assert sum(asked in line for line in snippets) == 1, context
    from carto_core.logio.home import Home
    from carto_core.search.telemetry import read_served

    assert {"turn-cart-1", "evt-cartprompt1"} <= set(read_served(Home(home), "new-session"))
    again = context_of(run_hook(home, "claude", prompt_payload("new-session", prompt)))
    assert again is None or "evt-cartprompt1" not in again


def test_the_session_that_did_the_work_gets_nothing_from_itself(recall_home):
    done = run_hook(recall_home, "claude", prompt_payload("work-session", QUESTION))
    assert done.returncode == 0
    assert done.stdout == b""
    assert served_rows(recall_home) == []


@pytest.mark.parametrize("prompt", ["hello there", "run the tests", "thanks, looks good",
                                    "what is the capital of mongolia?", "continue"])
def test_generic_and_unrelated_prompts_print_nothing(recall_home, prompt):
    done = run_hook(recall_home, "claude", prompt_payload("new-session", prompt))
    assert done.returncode == 0
    assert done.stdout == b""


def _wait_for_the_catch_up(home):
    deadline = time.time() + 90
    while time.time() < deadline and not (home / ".carto" / "search" / "CURRENT").exists():
        time.sleep(0.2)
    assert (home / ".carto" / "search" / "CURRENT").exists(), "the detached refresh built no index"
    deadline = time.time() + 30
    while time.time() < deadline and (home / ".carto" / "recall-refresh.lock").exists():
        try:
            import fcntl

            with open(home / ".carto" / "recall-refresh.lock") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            break
        except OSError:
            time.sleep(0.2)


def test_a_first_prompt_on_a_home_never_indexed_is_answered_from_its_logs(tmp_path):
    home = tmp_path / "home"
    write_home(home)  # logs but no index
    build_index(tmp_path / "elsewhere")  # the plugin table knows the classes; this home has no index
    assert not (home / ".carto" / "search").exists()
    done = run_hook(home, "claude", prompt_payload("new-session", QUESTION))
    assert done.returncode == 0
    context = context_of(done)
    assert context and (WORK_ID in context or COMMIT_ID in context)
    assert any("prompt recall read the logs (no keyword index); started the keyword index refresh" in line
               for line in (home / ".carto" / "hook.log").read_text().splitlines())
    # and the catch-up saves the index for the next prompts, which find the same work
    _wait_for_the_catch_up(home)
    again = context_of(run_hook(home, "claude", prompt_payload("other-session", QUESTION)))
    assert again and (WORK_ID in again or COMMIT_ID in again)


def test_a_large_home_never_indexed_is_silent_and_the_catch_up_builds_it(tmp_path):
    from carto_core.recall.prompt import TAIL_BYTES_MIN

    home = tmp_path / "home"
    write_home(home)
    filler = {"timestamp": "2026-01-01T00:00:00Z", "type": "tool_bash", "session_id": "filler",
              "project": "infra", "summary": "Ran: make " + "x" * 1000}
    with open(home / "changelog.jsonl", "a", encoding="utf-8") as handle:
        for i in range(TAIL_BYTES_MIN // 1000 + 10):  # past what the hook reads itself
            handle.write(json.dumps({**filler, "event_id": f"evt-filler{i:06d}"}) + "\n")
    build_index(tmp_path / "elsewhere")
    done = run_hook(home, "claude", prompt_payload("new-session", QUESTION))
    assert done.returncode == 0 and done.stdout == b""
    assert any("no keyword index, and the logs hold" in line for line in
               (home / ".carto" / "hook.log").read_text().splitlines())
    _wait_for_the_catch_up(home)
    assert context_of(run_hook(home, "claude", prompt_payload("new-session", QUESTION)))


def test_a_stale_index_is_silent(recall_home):
    log = recall_home / "changelog.jsonl"
    rows = log.read_text().splitlines()
    log.write_text("\n".join(rows[1:]) + "\n")  # rewritten under the index: its offsets lie
    done = run_hook(recall_home, "claude", prompt_payload("new-session", QUESTION))
    assert done.returncode == 0 and done.stdout == b""
    assert any("keyword index stale" in line for line in
               (recall_home / ".carto" / "hook.log").read_text().splitlines())


@pytest.mark.parametrize("payload", [
    {"session_id": "s", "cwd": "/x", "prompt": "coupon stacking " * 700_000},   # ~11 MB
    {"session_id": "s", "cwd": "/x", "prompt": "\ud83d coupon \udc00 stacking checkout"},
    {"session_id": "s", "cwd": "/x", "prompt": ["not", "text"]},
    {"session_id": "s", "cwd": "/x"},
])
def test_hostile_prompts_exit_0_within_the_cap(recall_home, payload):
    started = time.monotonic()
    done = run_hook(recall_home, "claude", payload, env={"CARTO_HOOK_TIMEOUT": "8"})
    assert done.returncode == 0
    log = (recall_home / ".carto" / "hook.log")
    assert "wall-clock cap" not in (log.read_text() if log.exists() else "")
    assert time.monotonic() - started < 60  # the subprocess guard, not a timing claim
    if done.stdout:
        assert len(context_of(done)) <= 1200


def test_binary_stdin_exits_0(recall_home):
    raw = b'{"session_id": "s", "cwd": "/x", "prompt": "coupon \xff\xfe stacking \x00 checkout"}'
    done = run_hook(recall_home, "claude", raw)
    assert done.returncode == 0


def test_recall_can_be_switched_off_and_codex_needs_it_switched_on(recall_home, tmp_path):
    payload = prompt_payload("new-session", QUESTION)
    off = run_hook(recall_home, "claude", payload, env={"CARTO_PROMPT_RECALL": "0"})
    assert off.returncode == 0 and off.stdout == b""
    config = tmp_path / "config.toml"
    config.write_text("[recall]\nprompt = false\n")
    assert run_hook(recall_home, "claude", payload, env={"CARTO_CONFIG": str(config)}).stdout == b""
    # Codex: its UserPromptSubmit handler always runs (it captures the prompt); recall is off
    # unless asked for.
    codex = {**payload, "session_id": "codex-session", "turn_id": "t1"}
    quiet = run_hook(recall_home, "codex", codex)
    assert quiet.returncode == 0 and quiet.stdout == b""
    prompts = (recall_home / "prompt-history.jsonl").read_text().splitlines()
    assert json.loads(prompts[-1])["summary"] == QUESTION  # the prompt row is still written
    config.write_text("[recall]\nprompt = true\n")
    loud = run_hook(recall_home, "codex", {**codex, "turn_id": "t2"}, env={"CARTO_CONFIG": str(config)})
    assert loud.returncode == 0
    assert WORK_ID in context_of(loud) or COMMIT_ID in context_of(loud)
    # the environment wins over the config file, both ways
    env_on = run_hook(recall_home, "codex", {**codex, "session_id": "codex-3", "turn_id": "t3"},
                      env={"CARTO_PROMPT_RECALL": "1"})
    assert context_of(env_on) and (WORK_ID in context_of(env_on) or COMMIT_ID in context_of(env_on))
    env_off = run_hook(recall_home, "codex", {**codex, "session_id": "codex-4", "turn_id": "t4"},
                       env={"CARTO_CONFIG": str(config), "CARTO_PROMPT_RECALL": "0"})
    assert env_off.returncode == 0 and env_off.stdout == b""


def test_the_session_start_catch_up_saves_the_index_when_recall_is_on(tmp_path, monkeypatch):
    from carto_core.jobs import catchup
    from carto_core.logio.home import Home

    root = tmp_path / "home"
    write_home(root)
    build_index(tmp_path / "elsewhere")  # the plugin table knows the classes
    home = Home(root)
    monkeypatch.setenv("CARTO_PROMPT_RECALL", "0")
    off = catchup.run(home, "claude", "carto_claude.transcripts:catch_up_source")
    assert "keyword_index" not in off and not (root / ".carto" / "search").exists()
    monkeypatch.setenv("CARTO_PROMPT_RECALL", "1")
    on = catchup.run(home, "claude", "carto_claude.transcripts:catch_up_source")
    assert on["keyword_index"]["outcome"] == "done"
    done = run_hook(root, "claude", prompt_payload("new-session", QUESTION))
    assert context_of(done) and (WORK_ID in context_of(done) or COMMIT_ID in context_of(done))


@pytest.mark.parametrize("said, text, session, one", [
    ("fix the cart totals", "fix the cart totals. Rounded with Decimal.", "s1", True),
    ("fix the cart totals", "fix the cart totals", "s1", True),
    ("fix the cart", "fix the cartridge loader", "s1", False),  # a word cut is not the prompt
    ("fix the cart totals", "fix the cart totals. Rounded with Decimal.", "s2", False),
    ("fix the cart totals", "the cart totals were fixed", "s1", False),
])
def test_one_exchange_is_one_session_and_a_prompt_that_starts_the_turn(said, text, session, one):
    from carto_core.recall.find import Recalled, _one_exchange

    shown = Recalled(0, "evt-a", {"session_id": "s1", "summary": said}, 1.0, 0, 0, [])
    found = Recalled(1, "turn-b", {"session": session, "summary": text}, 0.9, 0, 0, [])
    assert (_one_exchange([shown], found, text) == 0) is one
