"""`carto doctor`: what the home holds and what is wrong, each problem with its fix."""

from __future__ import annotations

import click

from carto_core.util.output import JsonErrorCommand, emit_json, json_option, usage_error
from carto_core.util.terminal import counted
from carto_core.util.exitcodes import ExitCode


#: Where doctor keeps what it found in each log (counts, line numbers, the newest time: no
#: text of any row), so the next run reads only what was appended since.
HEALTH_FILE = "doctor-logs.json"
_HEALTH_VERSION = 1


def _log_health(path, label: str, step=None, kept: dict | None = None) -> dict:
    """`step(bytes read, log size)` is told how far the read got (a large log takes a while).
    `kept`: what earlier runs found per log (`_kept_health`); a log that only grew since is
    read from where the last run stopped, and `kept[label]` is replaced by what this run found."""
    import os

    from carto_core.logio.jsonl import fast_loads_line
    from carto_core.logio.reader import ReadReport, iter_lines, unreadable_reason
    from carto_core.logio.reader import unreadable as why_unreadable
    from carto_core.util.timeparse import UTC, epoch_seconds, format_timestamp

    report = ReadReport(str(path))
    newest = None  # epoch seconds
    undated = 0
    # Said as a problem of this log (asked before reading: a FIFO would never answer); the
    # report goes on with the others.
    unreadable = why_unreadable(path)
    size = path.stat().st_size if not unreadable and path.is_file() else 0
    before = earlier = None
    if kept is not None and not unreadable and size:
        from carto_core.logio.logstate import identity

        earlier = _resumable(path, kept.get(label))
        before = identity(path)
    start = lineno = 0
    if earlier:
        start, lineno = earlier["state"]["end"], earlier["state"]["lines"]
        report.rows, report.lines = earlier["rows"], lineno
        report.problems.update(earlier["problems"])
        report.examples.update({kind: list(found) for kind, found in earlier["examples"].items()})
        undated, newest = earlier["undated"], earlier["newest"]
    try:
        for line in () if unreadable else iter_lines(path, report, start=start, start_lineno=lineno,
                                                     loads=fast_loads_line):
            if step is not None and not report.lines % 8192:
                step(line.end, size)
            moment = epoch_seconds(line.row.get("timestamp"))
            if moment is None:
                undated += 1
            elif newest is None or moment > newest:
                newest = moment
    except FileNotFoundError:
        pass
    except OSError as exc:  # made unreadable while it was read
        unreadable = unreadable_reason(exc)
    if kept is not None:
        kept.pop(label, None)
        if before is not None and before.get("exists") and not unreadable:
            kept[label] = _health_entry(path, report, before, undated, newest)
    if newest is not None:
        from datetime import datetime

        newest = datetime.fromtimestamp(newest, UTC)
    return {
        "log": label,
        "path": str(path),
        "exists": os.path.lexists(path),
        "unreadable": unreadable,
        "bytes": path.stat().st_size if path.is_file() else 0,
        "rows": report.rows,
        "malformed": report.malformed,
        "problems": dict(report.problems),
        "problem_lines": report.examples,
        "undated": undated,
        "newest_timestamp": format_timestamp(newest) if newest else None,
        "messages": report.messages(),
    }


def _resumable(path, entry: dict | None) -> dict | None:
    """`entry` when the log is still the file it was read from and only grew since (same
    inode, rewrite generation and fingerprints: `logio.logstate.log_status`); None otherwise.
    A log rewritten in place to the same size is read again too (its mtime moved, its size
    did not: no append does that)."""
    import os

    from carto_core.logio.logstate import log_status
    from carto_core.logio.rewrite_journal import settle

    if not isinstance(entry, dict) or not isinstance(entry.get("state"), dict):
        return None
    settle(str(path))  # a rewrite that died is finished before the file is judged
    try:
        if log_status(path, entry["state"]) == "stale":
            return None
        st = os.stat(path)
    except (OSError, KeyError, TypeError):
        return None
    if st.st_size == entry.get("size") and st.st_mtime_ns != entry.get("mtime_ns"):
        return None
    return entry


def _health_entry(path, report, before: dict, undated: int, newest) -> dict:
    """What the read found up to its last complete line; a torn last line is left out (it is
    read again, and said again, on the next run: its writer may finish it)."""
    import os

    from carto_core.logio.logstate import log_state

    problems = {kind: n for kind, n in report.problems.items() if kind != "torn_line"}
    examples = {kind: found for kind, found in report.examples.items() if kind != "torn_line"}
    try:
        st = os.stat(path)
        size, mtime = st.st_size, st.st_mtime_ns
    except OSError:
        size = mtime = -1
    return {"state": log_state(path, report.end_offset, report.lines, before), "size": size,
            "mtime_ns": mtime, "rows": report.rows, "problems": problems, "examples": examples,
            "undated": undated, "newest": newest}


def _kept_health(home) -> dict:
    """What the last doctor found per log ({} when nothing was kept, or it cannot be read)."""
    import json

    try:
        with open(home.state / HEALTH_FILE, "rb") as handle:
            data = json.load(handle)
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("version") != _HEALTH_VERSION \
            or not isinstance(data.get("logs"), dict):
        return {}
    return dict(data["logs"])


def _keep_health(home, kept: dict) -> None:
    """Written through a temporary file renamed over it, into `.carto/` only when it exists
    (doctor makes no folder in a home: one nothing has written state into yet is read whole
    each time); a home doctor cannot write (read-only, full) is read again in full next time."""
    import json
    import os

    from carto_core.util.privatefiles import write_bytes

    if not home.state.is_dir():
        return
    target = home.state / HEALTH_FILE
    temporary = home.state / f".{HEALTH_FILE}.{os.getpid()}.tmp"
    try:
        write_bytes(temporary, json.dumps({"version": _HEALTH_VERSION, "logs": kept}).encode())
        os.replace(temporary, target)
    except OSError:
        try:
            temporary.unlink()
        except OSError:
            pass


def _index_pointers(home) -> list[dict]:
    """The problems of a folder, FIFO, socket or device in the place of an index's pointer
    (the keyword index's `.carto/search/CURRENT`, the semantic index's
    `.carto/vectors/manifest.json`: `logio.notafile.POINTERS`). Looked at, never opened."""
    from carto_core.logio.notafile import POINTERS, pointer_path, pointer_problem

    found = (pointer_problem(pointer_path(home, index), index) for index in POINTERS)
    return [problem for problem in found if problem]


def doctor_document(*, probe_hooks: bool = True) -> dict:
    from carto_core.model.config import ConfigError, load_config
    from carto_core.logio.home import Home, current_home
    from carto_core.logio.logs import SEARCHED_LOGS, SIDE_LOGS
    from carto_core.model.project import ProjectRegistry, RegistryError
    from carto_core.plugin.registries import block_hint, uninstall_command
    from carto_core.plugin.registry import get_registries

    problems: list[dict] = []
    cfg = None
    try:
        cfg = load_config()
        home = cfg.home
    except ConfigError as exc:
        problems.append({"problem": str(exc), "fix": "correct the TOML syntax or remove the file"})
        home = current_home()
    else:
        from carto_core.cli.config_cmd import setting_problems

        for bad in setting_problems(cfg):
            where = bad["origin"] if bad["origin"] != "config file" else str(cfg.path)
            problems.append({"problem": f"{bad['key']} = {bad['value']!r} in {where} is not accepted",
                             "fix": f"set it to {bad['accepted']} (`carto config` shows every setting)"})
    home = Home(home.root)
    logs = []
    from carto_core.logio.homefaults import home_refusal

    refused = home_refusal(home.root)  # a file, or a folder this user cannot read
    if refused:
        problems.append({"problem": refused[0], "fix": refused[1]})
    elif not home.root.is_dir():
        from carto_core.cli.homeguard import HOW_TO_MAKE_ONE

        problems.append({"problem": f"no carto home at {home.root} (the folder does not exist: nothing has been recorded there)",
                         "fix": HOW_TO_MAKE_ONE})
    from carto_core.util import progress

    kept = _kept_health(home) if not refused and home.root.is_dir() else None
    found = dict(kept or {})
    bar = None
    try:
        for label, name in {} if refused else {**SEARCHED_LOGS, **SIDE_LOGS}.items():
            # every row is read the first time (a large home takes a while), then only what
            # was appended since: stderr is told which log, one line for them all (a pipe
            # waits on the nine logs together)
            if bar is None:
                bar = progress.start(f"checking every row of {name}", "bytes")
            else:
                bar.say(f"checking every row of {name}")
            logs.append(_log_health(home.root / name, label, bar.step, kept))
    finally:
        if bar is not None:
            bar.close()
    import os
    import shlex

    from carto_core.logio.notafile import aside_command

    for health in logs:
        label, name = health["log"], {**SEARCHED_LOGS, **SIDE_LOGS}[health["log"]]
        if health["unreadable"]:
            path = home.root / name
            why = health["unreadable"]
            quoted = shlex.quote(os.fspath(path))
            fix = (f"`chmod 600 {quoted}` (carto reads and writes its logs as their owner)"
                   if why == "permission denied" else
                   f"`{aside_command(path)}` (carto writes this log there; look at what the "
                   "folder holds)" if why == "a folder, not a log file" else
                   f"`{aside_command(path)}` (carto writes this log there)"
                   if why.endswith("not a log file") else
                   f"point the link at the log (a disk to mount?) or remove it: `rm {quoted}` "
                   "(carto then starts a new log there)" if why.startswith("a symbolic link") else
                   "check the disk and the file system holding it")
            problems.append({"problem": f"{name} cannot be read: {health['unreadable']} ({path})",
                             "fix": fix})
        elif health["malformed"]:
            from carto_core.logio.reader import DROPPED_PROBLEMS

            # the reader keeps a few line numbers of each kind: "..." says there are more
            numbers = sorted(n for kind, found in (health["problem_lines"] or {}).items()
                             if kind in DROPPED_PROBLEMS for n in found)
            where = (", ".join(str(n) for n in numbers[:5])
                     + (", ..." if health["malformed"] > min(len(numbers), 5) else ""))
            problems.append({
                "problem": f"{name}: {counted(health['malformed'], 'unreadable line')} "
                           f"({', '.join(f'{k} {v}' for k, v in health['problems'].items())})",
                "fix": "`carto repair torn-rows --write` mends what it can (a row glued onto a "
                       "torn piece, a torn row another log holds whole, a torn row of a "
                       "transcript still on disk, read from it again; without --write it says "
                       "what it would do); a line it leaves cannot be read: delete it by hand "
                       f"({name} line{'s' * (len(numbers) != 1)} {where}); the rows around it "
                       "are intact. A torn last line may be a write in progress: run doctor again",
            })
        elif health["problems"]:
            fixes = []
            if "glued_row" in health["problems"]:  # the one kept problem a repair mends
                fixes.append("`carto repair torn-rows --write` splits a row glued onto a torn "
                             "piece onto its own line (without --write it says what it would do)")
            if set(health["problems"]) - {"glued_row"}:
                fixes.append(f"no action needed to search {'the other rows' if fixes else 'them'}; "
                             "a writer that omits event_id or writes non-UTF-8 bytes should be fixed")
            problems.append({
                "problem": f"{name}: rows kept with problems "
                           f"({', '.join(f'{k} {v}' for k, v in health['problems'].items())})",
                "fix": "; ".join(fixes),
            })
    if kept is not None and kept != found:
        _keep_health(home, kept)
    if home.root.is_dir() and not refused:
        problems.extend(_index_pointers(home))
    searched_rows = sum(h["rows"] for h in logs if h["log"] in SEARCHED_LOGS)
    if home.root.is_dir() and not refused and searched_rows == 0:
        # A problem only when something on disk could fill it: with nothing to backfill the
        # hooks fill it from the agent's next session on, and no command would help now.
        waiting = _backfillable()
        if waiting:
            problems.append({
                "problem": "the home holds no events yet, while " + ", ".join(waiting)
                           + " left history on disk",
                "fix": "`carto ingest --all` (backfills every source that finds something; "
                       "`carto demo` shows carto on sample data)",
            })
    from carto_core.logio.spill import pending

    spilled = pending(home.root)
    waiting = sum(item["entries"] for item in spilled)
    if waiting:
        problems.append({
            "problem": f"{counted(waiting, 'row')} the home refused (a full disk, a quota, a "
                       f"read-only or unwritable folder) {'waits' if waiting == 1 else 'wait'} in "
                       f"{counted(len(spilled), 'spill file')}: "
                       + ", ".join(item["path"] for item in spilled),
            "fix": "free space or make the home writable; the next hook that writes appends them, "
                   "or run `carto repair spill --write`",
        })
    from carto_core.repair import permissions as perms

    shared = perms.summary(perms.scan(home.root))
    if shared["open"]:
        kinds = ", ".join(counted(n, kind) for kind, n in sorted(shared["kinds"].items()))
        first = shared["examples"][0]
        # the scan's paths are relative to the home: "." is the home folder itself
        shown = (f"{home.root}, the home itself," if first["path"] == "."
                 else str(home.root / first["path"]))
        problems.append({
            "problem": f"other users can read the home: {kinds} "
                       f"{'grants' if shared['open'] == 1 else 'grant'} the group or others access "
                       f"(e.g. {shown} is {first['mode']})",
            "fix": "`carto repair permissions --write` (folders 0700, files 0600)",
        })
    registries = get_registries()
    plugins = []
    for name, info in sorted(registries.plugins.items()):
        plugins.append({"name": name, "version": info.version, "error": info.error,
                        "blocked": info.blocked})
        if info.error and info.taken_by is not None and info.distribution:
            # Neither reinstalling nor blocking its name (the plugin that holds it) resolves a
            # refused entry point: only one distribution fewer does.
            problems.append({
                "problem": f"plugin {name!r} failed to load: {info.error}",
                "fix": f"{uninstall_command(info.distribution)} (the distribution refused; "
                       f"{info.taken_by} keeps the name {info.name!r})",
            })
        elif info.error:
            cause = ("correct the hook's name in the plugin (an update of its distribution, "
                     f"{info.distribution})" if info.error.startswith("unknown hook")
                     else f"reinstall its distribution ({info.distribution})")
            problems.append({
                "problem": f"plugin {name!r} failed to load: {info.error}",
                "fix": f"{cause} {block_hint(name)}",
            })
    for problem in registries.problems:
        problems.append({"problem": problem, "fix": registries.fixes.get(
            problem, "update or uninstall the plugin named, or block it with CARTO_DISABLE_PLUGINS")})
    writer_errors = _writer_errors(home, registries, problems)
    from carto_core.cli.plugins_cmd import unknown_disabled

    for name in unknown_disabled(registries):
        problems.append({"problem": f"CARTO_DISABLE_PLUGINS names {name}, which is no installed "
                                    "plugin or live-capture provider: it blocks nothing",
                         "fix": "spell it as `carto plugins` lists it: "
                                + ", ".join(sorted(registries.plugins))})
    from carto_core.privacy.redact import plugin_patterns

    for problem in plugin_patterns()[1]:
        problems.append({"problem": f"redaction pattern left out: {problem}",
                         "fix": "correct the plugin's carto.redact table ((kind, regex) pairs that compile) "
                                "or block the plugin with CARTO_DISABLE_PLUGINS"})
    from carto_core.install.checks import hook_report

    hooks = hook_report(registries, run_probes=probe_hooks)
    problems.extend(hooks["problems"])
    semantic = _semantic_report(home, registries, problems, cfg)
    from carto_core.capture.keepup import LOG as KEEPUP_LOG
    from carto_core.jobs.budget import summary as keepup_budget

    keep_up = keepup_budget(home.state / KEEPUP_LOG)
    from carto_core.search.lite import recall_report

    prompt_recall = recall_report(registries, cfg) if cfg is not None else None
    try:
        registry = ProjectRegistry.load()
        families = {"path": registry.path, "families": len(registry.aliases)}
    except RegistryError as exc:
        families = {"path": None, "families": 0}
        problems.append({"problem": str(exc), "fix": 'write {"aliases": {"family": ["repo"]}}'})
    from carto_core.logio.home import config_file
    from carto_core.privacy.exclude import load as exclusion

    rule = exclusion()
    control = {"tombstones": 0, "forget_pending": False}
    if home.root.is_dir() and not refused:
        from carto_core.control.forget import pending as forget_pending
        from carto_core.logio.notafile import tombstones_refusal
        from carto_core.logio.tombstone import count as tombstones
        from carto_core.logio.tombstone import path_of as tombstones_path

        control = {"tombstones": tombstones(home), "forget_pending": forget_pending(home)}
        refusal = tombstones_refusal(tombstones_path(home))
        if refusal is not None:
            problems.append({"problem": refusal.problem, "fix": refusal.fix})
        if control["forget_pending"]:
            problems.append({"problem": "a forget was interrupted: part of what it takes out is "
                                        "still in the home",
                             "fix": "`carto forget --resume` (any carto command that reads the "
                                    "home finishes it too)"})
    copies = _copies(home, problems) if home.root.is_dir() and not refused else \
        {"replaced_homes": [], "backups": [], "last_forget": None}
    return {
        "home": str(home.root),
        "home_exists": home.root.is_dir(),
        "home_refused": refused[0] if refused else None,
        "exclude": {"projects": list(rule.projects), "paths": list(rule.paths),
                    "config": str(config_file()), "everything": rule.unreadable},
        **control,
        "copies": copies,
        "logs": logs,
        "hooks": {key: hooks[key] for key in ("files", "checked", "probes")},
        "events": searched_rows,
        "spill": spilled,
        "permissions": shared,
        "plugins": plugins,
        "writer_errors": writer_errors,
        "semantic": semantic,
        "keep_up": keep_up,
        "prompt_recall": prompt_recall,
        "project_registry": families,
        "problems": problems,
        "ok": not problems,
    }


def _copies(home, problems: list[dict]) -> dict:
    """The copies carto made of the home (`control.copies.inventory`), each with the command
    that removes it; the ones that may hold what a forget took out are problems: "forgot N
    events" must not read as "no copy is left"."""
    import shlex
    import time

    from carto_core.control.copies import inventory
    from carto_core.util.terminal import size

    found = inventory(home)
    now = time.time()
    for entry in found["replaced_homes"]:
        entry["age_s"] = None if entry["kept_at"] is None else round(now - entry["kept_at"])
        entry["remove"] = f"rm -r {shlex.quote(entry['path'])}"
        if entry["unburied"]:
            problems.append({
                "problem": f"the home a restore kept at {entry['path']} ({size(entry['bytes'])}) may "
                           f"still hold {counted(entry['unburied'], 'event')} this home forgot since "
                           "(a forget here does not reach it)",
                "fix": "`carto forget --in-replaced --write` takes them out there too (a search "
                       "query holding a forgotten text but naming no event, by that forget's own "
                       "criteria with --in-replaced); or delete it (carto reads nothing from it): "
                       f"`{entry['remove']}`",
            })
    for entry in found["backups"]:
        entry["age_s"] = None if entry["taken_at"] is None else round(now - entry["taken_at"])
        entry["remove"] = f"rm {shlex.quote(entry['path'])}"
        if entry["before_last_forget"]:
            when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(found["last_forget"]))
            problems.append({
                "problem": f"backup {entry['path']} was taken before the last forget ({when}) and may "
                           "still hold what it took out (a backup is never edited)",
                "fix": f"delete it: `{entry['remove']}`; `carto backup` takes a new one without it",
            })
    return found


def _echo_copies(copies: dict) -> None:
    from carto_core.util.terminal import ago, size

    homes, backups = copies["replaced_homes"], copies["backups"]
    if not homes and not backups:
        return
    click.echo("copies carto made of this home (a forget here does not reach them):")
    for entry in homes:
        age = "" if entry["age_s"] is None else f"kept {ago(entry['age_s'])}, "
        held = (f"; may hold {counted(entry['unburied'], 'event')} forgotten since"
                if entry["unburied"] else "")
        click.echo(f"  replaced home {entry['path']}  {age}{size(entry['bytes'])}{held}")
        click.echo(f"      remove: {entry['remove']}")
    for entry in backups:
        age = "" if entry["age_s"] is None else f"taken {ago(entry['age_s'])}, "
        sealed = ", sealed" if entry["sealed"] else ""
        held = "; taken before the last forget" if entry["before_last_forget"] else ""
        click.echo(f"  backup {entry['path']}  {age}{size(entry['bytes'])}{sealed}{held}")
        click.echo(f"      remove: {entry['remove']}")


def _writer_errors(home, registries, problems: list[dict]) -> dict:
    """The derived writers' failures during ingest not repaired yet (`.carto/writer-errors.jsonl`,
    `carto_core.ingest.writer_errors`): a problem for each writer still installed (one that is
    not could not write its rows anyway)."""
    from carto_core.ingest.writer_errors import path, pending

    found = pending(home) if home.root.is_dir() else {}
    writers = []
    for name, entry in sorted(found.items()):
        rows = sum(len(ids) for ids in entry["logs"].values())
        item = {"writer": name, "failures": entry["failures"], "rows": rows,
                "unknown_rows": entry["unknown_rows"], "last_error": entry["last_error"],
                "last_timestamp": entry["last_timestamp"], "installed": name in registries.writers}
        writers.append(item)
        if not item["installed"]:
            continue
        missing = (f"{counted(rows, 'row')} in the logs {'is' if rows == 1 else 'are'} missing "
                   "from what it writes" if rows else "the rows it missed are not named (an older carto)")
        problems.append({
            "problem": f"derived writer {name!r} failed {counted(entry['failures'], 'time')} during "
                       f"ingest, last at {entry['last_timestamp']}: {entry['last_error']}; {missing}",
            "fix": "`carto repair writers --write` once what made it fail is mended (it hands those "
                   "rows to the writer again; a writer that fails again keeps its failures)",
        })
    return {"path": str(path(home)), "writers": writers,
            "ok": not any(item["installed"] for item in writers)}


def _backfillable() -> list[str]:
    """The sources whose backfill finds something to read where it looks by default."""
    from carto_core.cli.ingest_cmd import backfill_sources
    from carto_core.model.config import ConfigError

    try:
        sources = backfill_sources()
    except ConfigError:  # the sources' options are in it: named among the problems already
        return []
    found = []
    for name, source in sources:
        try:
            if any(_holds_something(source, stream) for stream in source.discover()):
                found.append(name)
        except Exception:  # a source that cannot look is not this check's problem
            continue
    return found


def _holds_something(source, stream) -> bool:
    """A file of some size counts; a stream without one (claude-memory's CLAUDE.md stream,
    offered whether or not a CLAUDE.md exists; its auto-memory folder, there as soon as Claude
    Code has run; a git repository) only when reading it finds a unit, else the fix
    `carto ingest --all` would read nothing and the problem would stay."""
    if stream.size is not None:
        return stream.size > 0
    batch = source.read(stream, None)
    return bool(batch.units or batch.rows)


def _semantic_report(home, registries, problems: list[dict], cfg=None) -> dict:
    """Which embedder the semantic ladder uses (and why, when it stands in for the configured
    one), and whether it can answer. A model refused for its checksum is a problem; a home
    not indexed yet is not (the keep-up job embeds it)."""
    from carto_core.semantic.embedder import EmbedderRefused, create_embedder, unknown_embedder_fix
    from carto_core.semantic.settings import SemanticSettings

    if cfg is None:  # the config file cannot be read: named once among the problems already
        return {"enabled": None, "configured": None, "embedder": None, "note": None,
                "state": "unknown", "reason": "the config file cannot be read",
                "fix": "correct the config file (above)"}
    settings = SemanticSettings.load(cfg)
    out = {"enabled": settings.enabled, "configured": settings.embedder, "embedder": None,
           "note": None, "state": "disabled" if not settings.enabled else "unavailable",
           "reason": "", "fix": ""}
    if not settings.enabled:
        return out
    try:
        embedder = create_embedder(settings.embedder, home, settings, registries)
    except LookupError as exc:
        out.update(reason=str(exc), fix=unknown_embedder_fix(registries))
        return out
    out.update(embedder=embedder.name, note=embedder.note or None)
    try:
        embedder.check()
    except EmbedderRefused as exc:
        out.update(reason=str(exc), fix=exc.fix)
        problems.append({"problem": f"semantic ladder: {exc}", "fix": exc.fix})
        return out
    except Exception as exc:  # an embedder that cannot answer: said, not a home problem
        out.update(reason=str(exc), fix=getattr(exc, "fix", ""))
        return out
    out["state"] = "available"
    return out


def _echo_keep_up(keep_up: dict | None) -> None:
    if keep_up is None:
        click.echo("keep-up: no run logged yet")
        return
    last = keep_up["last"]
    cost = (f", {last['cpu_s']} s CPU, {last['peak_rss_mb']:.0f} MB peak"
            if last.get("cpu_s") is not None and last.get("peak_rss_mb") is not None else "")
    policy = (f" (nice {last['nice']}, {last['threads']} thread{'s' if last['threads'] != 1 else ''})"
              if last.get("threads") else "")
    click.echo(f"keep-up: last run {last.get('timestamp', '?')} {last.get('outcome', '?')}, "
               f"{last.get('embedded', 0)} embedded{cost}{policy}")
    if keep_up["runs"]:
        cpu, rss = keep_up["cpu_s"], keep_up["peak_rss_mb"]
        click.echo(f"  last {keep_up['runs']} runs: CPU median {cpu['median']} s, max {cpu['max']} s; "
                   f"peak RSS median {rss['median']:.0f} MB, max {rss['max']:.0f} MB")


#: What `carto doctor --fix` answers: doctor only reports, and each fix is another command.
NO_FIX = ("doctor does not fix: each problem it reports names its fix, most a `carto repair` command "
          "(`carto repair --help`; each a dry run unless --write), others `carto install`, "
          "`carto ingest --all` or `carto forget --resume`; "
          "`carto doctor --json | jq '.problems[].fix'` lists them")


def _no_fix(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    # A flag people reach for, refused as an unknown flag is (exit 2) but with the way on.
    if value:
        usage_error(NO_FIX)


@click.command(
    cls=JsonErrorCommand,
    epilog="""\b
Examples:
  carto doctor                                  each log, each hook, each plugin, each problem with its fix
  carto doctor --json | jq '.problems[].fix'    only the fixes
  carto doctor --no-probe                       list the installed hooks without running them
  carto doctor || echo "something to fix"       exit 1 when a problem was found
  carto doctor --secrets                        credentials stored in the home, per log and kind"""
)
@click.option("--secrets", is_flag=True,
              help="Scan every file under the home, .carto/ included, for stored credentials (counts "
                   "per file and kind, never the values); `carto repair redact --write` replaces them.")
@click.option("--no-probe", "no_probe", is_flag=True,
              help="Do not run the installed hook commands (they run against a scratch home).")
@click.option("--fix", is_flag=True, hidden=True, expose_value=False, callback=_no_fix)
@json_option
def doctor(secrets: bool, no_probe: bool, as_json: bool) -> None:
    """Check the home: every log's rows, bad lines and newest event; rows waiting in the hook's
    spill file; files and folders of the home other users can read; the copies carto made of it
    (homes a restore kept, backups) and whether one may hold what a later forget took out; the
    agents' hooks; plugins.

    The first run reads every row; later runs read what was appended since (kept in
    <home>/.carto/doctor-logs.json: counts and line numbers, no row text).

    Each installed carto hook runs the way the agent runs it (/bin/sh -c, PATH=/usr/bin:/bin,
    HOME, no virtual environment) with a probe payload against a scratch home, and is reported
    as firing or silent with the reason and the fix; no hooks installed at all, and Codex hooks
    Codex will skip as untrusted, are problems too.

    Exits 0 when nothing is wrong, 1 when a problem was found (each comes with its fix), 3 when
    the home does not exist (after the report).
    """
    if secrets:
        _secrets_report(as_json)
    document = doctor_document(probe_hooks=not no_probe)
    if as_json:
        emit_json(document)
    else:
        state = ("  (cannot be used: see problems)" if document["home_refused"] else ""
                 if document["home_exists"] else "  (does not exist)")
        click.echo(f"home: {document['home']}{state}")
        for log in document["logs"]:
            if log["unreadable"]:
                click.echo(f"  {log['log']:15} cannot be read: {log['unreadable']}")
                continue
            if not log["exists"]:
                click.echo(f"  {log['log']:15} (absent)")
                continue
            bad = f", {log['malformed']} unreadable" if log["malformed"] else ""
            newest = log["newest_timestamp"] or "-"
            rows = "row " if log["rows"] == 1 else "rows"  # "row " keeps the column of "newest"
            click.echo(f"  {log['log']:15} {log['rows']:>9} {rows}{bad}  newest {newest}")
            for message in log["messages"]:
                click.echo(f"      {message}")
        for item in document["spill"]:
            held = f" (claimed by pid {item['claimed_by']}{', gone' if item['orphaned'] else ''})" if item["claimed_by"] else ""
            rows = "row " if item["entries"] == 1 else "rows"
            click.echo(f"  spill           {item['entries']:>9} {rows} waiting  {item['path']}{held}")
        excluded = ([f"project {p}" for p in document["exclude"]["projects"]]
                    + [f"path {p}" for p in document["exclude"]["paths"]])
        if document["exclude"]["everything"]:
            click.echo("never recorded: everything, until the config file can be read (it names "
                       "[capture] exclude: what it keeps out is unknown)")
        elif excluded:
            click.echo(f"never recorded: {', '.join(excluded)}  ([capture] exclude in "
                       f"{document['exclude']['config']})")
        else:
            click.echo("never recorded: nothing excluded ([capture] exclude in the config file "
                       "names projects and folders no hook or ingest records)")
        if document["tombstones"]:
            click.echo(f"forgotten: {counted(document['tombstones'], 'event')} (their tombstones keep "
                       "backfills and hooks from writing them back)")
        _echo_copies(document["copies"])
        _echo_hooks(document["hooks"])
        failed = [p for p in document["plugins"] if p["error"]]
        click.echo(f"plugins: {len(document['plugins'])} ({len(failed)} failed)")
        for item in document["writer_errors"]["writers"]:
            gone = "" if item["installed"] else " (not installed: nothing to repair)"
            click.echo(f"  writer {item['writer']}: {counted(item['failures'], 'failed write')} not "
                       f"repaired, {counted(item['rows'], 'row')}, last {item['last_timestamp']}{gone}")
        sem = document["semantic"]
        line = f"semantic: {sem['embedder'] or sem['configured'] or 'not known'} ({sem['state']}"
        line += f": {sem['reason']})" if sem["reason"] else ")"
        click.echo(line)
        if sem["note"]:
            click.echo(f"  note: {sem['note']}")
        _echo_keep_up(document["keep_up"])
        recall = document["prompt_recall"]
        if recall is None:  # its settings are in the config file, which cannot be read
            click.echo("prompt recall: not known (the config file cannot be read)")
            recall = {"left_out": {}}
        else:
            click.echo(f"prompt recall: {', '.join(recall['rankers']) or 'no ranker'} with "
                       f"{recall['fusion']}" + ("" if recall["fusion_ok"] else f" (cannot run: {recall['fusion_reason']})"))
        for name, reason in recall["left_out"].items():
            click.echo(f"  left out: {name} ({reason})")
        if document["problems"]:
            click.echo("problems:")
            # Problems in a row that share a fix (every hook of a moved environment) get it once.
            items = document["problems"]
            start = 0
            while start < len(items):
                end = start + 1
                while end < len(items) and items[end]["fix"] == items[start]["fix"]:
                    end += 1
                for item in items[start:end]:
                    click.echo(f"  - {item['problem']}")
                which = f" (the {end - start} above)" if end - start > 1 else ""
                click.echo(f"    fix{which}: {items[start]['fix']}")
                start = end
        else:
            click.echo("no problems found")
    if not document["home_exists"] and not document["home_refused"]:
        from carto_core.cli.homeguard import missing_home_message

        click.echo(f"carto: {missing_home_message(document['home'])}", err=True)
        raise SystemExit(int(ExitCode.NOT_FOUND))
    raise SystemExit(int(ExitCode.OK if document["ok"] else ExitCode.ERROR))


def _secrets_report(as_json: bool) -> None:
    """`carto doctor --secrets`: the dry run of `carto repair redact`, as a health check."""
    from carto_core.model.config import load_config
    from carto_core.repair.redact import RedactSecrets, redact_home

    home = load_config().home
    skipped, leave_out = [], {}
    if home.root.is_dir():
        from carto_core.cli.logskips import skip_unreadable
        from carto_core.model.corpus import unreadable_logs

        skipped = skip_unreadable(home, RedactSecrets.labels, "its rows are not scanned for credentials")
        leave_out = unreadable_logs(home, RedactSecrets.labels) if skipped else {}
    document = redact_home(home, write=False, leave_out=leave_out) if home.root.is_dir() else {
        "home": str(home.root), "secrets": 0, "rows": 0, "logs": {}, "caches": {"holding": [], "removed": []}}
    report = {
        "home": str(home.root), "secrets": document["secrets"], "rows": document["rows"],
        "logs": {label: {k: v for k, v in counts.items() if k not in ("fixed", "would_fix")}
                 for label, counts in document["logs"].items() if counts.get("secrets")},
        "caches_holding": document["caches"]["holding"],
        "examples": document.get("examples", []),
        "fix": "carto repair redact --write" if document["secrets"] else None,
        "ok": not document["secrets"],
        **({"skipped_files": skipped} if skipped else {}),
    }
    if as_json:
        emit_json(report)
    else:
        click.echo(f"home: {report['home']}")
        for label, counts in report["logs"].items():
            kinds = ", ".join(f"{k} {v}" for k, v in sorted(counts.items()) if k not in ("secrets", "rows"))
            unit = "line" if label.startswith(".carto/") else "row"
            click.echo(f"  {label}: {counted(counts['secrets'], 'credential')} in {counted(counts['rows'], unit)} ({kinds})")
        for name in report["caches_holding"]:
            click.echo(f"  cache holding a credential: {name}")
        if report["secrets"]:
            click.echo(f"{counted(report['secrets'], 'stored credential')} in {counted(report['rows'], 'row')}; "
                       "fix: carto repair redact --write")
        else:
            click.echo("no stored credentials found")
    raise SystemExit(int(ExitCode.OK if report["ok"] else ExitCode.ERROR))


def _echo_hooks(hooks: dict) -> None:
    if not hooks["files"]:
        click.echo("hooks: none installed")
        return
    click.echo("hooks:")
    for item in hooks["files"]:
        probes = [p for p in hooks["probes"] if p["provider"] == item["provider"]]
        firing = sum(1 for p in probes if p["fires"])
        count = item["handlers"]
        head = f"  {item['provider']:8} {counted(count, 'hook')} in {item['path']}"
        if not probes:
            verdict = " (not run: --no-probe)"
        elif firing == len(probes):
            verdict = f": {_each(len(probes))} ran and recorded"
        else:
            verdict = f": {firing} of {len(probes)} commands ran and recorded; the others stay silent:"
        click.echo(head + verdict)
        for result in probes:
            if not result["fires"]:
                click.echo(f"      {result['event']}: {result['reason']}")


def _each(commands: int) -> str:
    """The probes' count, in words: a hook file's handlers often share one command line."""
    return "its one command" if commands == 1 else f"each of its {commands} distinct commands"
