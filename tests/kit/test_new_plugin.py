"""`carto new-plugin`: the generated package installs, registers and passes the contract suite."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from carto_core.cli import cli
from carto_core.cli.new_plugin_cmd import KINDS, names_for, template_files
from carto_core.util.exitcodes import ExitCode

ROOT = Path(__file__).resolve().parents[2]


def pip(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=300)


def run_tests(package: Path, env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-rf", "-p", "no:cacheprovider"],
                          cwd=package, env=env, capture_output=True, text=True, timeout=300)


def test_generated_plugin_installs_and_passes_its_contract_suite(tmp_path):
    result = CliRunner().invoke(cli, ["new-plugin", "field-notes", "--dir", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    package = Path(doc["path"])
    assert doc["module"] == "carto_field_notes" and doc["class_name"] == "FieldNotesSource"
    assert sorted(doc["files"]) == ["README.md", "pyproject.toml",
                                    "src/carto_field_notes/__init__.py",
                                    "src/carto_field_notes/capture.py",
                                    "src/carto_field_notes/plugin.py",
                                    "src/carto_field_notes/source.py",
                                    "tests/test_capture.py", "tests/test_contract.py"]
    # a real, non-editable install into a target folder (no network: no deps, no isolation)
    target = tmp_path / "site"
    installed = pip("install", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
                    "--target", str(target), str(package))
    assert installed.returncode == 0, installed.stderr
    assert (target / "carto_field_notes" / "source.py").is_file()
    # the generated package's own tests run against the installed copy, not its src folder
    env = {**os.environ, "PYTHONPATH": str(target)}
    tests = run_tests(package, env)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    # 9 source-contract rules + the entry-point check + 5 capture-contract rules
    assert "15 passed" in tests.stdout, tests.stdout
    # carto itself finds it through the entry point and ingests with it
    listing = subprocess.run([sys.executable, "-m", "carto_core", "plugins", "--json"],
                             env=env, capture_output=True, text=True, timeout=120)
    assert listing.returncode == 0, listing.stderr
    assert "field-notes" in listing.stdout and "carto-field-notes" in listing.stdout
    data = tmp_path / "data"
    data.mkdir()
    (data / "a.jsonl").write_text(
        '{"timestamp": "2026-09-21T10:00:00Z", "text": "hello"}\nnot json\n', "utf-8")
    ingest = subprocess.run([sys.executable, "-m", "carto_core", "ingest", "field-notes",
                             "--root", str(data), "--json"],
                            env=env, capture_output=True, text=True, timeout=120)
    assert ingest.returncode == 0, ingest.stderr
    summary = json.loads(ingest.stdout)
    assert summary["written"] == {"changelog": 1} and summary["skipped"] == {"malformed_json": 1}
    home = Path(os.environ["CARTO_HOME"])
    [row] = [json.loads(line) for line in (home / "changelog.jsonl").read_text().splitlines()]
    assert row["provider"] == "field-notes" and row["summary"] == "hello"
    # live capture: `carto hook field-notes PostToolUse` writes the template's row
    payload = {"session_id": "s-42", "cwd": str(tmp_path), "text": "captured\nlive"}
    hooked = subprocess.run([sys.executable, "-m", "carto_core", "hook", "field-notes", "PostToolUse"],
                            input=json.dumps(payload), env=env, capture_output=True, text=True,
                            timeout=120)
    assert hooked.returncode == 0 and hooked.stdout == "", hooked.stderr
    rows = [json.loads(line) for line in (home / "changelog.jsonl").read_text().splitlines()]
    assert len(rows) == 2 and not (home / ".carto" / "hook.log").exists()
    live = rows[-1]
    assert (live["provider"], live["session_id"], live["summary"], live["type"]) == (
        "field-notes", "s-42", "captured live", "field_notes_entry")
    # the same package with its checkpoint handling removed fails its own contract tests
    source = package / "src" / "carto_field_notes" / "source.py"
    text = source.read_text("utf-8")
    resume = 'start = int((checkpoint or {}).get("offset", 0))'
    assert resume in text
    source.write_text(text.replace(resume, "start = 0  # checkpoint ignored"), "utf-8")
    broken = tmp_path / "site-broken"
    assert pip("install", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
               "--target", str(broken), str(package)).returncode == 0
    failing = run_tests(package, {**os.environ, "PYTHONPATH": str(broken)})
    assert failing.returncode == 1
    assert "FAILED tests/test_contract.py::TestFieldNotesSourceContract::" \
           "test_contract_checkpointed_reread_adds_nothing" in failing.stdout, failing.stdout
    assert "1 failed, 14 passed" in failing.stdout, failing.stdout


@pytest.mark.parametrize("name", ["Bad", "9lives", "two--dashes", "trailing-", "under_score", ""])
def test_bad_names_are_usage_errors(tmp_path, name):
    result = CliRunner().invoke(cli, ["new-plugin", name, "--dir", str(tmp_path)])
    assert result.exit_code == ExitCode.USAGE
    assert "not a plugin name" in result.stderr
    assert list(tmp_path.iterdir()) == []


def test_existing_folder_is_a_conflict_unless_forced(tmp_path):
    folder = tmp_path / "carto-journal"
    folder.mkdir()
    (folder / "keep.txt").write_text("mine", "utf-8")
    result = CliRunner().invoke(cli, ["new-plugin", "journal", "--dir", str(tmp_path)])
    assert result.exit_code == ExitCode.CONFLICT and "--force" in result.stderr
    assert sorted(p.name for p in folder.iterdir()) == ["keep.txt"]
    forced = CliRunner().invoke(cli, ["new-plugin", "journal", "--dir", str(tmp_path), "--force"])
    assert forced.exit_code == 0
    assert (folder / "src" / "carto_journal" / "source.py").is_file()
    assert (folder / "keep.txt").read_text() == "mine"


def test_every_placeholder_is_filled():
    values = names_for("x-y")
    for relative, text in template_files():
        for key in values:
            text = text.replace("{{" + key + "}}", values[key])
        assert "{{" not in text, relative


@pytest.mark.slow
def test_templates_ship_in_the_core_wheel(tmp_path):
    built = pip("wheel", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
                "-w", str(tmp_path), str(ROOT))
    assert built.returncode == 0, built.stderr
    [wheel] = tmp_path.glob("carto_core-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    expected = {f"carto_core/templates/source_plugin/{relative}" for relative, _ in template_files()}
    assert expected <= names, expected - names
    assert "carto_core/testing.py" in names


COMPONENTS = [kind for kind in KINDS if kind != "source"]
#: Tests a generated package of each kind runs: its kit's rules and the entry-point check.
TESTS_OF = {"ranker": 8, "fusion": 8, "decay": 5, "embedder": 5, "verb": 5, "writer": 6}


@pytest.mark.parametrize("kind", COMPONENTS)
def test_each_kind_generates_its_plugin_and_kit_test(tmp_path, kind):
    result = CliRunner().invoke(cli, ["new-plugin", "probe-one", "--kind", kind, "--dir", str(tmp_path), "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["kind"] == kind and doc["class_name"] == "ProbeOne" + KINDS[kind].suffix
    assert sorted(doc["files"]) == ["README.md", "pyproject.toml", "src/carto_probe_one/__init__.py",
                                    "src/carto_probe_one/plugin.py", "tests/test_contract.py"]
    package = Path(doc["path"])
    plugin = (package / "src" / "carto_probe_one" / "plugin.py").read_text("utf-8")
    test = (package / "tests" / "test_contract.py").read_text("utf-8")
    assert f"def {KINDS[kind].hook}(register):" in plugin and "class ProbeOne" in plugin
    assert f"class TestProbeOne{KINDS[kind].suffix}Contract({KINDS[kind].kit}):" in test
    assert f".{KINDS[kind].registry}.get(\"probe-one\")" in test
    for path in package.rglob("*.py"):
        compile(path.read_text("utf-8"), str(path), "exec")
    pyproject = (package / "pyproject.toml").read_text("utf-8")
    assert 'probe-one = "carto_probe_one.plugin"' in pyproject and "carto.capture" not in pyproject
    assert "{{" not in pyproject + plugin + test + (package / "README.md").read_text("utf-8")


def test_every_kind_has_its_registration_hook_and_kit():
    from carto_core import api
    from carto_core.plugin.registries import REGISTRATION_HOOKS

    for kind, spec in KINDS.items():
        assert REGISTRATION_HOOKS[spec.hook] == spec.registry, kind
        assert spec.kit in api.EXPORTS, kind
        if kind != "source":
            assert len(template_files(kind)) == 5, kind


@pytest.mark.slow
@pytest.mark.parametrize("kind", COMPONENTS)
def test_each_kind_installs_registers_and_passes_its_kit(tmp_path, kind):
    result = CliRunner().invoke(cli, ["new-plugin", "probe-two", "--kind", kind, "--dir", str(tmp_path), "--json"])
    package = Path(json.loads(result.stdout)["path"])
    target = tmp_path / "site"
    installed = pip("install", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
                    "--target", str(target), str(package))
    assert installed.returncode == 0, installed.stderr
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(target), os.environ.get("PYTHONPATH")]))}
    tests = run_tests(package, env)
    assert tests.returncode == 0, tests.stdout + tests.stderr
    assert f"{TESTS_OF[kind]} passed" in tests.stdout, tests.stdout
    listing = subprocess.run([sys.executable, "-m", "carto_core", "plugins", "--json"],
                             env=env, capture_output=True, text=True, timeout=120)
    assert listing.returncode == 0 and "carto-probe-two" in listing.stdout, listing.stderr


def _broken_plugin_tests(tmp_path, name: str, kind: str, part: str, broken: str):
    """`carto new-plugin NAME --kind KIND` with `part` of its plugin.py replaced by `broken`,
    installed into a folder of its own and its generated tests run: their result."""
    result = CliRunner().invoke(cli, ["new-plugin", name, "--kind", kind, "--dir", str(tmp_path), "--json"])
    package = Path(json.loads(result.stdout)["path"])
    plugin = package / "src" / f"carto_{name.replace('-', '_')}" / "plugin.py"
    text = plugin.read_text("utf-8")
    assert part in text
    plugin.write_text(text.replace(part, broken), "utf-8")
    target = tmp_path / "site"
    assert pip("install", "--no-deps", "--no-build-isolation", "--no-index", "--quiet",
               "--target", str(target), str(package)).returncode == 0
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(target), os.environ.get("PYTHONPATH")]))}
    return run_tests(package, env)


@pytest.mark.slow
def test_a_generated_ranker_broken_for_the_scope_fails_its_kit(tmp_path):
    guard = "        if scope.mask is not None:\n            held *= scope.mask\n"
    failing = _broken_plugin_tests(tmp_path, "probe-three", "ranker", guard, "")
    assert failing.returncode == 1
    assert "FAILED tests/test_contract.py::TestProbeThreeRankerContract::test_ranker_honours_the_scope" in failing.stdout


@pytest.mark.slow
def test_a_generated_fusion_that_forgets_the_rows_fails_its_kit(tmp_path):
    """Without `fill_row_fields` the candidates keep no time, salience or full-match flag, and
    every decay policy ranks as `none`: the kit names it."""
    fill = "out = fill_row_fields(list(fused.values()), used, engine)"
    failing = _broken_plugin_tests(tmp_path, "probe-four", "fusion", fill, "out = list(fused.values())")
    assert failing.returncode == 1
    assert "FAILED tests/test_contract.py::TestProbeFourFusionContract::" \
           "test_fusion_carries_what_the_decay_reads" in failing.stdout, failing.stdout
    assert "1 failed, 7 passed" in failing.stdout, failing.stdout


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs a FIFO")
def test_the_generated_source_opens_its_files_with_open_own(tmp_path):
    """writing-a-source.md has a source open what it reads with `open_own`: a FIFO named like
    a log is counted, not waited on forever (a plain open() blocks until a writer comes)."""
    result = CliRunner().invoke(cli, ["new-plugin", "fifo-probe", "--dir", str(tmp_path), "--json"])
    package = Path(json.loads(result.stdout)["path"])
    assert "open_own(stream.path)" in (package / "src" / "carto_fifo_probe" / "source.py").read_text("utf-8")
    data = tmp_path / "data"
    data.mkdir()
    os.mkfifo(data / "pipe.jsonl")
    code = ("import json, sys\nfrom carto_fifo_probe.source import FifoProbeSource\n"
            "source = FifoProbeSource({'roots': [sys.argv[1]]})\n"
            "[stream] = list(source.discover())\nbatch = source.read(stream, None)\n"
            "print(json.dumps([len(batch.rows), dict(batch.skipped)]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(package / "src"),
                                                                      os.environ.get("PYTHONPATH")]))}
    try:
        done = subprocess.run([sys.executable, "-c", code, str(data)], env=env, capture_output=True,
                              text=True, timeout=60)
    except subprocess.TimeoutExpired:
        pytest.fail("the generated source blocked opening a FIFO (a plain open(), not open_own)")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == [0, {"unreadable": 1}]
