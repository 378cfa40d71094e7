"""The one skip the suite allows: a browser or real-client test on a machine without the binary
skips with one line naming what to install, and fails instead when CARTO_REQUIRE_BINARIES is set
(`.ci/run` sets it). Both tiers are run here in a child pytest with their binaries pointed at
nothing: every test of theirs that needs a binary must go through the rule, so a test that finds
its binary some other way (or skips by itself) shows up as passed or as a skip without the line.
"""

from __future__ import annotations

import os
import subprocess
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
#: The realclient tier and every browser module (test_browser*.py).
TIERS = ["tests/realclient", *sorted(str(p.relative_to(ROOT)) for p in (ROOT / "tests" / "serve").glob("test_browser*.py"))]
#: Tests of the tiers that read recorded data and need no binary (bump.py's reduction and diff).
NEEDS_NO_BINARY = {"test_payload_shapes_are_keys_per_event_and_per_tool",
                   "test_line_types_name_attachments_and_payload_types",
                   "test_diff_says_what_was_added_and_removed_and_nothing_else"}
LINES = {"realclient": "install the pinned clients with `python3 tests/realclient/install_clients.py`",
         "browser": "install Debian's chromium package (apt-get install chromium"}


def run_tiers(tmp_path: Path, require: bool) -> dict[str, tuple[str, str]]:
    """{test name: (outcome, message)} of the two tiers run without their binaries."""
    env = {k: v for k, v in os.environ.items()
           if k not in ("CARTO_REQUIRE_BINARIES", "CARTO_CLAUDE_BIN", "CARTO_CODEX_BIN", "PYTEST_ADDOPTS")}
    env.update(CARTO_REALCLIENTS=str(tmp_path / "no-clients"), CARTO_CHROMIUM=str(tmp_path / "no-chromium"))
    if require:
        env["CARTO_REQUIRE_BINARIES"] = "1"
    report = tmp_path / f"report-{require}.xml"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", f"--junitxml={report}",
                    *TIERS], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)
    outcomes = {}
    for case in ElementTree.parse(report).getroot().iter("testcase"):
        name = case.get("name")
        detail = next(iter(case), None)
        outcomes[name] = ("passed", "") if detail is None else (detail.tag, detail.get("message") or "")
    return outcomes


@pytest.mark.parametrize("require", [False, True], ids=["a user's machine", "CI"])
def test_a_missing_binary_skips_with_one_line_or_fails_under_ci(tmp_path, require):
    outcomes = run_tiers(tmp_path, require)
    assert len(outcomes) > 40, outcomes  # both tiers were collected
    for name in NEEDS_NO_BINARY:
        assert outcomes.pop(name) == ("passed", ""), name
    # A fixture's pytest.fail is an error at setup, a test's own a failure: both fail the run.
    expected = {"failure", "error"} if require else {"skipped"}
    wrong = {name: o for name, o in outcomes.items() if o[0] not in expected}
    assert wrong == {}, wrong
    for name, (_, message) in outcomes.items():
        tier = "browser" if "chromium" in message else "realclient"
        assert LINES[tier] in message and "\n" not in message.strip(), (name, message)
        assert ("CARTO_REQUIRE_BINARIES is set" in message) == require, (name, message)
    assert {"browser", "realclient"} == {"browser" if "chromium" in m else "realclient" for _, m in outcomes.values()}
