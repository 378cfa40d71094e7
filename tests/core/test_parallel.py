"""How many cores a build may take: the flag, the variable, the machine's spare cores."""

import pytest

from carto_core import parallel


def test_an_explicit_limit_is_kept_but_never_above_the_cores(monkeypatch):
    monkeypatch.setattr(parallel, "cores", lambda: 4)
    assert parallel.jobs(3) == 3 and parallel.jobs(9) == 4
    monkeypatch.setenv(parallel.ENV, "2")
    assert parallel.jobs() == 2
    monkeypatch.setenv(parallel.ENV, "many")
    with pytest.raises(ValueError, match="CARTO_JOBS"):
        parallel.jobs()
    with pytest.raises(ValueError):
        parallel.jobs(0)


def test_by_default_the_cores_the_load_leaves_and_at_least_one(monkeypatch):
    monkeypatch.delenv(parallel.ENV, raising=False)
    monkeypatch.setattr(parallel, "cores", lambda: 4)
    for load, expected in ((0.0, 4), (1.4, 3), (2.6, 1), (9.0, 1)):
        monkeypatch.setattr(parallel.os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert parallel.jobs() == expected


def test_blas_threads_are_capped_inside_the_block_and_restored():
    import numpy  # noqa: F401  loads numpy's OpenBLAS

    controls = parallel._blas_controls()
    assert controls, "numpy's OpenBLAS exports no thread control"
    before = [get() for _, get in controls]
    with parallel.blas_threads(1):
        assert [get() for _, get in controls] == [1] * len(controls)
    assert [get() for _, get in controls] == before


def test_carto_index_takes_jobs_and_refuses_zero(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from carto_core.cli import cli

    monkeypatch.setenv("CARTO_HOME", str(tmp_path))
    result = CliRunner().invoke(cli, ["index", "--jobs", "0"])
    assert result.exit_code == 2 and "--jobs" in result.output
    assert "--jobs N" in CliRunner().invoke(cli, ["index", "--help"]).output
