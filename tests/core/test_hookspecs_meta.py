"""Meta-tests (after datasette's): every hook is documented in its spec and in docs/plugins.md,
and exercised by at least one test somewhere in the workspace."""

import inspect
import re
from pathlib import Path

import pytest

from carto_core import hookspecs

ROOT = Path(__file__).resolve().parents[2]
HOOKS = sorted(name for name, _ in inspect.getmembers(hookspecs, inspect.isfunction) if name.startswith("carto_"))
TEST_FILES = [p for pattern in ("tests/**/*.py", "plugins/*/tests/**/*.py", "rankers/tests/**/*.py",
                                "examples/*/tests/**/*.py") for p in ROOT.glob(pattern)]


def test_there_are_hooks():
    assert len(HOOKS) >= 7


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_has_reference_docstring(hook):
    doc = inspect.getdoc(getattr(hookspecs, hook)) or ""
    assert len(doc) > 200, f"{hook} needs a reference-manual docstring"
    assert ":param" in doc and "Example::" in doc


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_is_documented_in_plugins_md(hook):
    text = (ROOT / "docs" / "plugins.md").read_text()
    assert re.search(rf"^##+ `?{hook}", text, re.M), f"docs/plugins.md lacks a section for {hook}"


@pytest.mark.parametrize("hook", HOOKS)
def test_hook_is_exercised_by_a_test(hook):
    this = Path(__file__).resolve()
    users = [p for p in TEST_FILES if p.resolve() != this and hook in p.read_text(errors="replace")]
    assert users, f"no test mentions {hook}; write one that registers through it"
