"""A forget killed at any point (between its phases, or inside one log's rewrite) loses no row
of another project, and what the next carto command finds is finished: P wholly gone, nothing
half done, no temporary file left.

Each test forks the forget, kills it (`os._exit`, SIGKILL's effect: no cleanup runs) at one
point, and checks the home as the next process finds it.
"""

from __future__ import annotations

import multiprocessing
import os
from pathlib import Path

import pytest

from carto_core.control import forget as engine
from carto_core.control.criteria import Criteria
from carto_core.logio.logs import SEARCHED_LOGS
from tests.control.conftest import MARK, P, Q, QMARK, files_holding, invoke, light_home

CTX = multiprocessing.get_context("fork")
EVENT_LOGS = (*SEARCHED_LOGS, "knowledge-gaps")


def _q_lines(home) -> dict[str, set[bytes]]:
    return {label: {line for line in home.log(label).read_bytes().splitlines()
                    if Q.encode() in line or QMARK.encode() in line}
            for label in EVENT_LOGS}


def _leftovers(home) -> list[str]:
    return sorted(str(p.relative_to(home.root)) for p in home.root.rglob("*")
                  if ".rewrite-" in p.name or p.name.endswith(".tmp") or p.name == "forget")


def _forget_and_die(root, phase, inner):
    from carto_core.logio import rewrite
    from carto_core.logio.home import Home

    def die(name):
        if name == phase:
            os._exit(9)

    if inner:  # inside the rewrite of the turns log
        real = rewrite._reach

        def reach(name):
            if name == phase and os.environ.get("CARTO_TEST_LOG") == "turns":
                os._exit(9)
            real(name)

        rewrite._reach = reach
        real_kept = rewrite.rewrite_kept

        def kept(path, keep):
            os.environ["CARTO_TEST_LOG"] = "turns" if str(path).endswith("turns.jsonl") else ""
            return real_kept(path, keep)

        rewrite.rewrite_kept = kept
    else:
        engine._reach = die
    engine.forget(Home(root), Criteria(projects=[P]))
    os._exit(0)


def _run(root, phase, inner=False) -> int:
    child = CTX.Process(target=_forget_and_die, args=(str(root), phase, inner))
    child.start()
    child.join(120)
    return child.exitcode


def _finished(home, before, ids_q):
    assert _q_lines(home) == before  # not one row of the other project lost
    assert files_holding(home.root, [P, MARK]) == []
    assert _leftovers(home) == []
    from carto_core.facts.store import open_columns
    from carto_core.search.index import KeywordIndex
    from carto_core.semantic.embedded import EmbeddedStore
    from carto_core.semantic.store import vectors_dir

    index = KeywordIndex.load(home)
    assert index.refresh() == "fresh"  # the patch left it current
    alive = {index.event_id(i) for i in range(len(index)) if index.cols["alive"][i]}
    assert alive == set(ids_q)
    assert open_columns(home).state == "fresh" and open_columns(home).columns.n == len(ids_q)
    assert EmbeddedStore(vectors_dir(home)).ids("test-model") == set(ids_q)


@pytest.mark.parametrize("phase", engine.PHASES)
def test_a_forget_killed_between_phases_is_finished_by_the_next_command(tmp_path, phase):
    home = light_home(Path(os.environ["CARTO_HOME"]))
    before = _q_lines(home)
    assert _run(home.root, phase) == 9
    assert _q_lines(home) == before  # even before anything finishes it
    # Before its intent is whole nothing was done (the plan is lost, the home is as it was);
    # after, the next carto command that reads the home finishes it.
    if phase in ("planned", f"wrote {engine.IDS}"):
        assert not engine.pending(home) and files_holding(home.root, [MARK])
        invoke("forget", "--project", P, "--write")
    else:
        assert engine.pending(home) == (phase != "done")
        invoke("search", QMARK, "--json", "--no-semantic")
    _finished(home, before, home.ids[Q])


@pytest.mark.parametrize("phase", ["read", "spooled", "intent", "journal", "swapped", "tail"])
def test_a_forget_killed_inside_a_log_rewrite_is_finished(tmp_path, phase):
    home = light_home(Path(os.environ["CARTO_HOME"]))
    before = _q_lines(home)
    assert _run(home.root, phase, inner=True) == 9
    assert _q_lines(home) == before
    assert engine.pending(home)
    invoke("forget", "--resume")
    _finished(home, before, home.ids[Q])
