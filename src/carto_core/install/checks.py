"""`carto doctor`'s hook checks: which agents run carto's hooks, and whether each one fires.

For every registered source that names hook files (`Source.hook_files`), each existing file is
read and carto's handlers of that provider found (under any launcher); every distinct command is
run the way the agent runs it (`install.probe`: `/bin/sh -c`, `PATH=/usr/bin:/bin`, HOME, a probe
payload, a scratch home) and reported as firing or silent with the reason and the fix. The source
adds what is its own (`Source.hook_problems`: Codex's trust). Problems:

- no hooks installed anywhere (live capture is off: only backfill fills the home);
- a hook installed but silent (a moved environment, a removed plugin, a broken launcher);
- whatever the source reports (untrusted Codex handlers).

The probes never touch the user's home: each runs against its own temporary HOME.
"""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from carto_core.install.hooksfile import InstallError, carto_handlers, load_settings
from carto_core.install.probe import probe

PROBE_WORKERS = 4
PROBE_TIMEOUT = 15.0


def _sources(registries) -> list:
    from carto_core.model.sources import Source

    out = []
    for name, cls in registries.sources.items():
        if getattr(cls, "hook_files", None) is Source.hook_files:
            continue  # no live-capture hooks to check (and some sources need options to exist)
        try:
            source = cls({})
            files = source.hook_files()
        except Exception as exc:  # a broken plugin must not break the doctor
            out.append((name, None, [], f"{type(exc).__name__}: {exc}"))
            continue
        if files:
            out.append((name, source, files, None))
    return out


def hook_report(registries, *, run_probes: bool = True) -> dict:
    """`{"files": [...], "probes": [...], "problems": [...]}` for the doctor document."""
    files, problems, jobs = [], [], []
    checked = []
    for name, source, paths, error in _sources(registries):
        if error:
            problems.append({"problem": f"source {name!r} cannot list its hook files: {error}",
                             "fix": "reinstall or block that plugin"})
            continue
        for path in dict.fromkeys(Path(p) for p in paths):
            checked.append(str(path))
            if not path.is_file():
                continue
            try:
                settings = load_settings(path)
            except InstallError as exc:
                problems.append({"problem": str(exc), "fix": "fix the file; the agent cannot read it either"})
                continue
            handlers = carto_handlers(settings, source.provider)
            if not handlers:
                continue
            files.append({"provider": source.provider, "path": str(path), "handlers": len(handlers),
                          "events": sorted({h["event"] for h in handlers})})
            for handler in handlers:
                jobs.append((source.provider, handler["event"], handler["handler"].get("command", ""),
                             handler["handler"].get("timeout")))
            problems.extend(source.hook_problems(path, settings))
    if not files:
        problems.insert(0, {
            "problem": "no hooks installed: no agent runs carto's live capture (checked "
                       + ", ".join(checked or ["no hook files"]) + ")",
            "fix": "`carto install claude` (Claude Code) or `carto install codex` (Codex), so what "
                   "agents do is recorded as they do it (`carto ingest` only backfills)"})
    probes = []
    if run_probes and jobs:
        distinct = list(dict.fromkeys((p, e, c) for p, e, c, _ in jobs))
        timeouts = {(p, e, c): t for p, e, c, t in jobs}

        def run(job):
            # At least PROBE_TIMEOUT: a loaded machine must not turn a working hook "silent".
            limit = timeouts.get(job)
            limit = float(limit) if isinstance(limit, (int, float)) else 0.0
            return probe(*job, timeout=max(limit, PROBE_TIMEOUT))

        with ThreadPoolExecutor(max_workers=PROBE_WORKERS) as pool:
            probes = list(pool.map(run, distinct))
        for result in probes:
            if not result["fires"]:
                problems.append({
                    "problem": f"{result['provider']} {result['event']} hook installed but silent: "
                               f"{result['reason']} (command: {result['command']})",
                    "fix": result["fix"]})
    return {"files": files, "checked": checked, "probes": probes, "problems": problems}
