"""`carto ingest hermes`: the Hermes backfill command (added under `carto ingest` by the plugin).

All or nothing per run: every stream is read first; a busy, corrupt or unknown database stops
the run before anything is written or checkpointed. Only then are the rows handed to the shared
runner (`carto_core.ingest.runner.run_ingest`: dedup by event_id, redaction, writers, checkpoints).
"""

from __future__ import annotations

import click

from carto_core.api import ExitCode, JsonErrorCommand, emit_json, fail, window_options, window_values

EPILOG = """\b
Examples:
  carto ingest hermes --print-config-path     where the policy file is (or would be)
  carto ingest hermes                         dry run: what would be written, nothing written
  carto ingest hermes --write                 write the rows and checkpoints
  carto ingest hermes --show 20260715_101203_ab12cd   every decision about one session
  carto ingest hermes --write --only artifacts --json

\b
Exit codes: 0 ok; 1 corrupt database or unknown schema; 2 missing or invalid policy file or a
bad flag; 3 nothing to read (no state.db, or --show found no such session); 75 a database was
busy (locked by a writer): nothing written, run again later.
"""


class _Prefetched:
    """Hands `run_ingest` batches that were already read (so a failure writes nothing)."""

    def __init__(self, source, batches: dict):
        self.name = source.name
        self.provider = source.provider
        self.read_roots = source.read_roots  # the runner reads only under the source's roots
        self._batches = batches

    def read(self, stream, checkpoint):
        return self._batches[stream.key]


@click.command(name="hermes", epilog=EPILOG, cls=JsonErrorCommand)
@click.option("--config", "config_path", type=click.Path(dir_okay=False),
              help="Policy file to use instead of the search path.")
@click.option("--print-config-path", is_flag=True,
              help="Print which policy file would be used (and every place searched), then exit.")
@click.option("--write", is_flag=True, help="Write rows and checkpoints (default: dry run).")
@click.option("--show", "show_session", metavar="SESSION",
              help="Explain one session: filters, project attribution, rows it yields.")
@click.option("--profile", "profiles", multiple=True, help="Only this Hermes profile (repeatable).")
@window_options(settle_help="A session is settled (its last turn written) once ended, or once its "
                            "last message is this old (default: the policy's settle_seconds, 3600).",
                since_help="sessions active")
@click.option("--full", is_flag=True, help="Ignore checkpoints (rows already in the logs are still not repeated).")
@click.option("--only", type=click.Choice(["sessions", "artifacts"]), help="Read only sessions or only artifacts.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document on stdout.")
def hermes_command(config_path, print_config_path, write, show_session, profiles, since,
                   since_days, settle_seconds, full, only, as_json):
    """Backfill Hermes Agent sessions (state.db, read-only) and artifacts into the logs.

    Needs a policy file, hermes.json: which channels count, the projects, what is private. It
    refuses to run without one and says where it looked. Dry run unless --write.
    """
    from carto_hermes.policy import HermesError, find_policy, load_policy

    if print_config_path:
        found, looked = find_policy(config_path)
        if as_json:
            emit_json({"path": str(found) if found else None, "exists": found is not None,
                       "searched": [str(p) for p in looked]})
        else:
            click.echo(str(found or looked[0]))
            if found is None:
                click.echo(f"(no policy file yet; searched: {', '.join(map(str, looked))})", err=True)
        return
    window = window_values(since, since_days, settle_seconds)
    if "since" in window:
        import time

        since_days = max(0.0, (time.time() - window["since"].timestamp()) / 86400)
    try:
        policy = load_policy(config_path)
        if settle_seconds is not None:
            import dataclasses

            policy = dataclasses.replace(policy, settle_seconds=int(settle_seconds))
        _run(policy, write=write, show_session=show_session, profiles=list(profiles),
             since_days=since_days, full=full, only=only, as_json=as_json)
    except HermesError as exc:
        fail(f"ingest hermes: {exc}", exc.exit_code)


def _run(policy, *, write, show_session, profiles, since_days, full, only, as_json):
    from carto_core.api import CheckpointStore, load_config, report_summary, run_with_progress

    from carto_hermes.source import HermesSource

    source = HermesSource({"policy": policy, "_profiles": profiles or None,
                           "_since_days": since_days, "_only": only})
    streams = list(source.discover())
    if not streams:
        fail(f"ingest hermes: no Hermes database under {policy.hermes_home} "
             "(state.db or profiles/*/state.db) and no artifact matched", ExitCode.NOT_FOUND)
    if show_session:
        _show(source, streams, show_session, as_json)
        return
    home = load_config().home
    checkpoints = CheckpointStore(home, source.name)
    batches = {}
    for stream in streams:  # read everything first: a failure here writes nothing
        batches[stream.key] = source.read(stream, None if full else checkpoints.get(stream.key))
    summary = run_with_progress(_Prefetched(source, batches), home, dry_run=not write,
                                as_json=as_json, streams=streams)
    if not write and not as_json:
        click.echo("dry run: nothing written; add --write to write these rows", err=True)
    report_summary(summary, as_json=as_json)
    if not as_json:
        for batch in batches.values():  # which channel a skip was, and the key that reads it
            for message in batch.messages:
                if "`sources`" in message:
                    click.echo(f"  {message}", err=True)


def _show(source, streams, session_id, as_json):
    for stream in streams:
        if stream.meta.get("kind") != "db":
            continue
        result = source.explain(stream, session_id)
        if result is None:
            continue
        document = {
            "session_id": result.session_id,
            "database": str(stream.path),
            "profile": stream.meta.get("profile"),
            "kept": result.skipped is None,
            "skipped": result.skipped,
            "source": result.source,
            "policy_sources": list(source.policy.sources),
            "settled": result.settled,
            "project": result.project,
            "project_reason": result.project_reason,
            "notes": sorted(set(result.notes)),
            "rows": [{"log": emit.log, "row": emit.row} for emit in result.rows],
        }
        if as_json:
            emit_json(document)
            return
        click.echo(f"session {result.session_id} in {stream.path} (profile {document['profile']})")
        click.echo(f"  {'kept' if result.skipped is None else 'skipped: ' + result.skipped}; "
                   f"{'settled' if result.settled else 'still active'}; source {result.source or '(none)'}")
        if result.skipped == "source_not_selected":
            from carto_hermes.reading import not_selected_message

            click.echo(f"  {not_selected_message(source.policy, result.source)}")
        if result.project:
            click.echo(f"  project {result.project} ({result.project_reason})")
        for note in document["notes"]:
            click.echo(f"  note: {note}")
        for emit in result.rows:
            click.echo(f"  -> {emit.log}: {emit.row['event_id']}  {emit.row.get('summary', '')[:100]}")
        return
    fail(f"ingest hermes: no session {session_id!r} in any Hermes database", ExitCode.NOT_FOUND)
