"""Work a person waits on the first time (the keyword index of a first search, the facts
columns of a first standup, a first session list, doctor's reads of every log) says on a
terminal's stderr what it is doing; a pipe gets nothing of it in a run shorter than
`progress.PLAIN_EVERY` (tests/core/test_doctor_kept_health.py: a longer one), and stdout is
the same."""

from __future__ import annotations

import pytest

from .pty_run import env_for, in_pty, piped, plain

CASES = [
    (["search", "checkout discount"], "carto: building the keyword index"),
    (["standup", "--since", "3650d"], "carto: reading the logs into the facts columns"),
    (["sessions"], "carto: reading the logs into the facts columns"),
    (["doctor", "--no-probe"], "carto: checking every row of changelog.jsonl"),
]


@pytest.mark.parametrize("args,said", CASES, ids=[case[0][0] for case in CASES])
def test_a_terminal_is_told_a_pipe_is_not(sample_home, args, said):
    env = env_for({"CARTO_PROGRESS": ""}, colour=False)
    _, out = in_pty(args, env)
    assert said in plain(out)
    assert out.rfind(said) < out.rfind("\r\x1b[K")  # wiped once the work is done


@pytest.mark.parametrize("args,said", CASES, ids=[case[0][0] for case in CASES])
def test_a_pipe_gets_no_progress(sample_home, args, said):
    done = piped(args, env_for({"CARTO_PROGRESS": ""}, colour=False))
    assert said not in done.stderr and said not in done.stdout
    assert "\x1b[K" not in done.stderr


def test_summarising_many_sessions_is_said_once(tmp_path, monkeypatch):
    """A first `carto sessions` summarises every session (a generated home of more than
    PROGRESS_FROM of them); the second reads them back and says nothing."""
    from carto_core.evaluation.generate import generate_home

    generate_home(tmp_path / "g", 6000, seed=2)
    monkeypatch.setenv("CARTO_HOME", str(tmp_path / "g"))
    env = env_for({"CARTO_PROGRESS": ""}, colour=False)
    _, first = in_pty(["sessions"], env)
    assert "carto: summarising sessions" in plain(first)
    _, again = in_pty(["sessions"], env)
    assert "carto: " not in plain(again)
