"""`carto index`: build or refresh the derived search indexes of the home."""

from __future__ import annotations

import inspect

import click

from carto_core.cli import RegistryNamesOption
from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.exitcodes import ExitCode


@click.command("index", cls=JsonErrorCommand, epilog="""\b
Examples:
  carto index                 # refresh every index
  carto index --rebuild       # throw the indexes away and rebuild from the logs
  carto index --step keyword --json
  carto index --step semantic --force   # retry the embedder now, not after the back-off
  carto index --jobs 1        # one core: leave the rest of a busy machine alone""")
@click.option("--rebuild", is_flag=True, help="Rebuild from the logs instead of picking up appended rows.")
@click.option("--step", "steps", multiple=True, metavar="NAME",
              help="Run only this step (repeatable): keyword, or a step a ranker adds (semantic).")
@click.option("--force", is_flag=True,
              help="Retry now a step backing off after a failure (the semantic step waits 1 min to 1 h).")
@click.option("--analyzer", metavar="NAME", cls=RegistryNamesOption, registry="analyzers",
              help="Analyzer of the keyword index ({names}; default from config).")
@click.option("--jobs", type=click.IntRange(min=1), metavar="N",
              help="Use at most N cores (worker processes, BLAS threads); default: the cores "
                   "the machine has to spare (CARTO_JOBS).")
@json_option
def index(rebuild: bool, steps: tuple[str, ...], force: bool, analyzer: str | None,
          jobs: int | None, as_json: bool) -> None:
    """Build or refresh the search indexes under <home>/.carto/.

    The keyword index (BM25 postings and document columns) is built on first search anyway and
    picks up appended rows by itself; run this after a large backfill, to fold appended rows
    into the persisted index, or with --rebuild after editing logs by hand. Rankers add their
    own steps (the semantic ladder embeds new events).
    """
    import time

    started = time.perf_counter()
    from carto_core.search import indexstamp
    from carto_core.logio.home import current_home

    home = current_home()
    _fail_if_damaged(home)
    # Nothing new since a run that changed nothing: its reports, from the stamp, before any
    # index, numpy or plugin is loaded (carto_core.search.indexstamp says what "nothing" covers).
    fast = indexstamp.usable(rebuild, force, analyzer)
    replay = indexstamp.recorded(home, list(steps)) if fast else None
    if replay is not None:
        seconds = round(time.perf_counter() - started, 3)
        _emit(home, [{**r, "seconds": seconds} for r in replay], as_json, unchanged=True)
        return
    if jobs is not None:
        import os

        from carto_core.util.parallel import ENV

        os.environ[ENV] = str(jobs)  # read by every build step (carto_core.util.parallel.jobs)
    from carto_core.search.engine import SearchEngine
    from carto_core.search.indexing import index_steps

    from carto_core.search.api import SearchUsageError

    from carto_core.logio.homefaults import probe_writable

    refused = probe_writable(home.root)
    if refused:  # every step writes under <home>/.carto: one line instead of one per step
        fail(f"the home {home.root} is {refused}: carto index writes its indexes there "
             "(carto search still answers, from the logs)")
    engine = SearchEngine(home, analyzer=analyzer)
    try:
        engine.analyzer  # noqa: B018 - an unknown name is a usage error before any work
    except SearchUsageError as exc:
        usage_error(str(exc))
    selected = index_steps(engine, list(steps) or None)
    known = [s.name for s in index_steps(engine)]
    unknown = [name for name in steps if name not in known]
    if unknown:
        usage_error(f"unknown index step {unknown[0]!r}; accepted: {', '.join(known)}")
    reports = []
    failed = False
    before = indexstamp.Snapshot(home, list(steps)) if fast else None

    from carto_core.util import progress as _progress

    # The bar goes to stderr and only to a terminal: stdout keeps the summary alone. Without
    # one rich is not imported (its imports are a share of the keep-up job's run: docs/performance.md).
    # `CARTO_PROGRESS` decides as it does for every other command's progress.
    how = _progress.mode()
    if how == "off":
        bar = _NoBar()
    elif how == "plain":
        # a pipe or a log file gets a plain line now and then instead: a
        # semantic pass of a large home says nothing for many minutes otherwise
        bar = _PlainLines()
    elif as_json:
        bar = _NoBar()
    else:
        from rich.console import Console
        from rich.progress import Progress, TimeElapsedColumn

        # without a total (a streamed build) the bar only pulses: the time run says it is alive
        bar = Progress(*Progress.get_default_columns(), TimeElapsedColumn(),
                       console=Console(stderr=True), transient=True)
    with bar:
        for step in selected:
            task = bar.add_task(f"index: {step.name}", total=None)

            def progress(done, total=None, _task=task, _name=step.name):
                bar.update(_task, completed=done, total=total,
                           description=progress_text(_name, done, total))

            # Only steps that take `force` get it (the semantic step's back-off).
            extra = {"force": True} if force and "force" in inspect.signature(step.run).parameters else {}
            try:
                reports.append(step.run(engine, rebuild=rebuild, progress=progress, **extra))
            except Exception as exc:  # report and go on with the other steps
                failed = True
                reports.append({"step": step.name, "outcome": "error", "error": _error_text(exc)})
            bar.remove_task(task)
    if before is not None and not failed:
        indexstamp.write(before, reports)
    _emit(home, reports, as_json)
    if failed:
        fail("some index steps failed (see above)", ExitCode.ERROR)


def _fail_if_damaged(home) -> None:
    """Exit 1 naming them, as `carto search` does, when no searched log of the home can be
    read: a damaged home is not an empty one, and an index built from nothing would say
    "0 events". Before the stamp's replay, which reads such a log as absent (a home indexed
    empty, then damaged, would replay "nothing new"); `unreadable` alone first, so that a run
    whose logs can all be read imports nothing more (`carto_core.search.indexstamp`)."""
    from carto_core.logio.logs import SEARCHED_LOGS
    from carto_core.logio.reader import unreadable

    if any(unreadable(home.log(label)) for label in SEARCHED_LOGS):
        from carto_core.cli.logskips import fail_if_none_readable

        fail_if_none_readable(home, SEARCHED_LOGS)


def progress_text(step: str, done: int, total: int | None) -> str:
    """The live bar's words: what it counts, so a person can judge how far along it is."""
    from carto_core.cli.index_text import _count

    if total:
        return f"index: {step} · {done:,} of {_count(total, 'event')}"
    return f"index: {step} · {_count(done, 'event')}"


def _error_text(exc: Exception) -> str:
    """A step's failure in words: a file the step could not read or write is named with the
    system's reason and where to look next, not as a Python exception."""
    if isinstance(exc, OSError) and exc.filename and exc.strerror:
        verb = "open" if isinstance(exc, PermissionError) else "read"
        return (f"cannot {verb} {exc.filename}: {exc.strerror[0].lower()}{exc.strerror[1:]} "
                "(`carto doctor` says what to do)")
    return f"{type(exc).__name__}: {exc}"


class _PlainLines:
    """rich's `Progress` for a stderr that is no terminal: one line every
    `util.progress.PLAIN_EVERY` seconds (none before the first such wait: a quick run says
    nothing) while a step runs (`index: semantic · 1,234 of 50,000 events (2 %) · 20 s`), no
    redraws."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def add_task(self, description: str = "", **kwargs) -> int:
        import time

        self.started = self.said = time.monotonic()
        return 0

    def update(self, task=0, *, completed=0, total=None, description: str = "", **kwargs) -> None:
        import time

        from carto_core.util.progress import PLAIN_EVERY

        now = time.monotonic()
        if now - self.said < PLAIN_EVERY:
            return
        self.said = now
        share = f" ({100 * completed // total} %)" if total else ""
        click.echo(f"{description}{share} · {int(now - self.started)} s", err=True)

    def remove_task(self, *args) -> None:
        return None


class _NoBar:
    """rich's `Progress`, where nothing is shown."""

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def add_task(self, *args, **kwargs) -> int:
        return 0

    def update(self, *args, **kwargs) -> None:
        return None

    def remove_task(self, *args) -> None:
        return None


def _emit(home, reports: list[dict], as_json: bool, *, unchanged: bool = False) -> None:
    from carto_core.cli.search_text import say_skipped

    for report in reports:
        say_skipped(home, report.get("skipped_files") or [])
    if as_json:
        emit_json({"home": str(home.root), "steps": reports,
                   **({"unchanged": True} if unchanged else {})})
        return
    from carto_core.cli.index_text import render

    for line in render(reports, unchanged=unchanged):
        click.echo(line)
    for report in reports:
        if report.get("outcome") == "error":
            click.echo(f"{report['step']}: error: {report['error']}", err=True)
