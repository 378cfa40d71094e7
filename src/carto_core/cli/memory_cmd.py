"""`carto memory`: a project's curated MEMORY.md (`carto_core.lenses.memory`), printed or
written where Claude Code's auto-memory for the project lives."""

from __future__ import annotations

import os
import re
from collections import Counter
from pathlib import Path

import click

from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.exitcodes import ExitCode
from carto_core.util.terminal import counted

_CWD = re.compile(rb'"cwd"\s*:\s*"([^"\\]{1,1000})"')


def _resolve_project(home, wanted: str | None) -> str:
    from carto_core.cli.project_names import home_projects

    known = home_projects(home)
    if wanted is None:
        from carto_core.model.project import project_for

        name = project_for(os.getcwd())
        if not name:
            usage_error("the current folder names no project: pass --project NAME")
        return next((p for p in known if p.lower() == name.lower()), name)
    exact = [p for p in known if p.lower() == wanted.lower()]
    if exact:
        return max(exact, key=lambda p: known[p])
    partial = sorted((p for p in known if wanted.lower() in p.lower()), key=lambda p: -known[p])
    if len(partial) == 1:
        return partial[0]
    if not partial:
        fail(f"no project named like {wanted!r} in {home.root}", ExitCode.NOT_FOUND)
    usage_error(f"{wanted!r} matches {len(partial)} projects: {', '.join(partial[:12])}; name one")


def _cwd_counts(home, project: str) -> Counter:
    """The working folders the project's rows were recorded in, with their row counts."""
    counts: Counter = Counter()
    needle = f'"project":"{project}"'.encode()
    for label in ("changelog", "turns", "prompts"):
        try:
            data = home.log(label).read_bytes()
        except OSError:
            continue
        for line in data.split(b"\n"):
            if needle in line:
                match = _CWD.search(line)
                if match:
                    counts[match.group(1).decode("utf-8", "replace")] += 1
    return counts


def _folders(home, project: str) -> list[tuple[str, int]]:
    """(folder, rows) of each folder the project's name was recorded in, most rows first
    (`model.project.folders_of`)."""
    from carto_core.model.project import folders_of

    return folders_of(project, _cwd_counts(home, project).most_common())


def _project_root(home, project: str, from_cwd: bool, required: bool = True, as_json: bool = False) -> Path | None:
    """The folder Claude Code runs in for the project: the repository (worktree) holding the
    current folder, or, for `--project`, the folder its rows were recorded in (none recorded:
    fails, or None when not `required`). A name recorded in several folders (`~/me/api`,
    `~/clientA/api`) is the one holding the current folder, else a usage error naming them: a
    MEMORY.md is one folder's, and a guess could write one client's memory into another's."""
    from carto_core.model.project import find_git

    if from_cwd:
        cwd = os.getcwd()
    else:
        folders = _folders(home, project)
        if not folders and not required:
            return None
        if not folders:
            fail(f"no row of {project!r} records a working folder: pass --file PATH", ExitCode.NOT_FOUND)
        if len(folders) > 1:
            from carto_core.lenses.memory import Scope

            here = [folder for folder, _ in folders if Scope(folder).holds(os.getcwd())]
            if len(here) != 1:
                _several_folders(project, folders, as_json)
            folders = [(here[0], 0)]
        cwd = folders[0][0]
    info = find_git(cwd) if os.path.isdir(cwd) else None
    return Path(info.worktree) if info is not None else Path(cwd)


def _several_folders(project: str, folders: list[tuple[str, int]], as_json: bool):
    from carto_core.util.output import emit_failure

    listed = [f"{folder} ({counted(rows, 'row')})" for folder, rows in folders]
    message = (f"{project!r} is the name of {len(folders)} folders and a MEMORY.md is one folder's: "
               "pass the full path of one as --project, or run carto memory inside it")
    if as_json:
        emit_failure({"project": project, "folders": [{"folder": folder, "rows": rows} for folder, rows in folders]},
                     f"{message}; the folders: {', '.join(listed)}", ExitCode.USAGE)
    else:
        click.echo(f"carto: {message}:", err=True)
        for line in listed:
            click.echo(f"  {line}", err=True)
    raise SystemExit(int(ExitCode.USAGE))


def _given_folder(home, wanted: str) -> tuple[str, Path]:
    """(project, folder) of a `--project` that is a folder's path: the repository (worktree)
    holding it, named as its rows are."""
    from carto_core.cli.project_names import home_projects
    from carto_core.model.project import find_git, project_for

    path = os.path.abspath(os.path.expanduser(wanted))
    info = find_git(path) if os.path.isdir(path) else None
    name = project_for(path) if os.path.isdir(path) else os.path.basename(os.path.normpath(path))
    known = home_projects(home)
    match = [p for p in known if p.lower() == (name or "").lower()]
    if not match:
        fail(f"no project named {name!r} (the name of {path}) in {home.root}", ExitCode.NOT_FOUND)
    return max(match, key=lambda p: known[p]), Path(info.worktree) if info is not None else Path(path)


def auto_memory_file(root: Path, env: dict | None = None) -> Path:
    """`<Claude projects>/<encoded root>/memory/MEMORY.md`: Claude Code names a project's
    folder by its absolute path with every non-alphanumeric character as `-` (longer than 200
    characters: cut, and a hash of its own appended: only an existing folder can tell it)."""
    from carto_core.transcript.resolver import TranscriptRoots

    projects = TranscriptRoots.default(env).claude[0]
    name = re.sub(r"[^A-Za-z0-9]", "-", str(root))
    if len(name) > 200:
        found = sorted(p for p in projects.glob(name[:200] + "*") if p.is_dir()) if projects.is_dir() else []
        if len(found) != 1:
            fail(f"{root}: Claude Code's folder for so long a path cannot be derived; pass --file PATH",
                 ExitCode.NOT_FOUND)
        return found[0] / "memory" / "MEMORY.md"
    return projects / name / "memory" / "MEMORY.md"


@click.command(epilog="""\b
Examples:
  carto memory                         this project's memory, printed (nothing written)
  carto memory --project webshop --json
  carto memory --write                 into ~/.claude/projects/<this folder>/memory/MEMORY.md
  carto memory --write --file notes/MEMORY.md

From wrapups (decisions, open threads, key insights), repeated failures in transcripts and what
fixed them, commit conventions and standing preferences in prompts: newest and most-reused
first, every line ending with the event ids it comes from, at most 200 lines and 25 KB in all
(Claude Code loads the first 200 lines). Only rows recorded in this folder's repository (with
--project: the folder its rows name; a name several folders' rows name is the one holding the
current folder, else pass the folder's full path as --project): another folder of the same name
is another project's memory. --write keeps everything outside carto's marked
section, prints the diff first and writes nothing when nothing changed.
Exit codes: 0 ok, 2 an ambiguous --project (several projects, or the name of several folders), 3 no prompt, commit or wrapup recorded for the project,
4 (--write) the file leaves carto's section no room, or its end marker was deleted (nothing is written).""", cls=JsonErrorCommand)
@click.option("--project", default=None, help="Project name, or a folder's full path (default: the current folder's).")
@click.option("--print", "print_only", is_flag=True, help="Print the memory (the default).")
@click.option("--write", "write", is_flag=True, help="Write it into Claude Code's auto-memory MEMORY.md for the project.")
@click.option("--file", "file_path", type=click.Path(dir_okay=False), default=None,
              help="With --write: this MEMORY.md instead of Claude Code's.")
@json_option
def memory(project, print_only, write, file_path, as_json) -> None:
    """Curate a project's MEMORY.md from what carto recorded."""
    from carto_core.logio.home import current_home
    from carto_core.lenses.memory import build_memory, render

    if print_only and write:
        usage_error("--print and --write: choose one")
    if file_path and not write:
        usage_error("--file goes with --write")
    home = current_home()
    from carto_core.cli.logskips import skip_unreadable
    from carto_core.logio.logs import SEARCHED_LOGS

    skipped = skip_unreadable(home, SEARCHED_LOGS, "its events are not remembered")
    # a project is a folder's last name: the memory is of the rows recorded in this one folder
    if project is not None and (os.sep in project or project.startswith("~")):
        name, root = _given_folder(home, project)
    else:
        name = _resolve_project(home, project)
        root = _project_root(home, name, from_cwd=project is None, required=False, as_json=as_json)
    built = build_memory(home, name, str(root) if root is not None else None)
    if not any(built.sources.values()) and not built.knows_project():
        where = f" recorded in {root}" if root is not None else ""
        fail(f"nothing to remember for project {name!r}{where} in {home.root}: a memory is made of its "
             "prompts, commits and wrapups, and none is recorded (transcript turns alone are "
             "searched, not remembered)", ExitCode.NOT_FOUND)
    if not write:
        section = render(built)
        if as_json:
            emit_json({**built.to_dict(), "folder": str(root) if root is not None else None,
                       "markdown": section,
                       **({"skipped_files": skipped} if skipped else {})})
        else:
            click.echo(section, nl=False)
        return
    target = Path(file_path).expanduser() if file_path else auto_memory_file(
        root if root is not None else _project_root(home, name, from_cwd=project is None))
    try:
        existing = target.read_text("utf-8") if target.exists() else ""
    except UnicodeDecodeError:
        fail(f"cannot read {target}: it is not UTF-8 text; nothing was written")
    except OSError as exc:
        fail(f"cannot read {target}: {exc.strerror or exc}")
    from carto_core.lenses.memory import END, NoRoom, Unclosed, rewritten

    try:
        new = rewritten(existing, built)
    except Unclosed as exc:
        fail(f"{target}: {exc}, so where carto's lines stop and yours start cannot be told; nothing "
             f"was written. Put {END} back on its own line after carto's last line (or delete "
             "carto's section, its begin marker included) and run this again", ExitCode.CONFLICT)
    except NoRoom as exc:
        fail(f"{target} already holds {exc}", ExitCode.CONFLICT)
    from carto_core.control.memoryfiles import remember

    remember(home, target, name, str(root) if root is not None else None)
    if new == existing:
        if as_json:
            emit_json({"file": str(target), "changed": False, "project": name})
        else:
            click.echo(f"{target}: unchanged")
        return
    import difflib

    diff = "".join(difflib.unified_diff(existing.splitlines(keepends=True), new.splitlines(keepends=True),
                                        fromfile=f"{target} (now)", tofile=f"{target} (carto)"))
    from carto_core.install.configedit import write_atomic

    if not as_json:
        click.echo(diff, nl=not diff.endswith("\n"))
    try:
        write_atomic(target, new)
    except OSError as exc:
        fail(f"cannot write {target}: {exc.strerror or exc}")
    if as_json:
        emit_json({"file": str(target), "changed": True, "project": name, "diff": diff,
                   "lines": len(new.splitlines()), "bytes": len(new.encode("utf-8"))})
    else:
        click.echo(f"{target}: written ({counted(len(new.splitlines()), 'line')}, "
                   f"{counted(len(new.encode('utf-8')), 'byte')})")
