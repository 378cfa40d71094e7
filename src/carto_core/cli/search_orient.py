"""`carto search --project NAME` with no query: the orientation document as text or JSON.

The document itself is `carto_core.search.orient.orient`; this is only its command-line face.
"""

from __future__ import annotations


def no_project_line(engine, spec: str) -> str | None:
    """A line when no event of the home has a project `spec` matches (a typo, a project named
    otherwise), with the projects it has; None when one matches."""
    from carto_core.model.project import ProjectScope, RegistryError

    try:
        scope = ProjectScope.parse(spec)
        projects = [str(p) for p in engine.index.strings["projects"] if p]
    except (RegistryError, OSError, ValueError):
        return None
    if not projects or any(scope.matches(p) for p in projects):
        return None
    shown = sorted(set(projects))
    listed = ", ".join(shown[:12]) + (f", +{len(shown) - 12} more" if len(shown) > 12 else "")
    return f"No project matches {spec}; this home's projects: {listed}."


def orient_cmd(home, spec: str, since, before, limit: int, as_json: bool, read_only: str | None = None) -> None:
    """The CLI face of `orient` (exit 3 when the project has no events). `read_only` (why the
    home cannot be written) keeps the index in memory and says so in the JSON."""
    import click

    from carto_core.util.output import emit_json, fail, usage_error
    from carto_core.util.exitcodes import ExitCode
    from carto_core.util.terminal import counted
    from carto_core.util.timeparse import shown_timestamp
    from carto_core.model.project import ProjectScope, RegistryError
    from carto_core.search.engine import SearchEngine
    from carto_core.search.orient import orient
    from carto_core.search.pipeline import has_logs

    try:
        scope = ProjectScope.parse(spec)
    except RegistryError as exc:
        usage_error(str(exc))
    engine = SearchEngine(home, persist=not read_only)
    if not has_logs(engine):
        fail(f"no searched logs in {home.root}; record some with `carto install` or backfill "
             "with `carto ingest`", ExitCode.NOT_FOUND)
    document = orient(engine, scope, since=since, before=before, limit=min(limit, 10))
    from carto_core.cli.search_text import say_skipped

    skipped = engine.skipped_files()
    say_skipped(home, skipped)
    if skipped:
        document["skipped_files"] = skipped
    if as_json:
        if read_only:
            document["read_only_home"] = {"home": str(home.root), "why": read_only,
                                          "skipped": ["keyword index cache (built in memory for this call)"]}
        emit_json(document)
    else:
        click.echo(f"=== Project: {spec} ({', '.join(document['matched_projects']) or 'no match'}; "
                   f"{counted(document['events'], 'event')}) ===")
        if not document["matched_projects"]:
            line = no_project_line(engine, spec)
            if line:
                click.echo(line)
        sections = (("Latest wrapups", "wrapups"), ("Other milestones", "milestones"),
                    ("Commits", "commits"))
        for title, key in sections:
            if document[key]:
                click.echo(f"\n--- {title} ---")
                for entry in document[key]:
                    click.echo(f"[{shown_timestamp(entry['timestamp'])}] {entry['event_id']}  {entry['summary'][:160]}")
        if document["open_threads"]:
            click.echo("\n--- Open threads (unresolved in wrapups) ---")
            for entry in document["open_threads"]:
                click.echo(f"- {entry['text']}  (from {entry['from']}, {shown_timestamp(entry['timestamp'])})")
        if document["busiest_files"]:
            click.echo("\n--- Busiest files ---")
            for entry in document["busiest_files"]:
                edits = counted(entry["edits"], "edit")
                click.echo(f"{edits:>9}  {entry['relative'] or entry['path']}  (last {shown_timestamp(entry['last'])})")
    if not document["events"]:
        raise SystemExit(int(ExitCode.NOT_FOUND))
