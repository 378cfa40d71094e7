"""How many cores a build may take: the flag, the variable, the machine's spare cores."""

import pytest

from carto_core.util import parallel


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
    monkeypatch.setattr(parallel, "_looked_busy", lambda seconds: None)  # no /proc/stat
    for load, expected in ((0.0, 4), (1.4, 3), (2.6, 1), (9.0, 1)):
        monkeypatch.setattr(parallel.os, "getloadavg", lambda load=load: (load, 0.0, 0.0))
        assert parallel.jobs() == expected


def test_a_load_average_left_by_a_step_that_ended_does_not_hold_idle_cores(monkeypatch):
    """The one-minute load average counts a build that just ended for a minute; the cores
    looked at now lower the count of busy cores, never raise it."""
    monkeypatch.delenv(parallel.ENV, raising=False)
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.setattr(parallel.os, "getloadavg", lambda: (1.2, 0.9, 0.5))
    monkeypatch.setattr(parallel, "_looked_busy", lambda seconds: 0.05)
    assert parallel.jobs() == 2
    monkeypatch.setattr(parallel, "_looked_busy", lambda seconds: 1.9)
    assert parallel.jobs() == 1  # the load average's 1.2 is the smaller: 2 - 1.2 -> 1


def test_the_look_at_proc_stat_counts_busy_cores():
    looked = parallel._looked_busy(0.05)
    assert looked is None or 0.0 <= looked <= (parallel.os.cpu_count() or 1) + 1e-9


def test_an_ordered_pool_returns_results_in_submission_order():
    for workers in (1, 2):
        with parallel.ordered_pool(workers) as pool:
            handles = [pool.submit(pow, n, 2) for n in range(12)]
            assert [h.get() for h in handles] == [n * n for n in range(12)]


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
