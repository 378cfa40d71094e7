"""Every workspace member builds a wheel that ships what it needs and installs alone.

Issue 2: each member is installable with pip on its own. For every member this builds the wheel
with hatchling (in-process, the backend pip would call), then checks:

- its entry points: `carto` (the console script, core only), the `carto` plugin group and
  `carto.capture` (live capture) as its pyproject declares them;
- its package data: every file under the package folder in the source tree (the Claude plugin
  folder with its `.claude-plugin/` dot-folder, `hooks/hooks.json` and skills,
  `codex-hooks.json`, core's `templates/` and serve's `static/`), checked against a walk of the
  folder written here, plus a list of files that must be there whatever the walk finds;
- that its declared dependencies are enough: the wheel and carto-core's are unpacked into a fresh
  folder (a wheel unpacked is an installed purelib), the third-party distributions its
  `Requires-Dist` closure names are linked beside them, and a Python without site-packages
  (`-S`) imports each entry-point module and lists the plugins (`carto plugins --json`).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tomllib
import zipfile
from email.parser import Parser
from importlib import metadata
from pathlib import Path

import pytest
from hatchling.builders.wheel import WheelBuilder
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
MEMBERS = {  # distribution -> folder
    "carto-core": ROOT,
    "carto-rankers": ROOT / "rankers",
    "carto-claude": ROOT / "plugins" / "claude",
    "carto-codex": ROOT / "plugins" / "codex",
    "carto-git": ROOT / "plugins" / "git",
    "carto-hermes": ROOT / "plugins" / "hermes",
    "carto-notes": ROOT / "examples" / "notes",
}
#: Files that must ship whatever the source walk finds (a walk of an empty folder proves nothing).
MUST_SHIP = {
    "carto-core": ["carto_core/templates/source_plugin/pyproject.toml.tmpl",
                   "carto_core/serve/static/index.html", "carto_core/serve/static/app.js",
                   "carto_core/serve/static/app.css", "carto_core/entry.py", "carto_core/capture/hookpath.py"],
    "carto-claude": ["carto_claude/claude_plugin/.claude-plugin/plugin.json",
                     "carto_claude/claude_plugin/hooks/hooks.json",
                     *(f"carto_claude/claude_plugin/skills/{s}/SKILL.md"
                       for s in ("remember", "standup", "wrapup", "trustmap")),
                     "carto_claude/capture.py"],
    "carto-codex": ["carto_codex/codex-hooks.json", "carto_codex/capture.py"],
}
#: Live capture is reached without pluggy (carto_core.capture.hookpath): these must declare it.
CAPTURE_PROVIDERS = {"carto-claude": "claude", "carto-codex": "codex"}


@pytest.fixture(scope="module")
def wheels(tmp_path_factory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("wheels")
    built = {}
    for name, folder in MEMBERS.items():
        artifacts = list(WheelBuilder(str(folder)).build(directory=str(out), versions=["standard"]))
        assert len(artifacts) == 1, (name, artifacts)
        built[name] = Path(artifacts[0])
    return built


def dist_info(wheel: zipfile.ZipFile, leaf: str) -> str:
    (path,) = [n for n in wheel.namelist() if n.endswith(".dist-info/" + leaf)]
    return wheel.read(path).decode("utf-8")


def entry_points_of(wheel: zipfile.ZipFile) -> dict[str, dict[str, str]]:
    groups: dict[str, dict[str, str]] = {}
    group = None
    for raw in dist_info(wheel, "entry_points.txt").splitlines():
        line = raw.strip()
        if line.startswith("[") and line.endswith("]"):
            group = groups.setdefault(line[1:-1], {})
        elif "=" in line and group is not None:
            key, _, value = line.partition("=")
            group[key.strip()] = value.strip()
    return groups


def package_folders(folder: Path) -> list[Path]:
    config = tomllib.loads((folder / "pyproject.toml").read_text("utf-8"))
    packages = config["tool"]["hatch"]["build"]["targets"]["wheel"]["packages"]
    return [folder / p for p in packages]


def source_files(package: Path) -> set[str]:
    """Every file under a package folder as its wheel path (`pkg/...`), caches left out."""
    found = set()
    for dirpath, dirnames, filenames in os.walk(package):
        dirnames[:] = [d for d in dirnames if d != "__pycache__"]
        for filename in filenames:
            if filename.endswith((".pyc", ".pyo")):
                continue
            path = Path(dirpath) / filename
            found.add(f"{package.name}/{path.relative_to(package).as_posix()}")
    return found


@pytest.mark.parametrize("name", list(MEMBERS))
def test_wheel_ships_every_package_file_and_its_entry_points(wheels, name):
    folder = MEMBERS[name]
    config = tomllib.loads((folder / "pyproject.toml").read_text("utf-8"))["project"]
    with zipfile.ZipFile(wheels[name]) as wheel:
        names = set(wheel.namelist())
        expected = set().union(*(source_files(p) for p in package_folders(folder)))
        assert expected, f"{name}: no package files found in the source tree"
        assert expected - names == set(), f"{name}: files missing from the wheel"
        assert set(MUST_SHIP.get(name, [])) - names == set()
        # Nothing outside the package folders (tests, benchmarks, caches) sneaks in.
        assert {n for n in names if ".dist-info/" not in n} == expected
        metadata_text = Parser().parsestr(dist_info(wheel, "METADATA"))
        assert canonicalize_name(metadata_text["Name"]) == name
        groups = entry_points_of(wheel)
    # Entry points: what the pyproject declares, and the ones carto relies on.
    declared = {"console_scripts": config.get("scripts", {}), **config.get("entry-points", {})}
    assert {g: e for g, e in groups.items() if e} == {g: e for g, e in declared.items() if e}
    if name == "carto-core":
        assert groups["console_scripts"] == {"carto": "carto_core.entry:main"}
    else:
        assert groups.get("carto"), f"{name} registers no plugin in the `carto` group"
        assert "console_scripts" not in groups  # only core owns the `carto` script
    if name in CAPTURE_PROVIDERS:
        provider = CAPTURE_PROVIDERS[name]
        module = groups["carto.capture"][provider].partition(":")[0]
        assert f"{module.replace('.', '/')}.py" in names


def requirement_closure(names: list[str]) -> set[str]:
    """Third-party distributions (installed here) the given requirements need, transitively.
    Workspace members are left out: they come from the wheels under test."""
    members = {canonicalize_name(m) for m in MEMBERS}
    seen: set[str] = set()
    todo = list(names)
    while todo:
        requirement = Requirement(todo.pop())
        if requirement.marker is not None and not requirement.marker.evaluate({"extra": ""}):
            continue
        key = canonicalize_name(requirement.name)
        if key in seen or key in members:
            continue
        seen.add(key)
        todo.extend(metadata.distribution(key).requires or [])
    return seen


def link_distribution(name: str, target: Path) -> None:
    """Make the installed distribution importable from `target` (its top-level names linked)."""
    dist = metadata.distribution(name)
    tops = {Path(str(f)).parts[0] for f in dist.files or [] if not str(f).startswith("..")}
    for top in tops:
        source = Path(dist.locate_file(top))
        link = target / top
        if source.exists() and not link.exists() and not top.endswith(".pth"):
            link.symlink_to(source, target_is_directory=source.is_dir())


CHECK = r"""
import atexit, importlib, json, sys
prefix, modules, files_out = sys.argv[1], json.loads(sys.argv[2]), sys.argv[3]
leaked = [p for p in sys.path if "site-packages" in p or "dist-packages" in p]
assert not leaked, leaked  # only the folder under test and the standard library
for module in modules:
    importlib.import_module(module)

@atexit.register
def record_files():  # where every carto module came from, after the command ran
    with open(files_out, "w") as handle:
        json.dump(sorted({m.__file__ for m in list(sys.modules.values())
                          if getattr(m, "__file__", None) and "carto" in m.__name__}), handle)

from carto_core.entry import main
sys.exit(main(["plugins", "--json"]))
"""


@pytest.mark.parametrize("name", list(MEMBERS))
def test_member_installs_alone_with_its_declared_dependencies(wheels, name, tmp_path):
    target = tmp_path / "site"
    target.mkdir()
    installed = {"carto-core", name}
    requires: list[str] = []
    for member in installed:
        with zipfile.ZipFile(wheels[member]) as wheel:
            wheel.extractall(target)  # a pure wheel unpacked is its installed layout
            requires += Parser().parsestr(dist_info(wheel, "METADATA")).get_all("Requires-Dist") or []
    for dist in requirement_closure(requires):
        link_distribution(dist, target)
    with zipfile.ZipFile(wheels[name]) as wheel:
        groups = entry_points_of(wheel)
    modules = sorted({value.partition(":")[0] for group in ("carto", "carto.capture", "console_scripts")
                      for value in groups.get(group, {}).values()})
    env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(target), "HOME": str(tmp_path),
           "CARTO_HOME": str(tmp_path / "carto-home"), "PYTHONDONTWRITEBYTECODE": "1"}
    files = tmp_path / "files.json"
    done = subprocess.run([sys.executable, "-S", "-c", CHECK, str(target), json.dumps(modules), str(files)],
                          capture_output=True, text=True, env=env, timeout=120, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-3000:]
    # Every carto module came from the unpacked wheels, none from the checkout.
    loaded = json.loads(files.read_text())
    assert loaded and [f for f in loaded if not f.startswith(str(target))] == []
    document = json.loads(done.stdout)
    assert document["problems"] == []
    plugins = {p["name"]: p for p in document["plugins"] if not p["builtin"]}
    assert set(plugins) == set(groups.get("carto", {})), plugins
    for plugin in plugins.values():
        assert (plugin["status"], plugin["error"], plugin["distribution"]) == ("loaded", None, name)
        assert plugin["registered"], plugin  # it registered something
