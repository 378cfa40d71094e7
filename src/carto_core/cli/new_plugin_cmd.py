"""`carto new-plugin NAME`: a ready-to-install source plugin package from the shipped template.

The template (`carto_core/templates/source_plugin/`, package data) holds a pyproject with the
`carto` entry point, a working source skeleton (JSON-lines files -> changelog rows) and a test
module that runs the contract suite of `carto_core.testing` and checks the entry point. The
generated package passes its own tests as generated; docs/writing-a-source.md goes on from there.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import click

from carto_core.util.output import emit_json, fail, json_option, usage_error
from carto_core.util.exitcodes import ExitCode

NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
TEMPLATE = "source_plugin"
SUFFIX = ".tmpl"


def names_for(name: str) -> dict[str, str]:
    """Every spelling of NAME the template uses."""
    from carto_core import __version__

    words = name.split("-")
    return {
        "name": name,
        "dist": f"carto-{name}",
        "module": "carto_" + "_".join(words),
        "class_name": "".join(w.capitalize() for w in words) + "Source",
        "env": "_".join(w.upper() for w in words),
        "type": "_".join(words) + "_entry",
        "carto_version": __version__,
    }


def render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    leftover = re.search(r"\{\{[a-z_]+\}\}", text)
    if leftover:
        raise ValueError(f"template placeholder {leftover.group(0)} has no value")
    return text


def template_files() -> list[tuple[str, str]]:
    """(relative path with `__module__` and `.tmpl` kept, text) of every template file."""
    root = resources.files("carto_core.templates") / TEMPLATE
    out: list[tuple[str, str]] = []

    def walk(node, prefix: str) -> None:
        for child in sorted(node.iterdir(), key=lambda c: c.name):
            relative = f"{prefix}{child.name}"
            if child.is_dir():
                if child.name != "__pycache__":
                    walk(child, relative + "/")
            elif child.name.endswith(SUFFIX):
                out.append((relative, child.read_text("utf-8")))

    walk(root, "")
    return out


def generate(name: str, parent: Path, *, force: bool = False) -> tuple[Path, list[Path]]:
    """Write the package for NAME under `parent`; returns (package folder, files written)."""
    values = names_for(name)
    target = parent / values["dist"]
    if target.exists() and any(target.iterdir()) and not force:
        raise FileExistsError(f"{target} exists and is not empty (use --force to overwrite)")
    written: list[Path] = []
    for relative, text in template_files():
        out = target / relative[: -len(SUFFIX)].replace("__module__", values["module"])
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render(text, values), "utf-8")
        written.append(out)
    return target, written


@click.command(name="new-plugin", epilog="""\b
Examples:
  carto new-plugin journal                 ./carto-journal with module carto_journal
  carto new-plugin my-tool --dir ~/src     ~/src/carto-my-tool
  cd carto-journal && pip install -e '.[test]' && pytest && carto plugins

\b
Exit codes: 0 written; 2 bad NAME; 4 the folder exists and is not empty (see --force).""")
@click.argument("name")
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Where to create the package folder carto-NAME.")
@click.option("--force", is_flag=True, help="Write into an existing, non-empty folder.")
@json_option
def new_plugin(name, parent, force, as_json):
    """Create a source plugin package: entry point, source skeleton, passing contract test.

    NAME is lowercase letters, digits and dashes (the source name, as in `carto ingest NAME`);
    the package is `carto-NAME`, its module `carto_NAME` (dashes become underscores).
    """
    if not NAME.match(name):
        usage_error(f"new-plugin: {name!r} is not a plugin name: use lowercase letters, digits "
                    "and single dashes, starting with a letter (e.g. 'journal', 'my-tool')")
    try:
        target, written = generate(name, parent, force=force)
    except FileExistsError as exc:
        fail(f"new-plugin: {exc}", ExitCode.CONFLICT)
    except OSError as exc:
        fail(f"new-plugin: {exc}")
    if as_json:
        emit_json({"name": name, **{k: v for k, v in names_for(name).items() if k != "name"},
                   "path": str(target), "files": [str(p.relative_to(target)) for p in written]})
        return
    click.echo(f"created {target}")
    for path in written:
        click.echo(f"  {path.relative_to(target)}")
    click.echo(f"next: cd {target} && pip install -e '.[test]' && pytest && carto plugins")
