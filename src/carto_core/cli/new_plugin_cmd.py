"""`carto new-plugin NAME [--kind KIND]`: a ready-to-install plugin package from the shipped
templates, one kind of extension point each.

`--kind source` (the default; `carto_core/templates/source_plugin/`) holds a pyproject with the
`carto` and `carto.capture` entry points, a working source skeleton (JSON-lines files ->
changelog rows), a capture handler and test modules running the source and capture contract
suites. Every other kind (`KINDS`: ranker, fusion, decay policy, embedder, fact verb, writer)
is the common package of `templates/component_plugin/` (pyproject with the `carto` entry point,
README) and the kind's `templates/kinds/<kind>/`: a plugin module holding a working
implementation and its registration hook, and a test module running the kind's contract kit
(`carto_core.kits`) and checking the entry point. Every generated package imports carto through
`carto_core.api` alone and passes its own tests as generated; docs/plugins.md goes on from there.
"""

from __future__ import annotations

import re
from importlib import resources
from pathlib import Path

import click

from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.exitcodes import ExitCode

NAME = re.compile(r"^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$")
SUFFIX = ".tmpl"


class Kind:
    """One kind of plugin `new-plugin` makes: its class-name suffix, what it is called in words,
    its registration hook, its registry and its contract kit."""

    def __init__(self, suffix: str, words: str, hook: str, registry: str, kit: str):
        self.suffix, self.words, self.hook, self.registry, self.kit = suffix, words, hook, registry, kit


KINDS: dict[str, Kind] = {
    "source": Kind("Source", "source", "carto_register_sources", "sources", "SourceContract"),
    "ranker": Kind("Ranker", "ranker", "carto_register_rankers", "rankers", "RankerContract"),
    "fusion": Kind("Fusion", "fusion", "carto_register_fusions", "fusions", "FusionContract"),
    "decay": Kind("Decay", "decay policy", "carto_register_decay_policies", "decay_policies",
                  "DecayPolicyContract"),
    "embedder": Kind("Embedder", "embedder", "carto_register_embedders", "embedders",
                     "EmbedderContract"),
    "verb": Kind("Verb", "fact verb", "carto_register_fact_verbs", "fact_verbs",
                 "FactVerbContract"),
    "writer": Kind("Writer", "writer", "carto_register_writers", "writers", "WriterContract"),
}
#: Where a kind's two files land in the package (the rest is `component_plugin/`).
KIND_FILES = {"plugin.py.tmpl": "src/__module__/plugin.py.tmpl",
              "test_contract.py.tmpl": "tests/test_contract.py.tmpl"}


def names_for(name: str, kind: str = "source") -> dict[str, str]:
    """Every spelling of NAME the templates use."""
    from carto_core import __version__

    words = name.split("-")
    spec = KINDS[kind]
    return {
        "name": name,
        "dist": f"carto-{name}",
        "module": "carto_" + "_".join(words),
        "class_name": "".join(w.capitalize() for w in words) + spec.suffix,
        "env": "_".join(w.upper() for w in words),
        "type": "_".join(words) + "_entry",
        "carto_version": __version__,
        "kind": kind,
        "kind_words": spec.words,
        "hook": spec.hook,
        "kit": spec.kit,
    }


def render(text: str, values: dict[str, str]) -> str:
    for key, value in values.items():
        text = text.replace("{{" + key + "}}", value)
    leftover = re.search(r"\{\{[a-z_]+\}\}", text)
    if leftover:
        raise ValueError(f"template placeholder {leftover.group(0)} has no value")
    return text


def _walk(node, prefix: str, out: list[tuple[str, str]]) -> None:
    for child in sorted(node.iterdir(), key=lambda c: c.name):
        relative = f"{prefix}{child.name}"
        if child.is_dir():
            if child.name != "__pycache__":
                _walk(child, relative + "/", out)
        elif child.name.endswith(SUFFIX):
            out.append((relative, child.read_text("utf-8")))


def template_files(kind: str = "source") -> list[tuple[str, str]]:
    """(relative path with `__module__` and `.tmpl` kept, text) of every file of a `kind`
    package."""
    root = resources.files("carto_core.templates")
    out: list[tuple[str, str]] = []
    if kind == "source":
        _walk(root / "source_plugin", "", out)
        return out
    _walk(root / "component_plugin", "", out)
    for leaf, relative in KIND_FILES.items():
        out.append((relative, (root / "kinds" / kind / leaf).read_text("utf-8")))
    return sorted(out)


def generate(name: str, parent: Path, *, force: bool = False,
             kind: str = "source") -> tuple[Path, list[Path]]:
    """Write the `kind` package for NAME under `parent`; returns (package folder, files
    written)."""
    values = names_for(name, kind)
    target = parent / values["dist"]
    if target.exists() and any(target.iterdir()) and not force:
        raise FileExistsError(f"{target} exists and is not empty (use --force to overwrite)")
    written: list[Path] = []
    for relative, text in template_files(kind):
        out = target / relative[: -len(SUFFIX)].replace("__module__", values["module"])
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(render(text, values), "utf-8")
        written.append(out)
    return target, written


@click.command(name="new-plugin", epilog="""\b
Examples:
  carto new-plugin journal                 ./carto-journal: a source (backfill + live capture)
  carto new-plugin recent --kind ranker    ./carto-recent: a ranker and its RankerContract test
  carto new-plugin my-tool --dir ~/src     ~/src/carto-my-tool
  cd carto-journal && pip install -e '.[test]' && pytest && carto plugins

\b
Kinds: source, ranker, fusion, decay (a decay policy), embedder, verb (a fact verb), writer.
Exit codes: 0 written; 2 bad NAME; 4 the folder exists and is not empty (see --force).""", cls=JsonErrorCommand)
@click.argument("name")
@click.option("--kind", type=click.Choice(list(KINDS)), default="source", show_default=True,
              help="What the plugin adds: each kind comes with a working implementation and a "
                   "test running its contract kit.")
@click.option("--dir", "parent", type=click.Path(file_okay=False, path_type=Path), default=Path("."),
              show_default=True, help="Where to create the package folder carto-NAME.")
@click.option("--force", is_flag=True, help="Write into an existing, non-empty folder.")
@json_option
def new_plugin(name, kind, parent, force, as_json):
    """Create a plugin package: entry point, a working implementation, a passing contract test.

    NAME is lowercase letters, digits and dashes (the name the plugin registers, as in `carto
    ingest NAME` or `--ranker NAME`); the package is `carto-NAME`, its module `carto_NAME`
    (dashes become underscores).
    """
    if not NAME.match(name):
        usage_error(f"new-plugin: {name!r} is not a plugin name: use lowercase letters, digits "
                    "and single dashes, starting with a letter (e.g. 'journal', 'my-tool')")
    try:
        target, written = generate(name, parent, force=force, kind=kind)
    except FileExistsError as exc:
        fail(f"new-plugin: {exc}", ExitCode.CONFLICT)
    except OSError as exc:
        fail(f"new-plugin: {exc}")
    if as_json:
        emit_json({"name": name, **{k: v for k, v in names_for(name, kind).items() if k != "name"},
                   "path": str(target), "files": [str(p.relative_to(target)) for p in written]})
        return
    click.echo(f"created {target}")
    for path in written:
        click.echo(f"  {path.relative_to(target)}")
    click.echo(f"next: cd {target} && pip install -e '.[test]' && pytest && carto plugins")
