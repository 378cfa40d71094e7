"""A forget in a home `carto restore --force` kept beside the live one (--in-replaced) touches
that home alone: the MEMORY.md files and the team server its records name are the live home's,
which the forget there already patched (a MEMORY.md written again from the kept home would put
back what the live home forgot). Interrupted and finished later, it still touches that home
alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from carto_core.control import forget as engine
from carto_core.control import memoryfiles
from carto_core.control.criteria import Criteria
from carto_core.logio.home import Home, current_home
from tests.control.conftest import MARK, P, files_holding, invoke, light_home


class Killed(Exception):
    pass


@pytest.fixture
def kept(tmp_path, monkeypatch):
    """The kept home after a forget in the live home, and the homes whose MEMORY.md files and
    team server a forget patched since (`calls`)."""
    light_home(current_home().root)
    backup = Path(json.loads(invoke("backup", "--json").stdout)["backup"])
    kept = Path(json.loads(invoke("restore", backup, "--force", "--json").stdout)["replaced_home_kept_at"])
    invoke("forget", "--match", MARK, "--write")
    calls: list[tuple[str, str]] = []
    patch = memoryfiles.patch_memory_files
    team = engine._team

    def memory_spy(home, plan, *, write):
        calls.append(("memory", str(home.root)))
        return patch(home, plan, write=write)

    def team_spy(home, plan, write):
        calls.append(("team", str(home.root)))
        return team(home, plan, write)

    monkeypatch.setattr(memoryfiles, "patch_memory_files", memory_spy)
    monkeypatch.setattr(engine, "_team", team_spy)
    return kept, calls


def _killed_at(phase: str, monkeypatch):
    def reach(at: str) -> None:
        if at == phase:
            raise Killed(at)

    monkeypatch.setattr(engine, "_reach", reach)


@pytest.mark.parametrize("phase", ["intent", "logs", "profile"])
def test_an_interrupted_forget_in_the_kept_home_is_finished_there_alone(kept, monkeypatch, phase):
    kept, calls = kept
    _killed_at(phase, monkeypatch)
    with pytest.raises(Killed):
        engine.forget(Home(kept), Criteria(match=[MARK]), local=True)
    assert engine.pending(Home(kept))
    monkeypatch.setattr(engine, "_reach", lambda at: None)
    # the next --in-replaced finishes it first
    text = invoke("forget", "--in-replaced", "--write").output
    assert f"replaced home {kept}: finished a forget interrupted there (" in text, text
    assert not engine.pending(Home(kept))
    assert files_holding(kept, [MARK]) == []
    assert [call for call in calls if call[1] == str(kept)] == []


def test_carto_forget_resume_in_the_kept_home_leaves_the_live_homes_files(kept, monkeypatch):
    kept, calls = kept
    _killed_at("tombstone", monkeypatch)
    with pytest.raises(Killed):
        engine.forget(Home(kept), Criteria(projects=[P]), local=True)
    monkeypatch.setattr(engine, "_reach", lambda at: None)
    done = invoke("forget", "--resume", "--json", env={"CARTO_HOME": str(kept)})
    assert json.loads(done.stdout)["events"] > 0
    assert not engine.pending(Home(kept))
    assert calls == []


def _as_written_before_local(home: Home) -> None:
    """The intent as a version that did not record `local` wrote it."""
    path = engine.folder(home) / engine.INTENT
    intent = json.loads(path.read_text("utf-8"))
    del intent["local"]
    path.write_text(json.dumps(intent), "utf-8")


@pytest.mark.parametrize("before_local", [False, True], ids=["intent", "intent-without-local"])
def test_an_interrupted_forget_in_the_live_home_still_patches_its_files(kept, monkeypatch, before_local):
    _, calls = kept
    live = current_home()
    _killed_at("tombstone", monkeypatch)
    with pytest.raises(Killed):
        engine.forget(live, Criteria(projects=[P]))
    if before_local:
        _as_written_before_local(live)
    monkeypatch.setattr(engine, "_reach", lambda at: None)
    invoke("forget", "--resume")
    assert not engine.pending(live)
    assert calls == [("memory", str(live.root)), ("team", str(live.root))]


@pytest.mark.parametrize("finish", ["--in-replaced", "--resume"])
def test_an_intent_without_local_in_the_kept_home_is_finished_there_alone(kept, monkeypatch, finish):
    """Every forget carto runs in a kept home is that home's alone (a restore finishes the
    live home's forget before it keeps the home): an intent that does not say so was one."""
    kept, calls = kept
    _killed_at("logs", monkeypatch)
    with pytest.raises(Killed):
        engine.forget(Home(kept), Criteria(match=[MARK]), local=True)
    _as_written_before_local(Home(kept))
    monkeypatch.setattr(engine, "_reach", lambda at: None)
    if finish == "--resume":
        done = json.loads(invoke("forget", "--resume", "--json", env={"CARTO_HOME": str(kept)}).stdout)
        assert done["events"] > 0
    else:
        text = invoke("forget", "--in-replaced", "--write").output
        assert f"replaced home {kept}: finished a forget interrupted there (" in text, text
    assert not engine.pending(Home(kept))
    assert files_holding(kept, [MARK]) == []
    assert calls == []
