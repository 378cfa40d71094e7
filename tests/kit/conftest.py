"""What the kit's own tests share: sorting an inline pytester run's reports by class."""

from __future__ import annotations

import pytest


def _outcomes(reprec) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    failed: dict[str, set[str]] = {}
    passed: dict[str, set[str]] = {}
    for report in reprec.getreports("pytest_runtest_logreport"):
        cls, test = report.nodeid.split("::")[1:3]
        if report.failed:
            failed.setdefault(cls, set()).add(test)
        elif report.passed and report.when == "call":
            passed.setdefault(cls, set()).add(test)
    return failed, passed


@pytest.fixture
def outcomes():
    """outcomes(reprec) -> (failed, passed): test names per class of an inline run."""
    return _outcomes
