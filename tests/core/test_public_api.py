"""`carto_core.api` is the declared public API: every name resolves, importing it costs nothing,
core never imports it, and the bundled plugins, the example and what `carto new-plugin`
generates import carto through it alone (the check is shown failing on a broken package)."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

import carto_core.api as api

ROOT = Path(__file__).resolve().parents[2]


def private_imports(folder: Path) -> list[str]:
    """Every import of a carto_core module other than the public API, at any depth (a
    function-level import runs too), in the Python files under `folder`."""
    found = []
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            else:
                continue
            for name in names:
                if name.split(".")[0] == "carto_core" and name != "carto_core.api":
                    found.append(f"{path.relative_to(folder)}:{node.lineno} imports {name}")
    return found


def test_every_public_name_resolves_and_all_lists_them():
    assert api.__all__ == sorted(api.EXPORTS)
    for name in api.__all__:
        assert getattr(api, name) is not None, name
    from carto_core.model.sources import Source
    from carto_core.search.api import Ranker

    assert api.Source is Source and api.Ranker is Ranker
    assert api.hookimpl is __import__("carto_core").hookimpl


def test_importing_the_api_loads_nothing_and_a_name_loads_only_its_module():
    code = ("import sys\nbefore = set(sys.modules)\nimport carto_core.api\nfirst = set(sys.modules) - before\n"
            "from carto_core.api import Context\n"
            "import json\nprint(json.dumps([sorted(first), sorted(m for m in set(sys.modules) - before "
            "if m.startswith('carto_core'))]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    first, after = json.loads(done.stdout)
    assert [m for m in first if m != "__future__"] == ["carto_core", "carto_core.api"]
    assert "carto_core.capture.context" in after
    assert not [m for m in after if m.startswith(("carto_core.search", "carto_core.cli", "carto_core.install"))]


def test_core_never_imports_the_public_api():
    # core's modules import each other directly: the facade is for plugins only
    folder = ROOT / "src" / "carto_core"
    found = [f"{path.relative_to(folder)}:{node.lineno}" for path in sorted(folder.rglob("*.py"))
             for node in ast.walk(ast.parse(path.read_text("utf-8")))
             if isinstance(node, ast.ImportFrom) and node.module == "carto_core.api"]
    assert found == []


def test_the_bundled_plugins_and_the_example_import_only_the_public_api():
    folders = [*ROOT.glob("plugins/*/src"), ROOT / "rankers" / "src", *ROOT.glob("examples/*/src")]
    assert len(folders) >= 6
    assert [line for folder in folders for line in private_imports(folder)] == []


def test_a_generated_plugin_imports_only_the_public_api(tmp_path):
    from carto_core.cli import cli
    from carto_core.cli.new_plugin_cmd import KINDS

    for kind in KINDS:
        folder = tmp_path / kind
        result = CliRunner().invoke(cli, ["new-plugin", "probe", "--kind", kind, "--dir", str(folder)])
        assert result.exit_code == 0, result.output
        made = [path for path in folder.rglob("*.py")]
        assert len(made) >= (5 if kind == "source" else 3), kind
        assert private_imports(folder) == [], kind
        assert all("from carto_core.api import" in path.read_text() for path in made
                   if path.name in ("plugin.py", "test_contract.py")), kind


def test_the_check_finds_a_private_import_at_any_depth(tmp_path):
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "a.py").write_text("from carto_core.api import Source\nimport carto_core.api\n")
    (package / "b.py").write_text("def f():\n    from carto_core.logio.logs import order_row\n")
    (package / "c.py").write_text("import carto_core.search.api as search\nfrom . import a\n")
    assert private_imports(tmp_path) == ["pkg/b.py:2 imports carto_core.logio.logs",
                                         "pkg/c.py:1 imports carto_core.search.api"]


#: The pages a plugin author copies code from: every example imports carto through the API.
EXAMPLE_DOCS = ("plugins.md", "writing-a-source.md")


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(first line, code) of each ```python block of a markdown page, dedented (a block in a
    list item is indented with it)."""
    import re
    import textwrap

    return [(text.count("\n", 0, match.start()) + 2, textwrap.dedent(match.group(2)))
            for match in re.finditer(r"(?m)^([ \t]*)```python\n(.*?)^\1```", text, re.S)]


def example_problems(page: str, text: str) -> list[str]:
    """What is wrong with a page's python examples: a block that does not parse, an import of
    carto other than `carto_core.api`, a name `carto_core.api` does not export or cannot
    resolve, and a function called (or a decorator used) that no block of the page defines or
    imports (`append_rows(...)` out of nowhere)."""
    import builtins

    problems, trees = [], []
    for line, code in python_blocks(text):
        try:
            trees.append((line, ast.parse(code)))
        except SyntaxError as exc:
            problems.append(f"{page}:{line + (exc.lineno or 1) - 1}: does not parse: {exc.msg}")
    defined = set(dir(builtins))
    for _, tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                defined.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.add(node.name)
            elif isinstance(node, ast.arg):
                defined.add(node.arg)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                defined.add(node.id)
    for line, tree in trees:
        for node in ast.walk(tree):
            where = f"{page}:{line + getattr(node, 'lineno', 1) - 1}"
            if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "carto_core":
                if node.module != "carto_core.api":
                    problems.append(f"{where}: imports {node.module}, not the public carto_core.api")
                    continue
                for alias in node.names:
                    if alias.name not in api.__all__:
                        problems.append(f"{where}: carto_core.api exports no {alias.name}")
                    elif getattr(api, alias.name, None) is None:
                        problems.append(f"{where}: carto_core.api.{alias.name} does not resolve")
            elif isinstance(node, ast.Import):
                problems.extend(f"{where}: imports {alias.name}, not the public carto_core.api"
                                for alias in node.names
                                if alias.name.split(".")[0] == "carto_core" and alias.name != "carto_core.api")
            called = []
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                called.append(node.func.id)
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                called.extend(d.id for d in node.decorator_list if isinstance(d, ast.Name))
            problems.extend(f"{where}: {name} is used but no example imports or defines it"
                            for name in called if name not in defined)
    return problems


def test_the_plugin_docs_examples_import_only_the_public_api():
    for page in EXAMPLE_DOCS:
        text = (ROOT / "docs" / page).read_text("utf-8")
        assert len(python_blocks(text)) >= 5, page
        assert example_problems(page, text) == [], page


def test_the_example_check_finds_private_imports_and_helpers_from_nowhere():
    page = "\n".join([
        "```python", "from carto_core.plugin.registry import build_plugin_manager",
        "from carto_core.api import Writer, append_rows", "```", "",
        "- a list item:", "", "  ```python", "  import carto_core.ingest.runner", "",
        "  class MirrorWriter(Writer):", "      def write(self, home, log, rows):",
        "          append_rows(log, rows)", "          helper(rows)", "  ```",
        "```python", "def broken(:", "```", ""])
    assert example_problems("page.md", page) == [
        "page.md:17: does not parse: invalid syntax",
        "page.md:2: imports carto_core.plugin.registry, not the public carto_core.api",
        "page.md:3: carto_core.api exports no append_rows",
        "page.md:9: imports carto_core.ingest.runner, not the public carto_core.api",
        "page.md:14: helper is used but no example imports or defines it",
    ]
