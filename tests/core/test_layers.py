"""Layers that read top-down (docs/architecture.md), checked over the import graph of the whole
workspace: no import cycles (function-level imports included), core never imports a plugin,
nothing below the front doors imports them, click commands live only under cli/, and the hook
path's modules are stdlib-only.

Each check is a function over parsed source, so the last tests show it failing on a deliberate
violation in a temporary package.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PLUGINS = ("carto_claude", "carto_codex", "carto_git", "carto_hermes", "carto_rankers", "carto_notes")


def package_roots(root: Path = ROOT) -> dict[str, Path]:
    """Top-level package name -> its folder, for core and every workspace distribution."""
    found = {"carto_core": root / "src" / "carto_core"}
    for folder in [*root.glob("plugins/*/src/*"), *root.glob("rankers/src/*"), *root.glob("examples/*/src/*")]:
        if folder.is_dir() and (folder / "__init__.py").is_file():
            found[folder.name] = folder
    return found


def modules_of(roots: dict[str, Path]) -> dict[str, Path]:
    modules = {}
    for folder in roots.values():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder.parent).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imports_of(module: str, path: Path) -> list[tuple[str, str | None]]:
    """(imported name, enclosing function or None) for every import in the module, at any
    depth (function-level imports count: they run too), TYPE_CHECKING blocks left out."""
    found: list[tuple[str, str | None]] = []
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]

    def visit(node: ast.AST, function: str | None) -> None:
        for child in ast.iter_child_nodes(node):
            if _is_type_checking(child):
                continue
            inner = function
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = child.name if function is None else f"{function}.{child.name}"
            if isinstance(child, ast.Import):
                found.extend((alias.name, function) for alias in child.names)
            elif isinstance(child, ast.ImportFrom):
                base = child.module or ""
                if child.level:
                    parts = package.split(".")
                    parts = parts[: len(parts) - child.level + 1]
                    base = ".".join(parts + ([child.module] if child.module else []))
                found.append((base, function))
                found.extend((f"{base}.{alias.name}", function) for alias in child.names)
            visit(child, inner)

    visit(ast.parse(path.read_text("utf-8"), str(path)), None)
    return found


def _resolve(name: str, modules: dict[str, Path]) -> str | None:
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def import_graph(roots: dict[str, Path]) -> dict[str, dict[str, str | None]]:
    """module -> {imported workspace module: the function importing it (None: module level)}."""
    modules = modules_of(roots)
    graph: dict[str, dict[str, str | None]] = {}
    for module, path in modules.items():
        edges: dict[str, str | None] = {}
        for name, function in imports_of(module, path):
            if name.split(".")[0] not in roots:
                continue
            target = _resolve(name, modules)
            if target and target != module:
                edges.setdefault(target, function)
        graph[module] = edges
    return graph


def import_cycles(graph: dict[str, dict]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in graph:
                    continue
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        cycles.append(sorted(component))
    return sorted(cycles)


def third_party_on_path(roots: dict[str, Path], start: list[str], exempt: dict[str, str]) -> list[str]:
    """Every import of a module that is neither stdlib nor the workspace's, reachable from
    `start` through imports at any depth, except inside the functions `exempt` names
    (`module:function`, each with the reason it never runs on the path)."""
    modules = modules_of(roots)
    seen: set[str] = set()
    todo = list(start)
    found: list[str] = []
    while todo:
        module = todo.pop()
        if module in seen or module not in modules:
            continue
        seen.add(module)
        for name, function in imports_of(module, modules[module]):
            where = f"{module}:{function}" if function else module
            if function and any(where == e or where.startswith(e + ".") for e in exempt):
                continue
            top = name.split(".")[0]
            if top in roots:
                target = _resolve(name, modules)
                if target:
                    todo.append(target)
            elif top not in sys.stdlib_module_names and top != "__future__":
                found.append(f"{where} imports {name}")
    return sorted(set(found))


CLICK_MAKERS = {"command", "group", "Command", "Group"}


def click_commands_outside_cli(roots: dict[str, Path]) -> list[str]:
    """Modules that make click commands or groups but are not a `cli` module or under `cli/`."""
    found = []
    for module, path in modules_of(roots).items():
        if "cli" in module.split("."):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            target = node.func if isinstance(node, ast.Call) else None
            if (isinstance(target, ast.Attribute) and target.attr in CLICK_MAKERS
                    and isinstance(target.value, ast.Name) and target.value.id == "click"):
                found.append(f"{module}: click.{target.attr} at line {node.lineno}")
    return found


# --------------------------------------------------------------------------- the workspace

ROOTS = package_roots()
GRAPH = import_graph(ROOTS)

#: Known cycles, each with its owner and why it is not broken here; the test fails when one of
#: these stops being a cycle (remove it then) as much as when a new one appears.
KNOWN_CYCLES = [
    # robustness (issue 14): appending settles a pending rewrite first, and settling replays
    # the rewrite's journal by appending. Left to its owner (see the issue 19 report).
    ["carto_core.logio.appendlog", "carto_core.logio.rewrite_journal"],
]

#: Functions on hook-path modules that never run in a `carto hook` process.
HOOK_PATH_EXEMPT = {
    "carto_core:__getattr__": "the hookimpl marker plugins import (pluggy); never on the hook path",
    "carto_core.plugin.registry:build_plugin_manager": "pluggy: plugin managers are built by the CLI only",
    "carto_core.capture.catchup:run": "runs in the detached catch-up child (python -m), not the hook",
    "carto_core.capture.catchup:main": "the catch-up child's entry point",
    "carto_core.transcript.activity:derived_events": "used by lenses over turns, never by capture",
    "carto_core.logio.jsonl:fast_loads_line": "readers' parser (orjson); the hook path only writes rows",
    "carto_core.semantic.keepup:run": "runs in the detached keep-up child (python -m), not the hook",
    "carto_core.semantic.keepup:main": "the keep-up child's entry point",
    "carto_core.recall.refresh:refresh_index": "runs in the detached index refresh child (python -m) "
                                               "and in the catch-up child, not the hook",
    "carto_core.recall.refresh:main": "the index refresh child's entry point",
    "carto_core.search:__getattr__": "the package's lazy names (run_search, SearchEngine, ...: numpy); "
                                     "the prompt recall imports carto_core.search.lite, never those",
    "carto_core.search.api:from_event_ids": "a vector store's ladder; the prompt recall imports the "
                                            "api's records (Fused, DecayContext), never this",
}

#: Where `carto hook` starts: the dispatcher and every provider's capture module.
HOOK_PATH_START = ["carto_core.capture.hookpath", "carto_claude.capture", "carto_codex.capture"]

#: The front doors: nothing below them may import them.
FRONT_DOORS = ("carto_core.cli", "carto_core.serve", "carto_core.mcp", "carto_core.install",
               "carto_core.entry", "carto_core.__main__")


def test_no_import_cycles():
    assert import_cycles(GRAPH) == KNOWN_CYCLES


def test_core_never_imports_a_plugin_by_name():
    leaks = [f"{m} imports {t}" for m, edges in GRAPH.items() if m.startswith("carto_core")
             for t in edges if t.split(".")[0] in PLUGINS]
    assert not leaks, leaks


def test_nothing_below_the_front_doors_imports_them():
    def door(module: str) -> bool:
        return any(module == d or module.startswith(d + ".") for d in FRONT_DOORS)

    upward = [f"{m} imports {t}" for m, edges in GRAPH.items()
              if m.startswith("carto_core") and not door(m) for t in edges if door(t)]
    assert not upward, upward


def test_click_commands_live_only_under_cli():
    assert click_commands_outside_cli(ROOTS) == []


def test_the_hook_path_is_stdlib_only():
    from carto_core.plugin.registry import plugin_table

    start = HOOK_PATH_START + [c["target"].split(":")[0] for c in plugin_table()["capture"]
                               if c["target"].split(".")[0] in ROOTS]
    assert third_party_on_path(ROOTS, start, HOOK_PATH_EXEMPT) == []


def test_the_hook_path_covers_every_installed_capture():
    """HOOK_PATH_START names each workspace capture module the plugin table knows."""
    from carto_core.plugin.registry import plugin_table

    installed = {c["target"].split(":")[0] for c in plugin_table()["capture"]
                 if c["target"].split(".")[0] in ROOTS}
    assert installed <= set(HOOK_PATH_START)


# --------------------------------------------------------------------------- the checks bite


def _package(tmp_path: Path, files: dict[str, str]) -> dict[str, Path]:
    for relative, text in files.items():
        path = tmp_path / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, "utf-8")
    return {"pkg": tmp_path / "pkg"}


def test_the_cycle_check_finds_a_function_level_cycle(tmp_path):
    roots = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/api.py": "def run():\n    from pkg.pipeline import execute\n    return execute()\n",
        "pkg/pipeline.py": "from pkg.api import run\n\ndef execute():\n    return 1\n",
        "pkg/fine.py": "from pkg import api\n",
        "pkg/typed.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.fine import x\n",
        "pkg/back.py": "from pkg.typed import y\n",
    })
    graph = import_graph(roots)
    assert graph["pkg.api"] == {"pkg.pipeline": "run"}
    assert import_cycles(graph) == [["pkg.api", "pkg.pipeline"]]


def test_the_hook_path_check_finds_a_heavy_import_behind_a_function(tmp_path):
    roots = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/hook.py": "import json\nfrom pkg import util\n",
        "pkg/util.py": "import os\n\ndef show():\n    import click\n    click.echo('x')\n\n"
                       "def child():\n    import numpy\n",
    })
    assert third_party_on_path(roots, ["pkg.hook"], {"pkg.util:child": "a child process"}) == [
        "pkg.util:show imports click"]


def test_the_command_check_finds_a_command_outside_cli(tmp_path):
    roots = _package(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/cli/__init__.py": "import click\n\n@click.command()\ndef ok():\n    pass\n",
        "pkg/search/orient.py": "import click\n\n@click.command(name='orient')\ndef orient():\n    pass\n",
    })
    assert click_commands_outside_cli(roots) == ["pkg.search.orient: click.command at line 3"]
