"""`carto index` with nothing new answers from its stamp (carto_core.search.indexstamp), and only then."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.search.indexstamp import STAMP


@pytest.fixture
def home_env(writer, monkeypatch):
    monkeypatch.setenv("CARTO_HOME", str(writer.home.root))
    writer.tool("Ran: indexed once")
    writer.prompt("what did we decide about the schema")
    return writer


def index(*args) -> dict:
    result = CliRunner().invoke(cli, ["index", "--step", "keyword", "--json", *args],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def without_seconds(out: dict) -> dict:
    return {**out, "steps": [{k: v for k, v in s.items() if k != "seconds"} for s in out["steps"]]}


def test_a_no_op_after_a_no_op_is_the_recorded_answer(home_env):
    built = index()
    stamp = home_env.home.state / STAMP
    assert not stamp.exists()  # the build changed the caches: not a no-op, nothing recorded
    noop = index()
    assert "unchanged" not in noop and stamp.exists()
    replayed = index()
    assert replayed["unchanged"] is True
    assert without_seconds(replayed) == {**without_seconds(noop), "unchanged": True}
    assert replayed["steps"][0]["documents"] == built["steps"][0]["documents"] == 2


def test_the_recorded_answer_imports_no_numpy_and_no_index(home_env):
    index()
    index()
    probe = ("import sys; from carto_core.entry import main; sys.argv = ['carto', 'index', "
             "'--step', 'keyword', '--json']\ntry:\n    main()\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('numpy', 'carto_core.search.engine', 'pluggy') "
             "if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                         env=os.environ.copy(), check=True).stdout
    body, _, loaded = out.strip().rpartition("\n")
    assert json.loads(body)["unchanged"] is True
    assert loaded == "[]"


@pytest.mark.parametrize("change", ["append", "rewrite_same_size", "cache_gone", "config"])
def test_anything_that_changed_runs_the_steps(home_env, monkeypatch, change):
    index()
    index()
    log = home_env.home.log("tool-use")
    if change == "append":
        home_env.tool("Ran: appended later", changelog_copy=False)
    elif change == "rewrite_same_size":
        data = log.read_bytes()
        log.write_bytes(data.replace(b"indexed once", b"indexed ONCE"))
        assert len(log.read_bytes()) == len(data)
    elif change == "cache_gone":
        import shutil

        shutil.rmtree(home_env.home.state / "search")
    else:
        monkeypatch.setenv("CARTO_SEARCH_SOMETHING", "1")
    out = index()
    assert "unchanged" not in out
    if change == "append":
        assert out["steps"][0]["outcome"] == "updated" and out["steps"][0]["documents"] == 3
    index()  # a no-op again (after the steps changed a cache): recorded again
    assert index()["unchanged"] is True


def test_rebuild_and_another_selection_never_replay(home_env):
    index()
    index()
    assert index()["unchanged"] is True
    assert "unchanged" not in index("--rebuild")
    result = CliRunner().invoke(cli, ["index", "--json", "--step", "keyword", "--step", "keyword"],
                                catch_exceptions=False)
    assert "unchanged" not in json.loads(result.output)
