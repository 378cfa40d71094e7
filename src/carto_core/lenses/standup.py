"""`carto standup`: who is working on what right now, and where they collide.

Reads the changelog tail in the window (it is the union of every hook's rows) and folds it by
resolved session id (reference section 5.1). Sections:

- sessions: provider, projects, idle time, span, events, commits and pushes, liveness (`●` when
  the last event is within `--live`, never a claim that the agent is running);
- CONTENTION: projects two sessions both touched (folder names that are no project excluded) and
  files two sessions both edited or committed, worktree paths collapsed onto the main checkout
  (`carto_core.capture.collision.contention_key`, the same rule the PreToolUse note uses); a
  session and its own sub-agent threads are one piece of work, named by the session that spawned
  them, their sub-agents beside it (`collision.work_of` over the turn rows' `parent_session`, the
  link the session tree hangs a Codex thread by, the note's rule too);
- SILENT: Codex rollouts written in the window by sessions that logged no event (hooks untrusted
  or not installed), and `codex_hook_trust`: what local files say about carto's Codex hooks
  (configured where, turned off by `[features]`, trusted in Codex's config.toml as the Codex
  source reads it for `carto doctor`, fired for a Codex session of the window, the silent-session
  symptom);
- UNCLAIMED: tracked files changed in the window that no logged session edited, each with the
  Codex sessions whose transcripts of the window name it (`mentioned_by`: mentions, unlogged);
- NOT COUNTED: edit rows whose paths could not be placed, rows without a session, worktrees that
  could not be mapped.

`standup(...)` returns the JSON document; the click command renders it. Read-only.
"""

from __future__ import annotations

import os
import subprocess
from datetime import datetime, timedelta, timezone
from pathlib import Path

from carto_core.capture.collision import (
    THREAD_DEPTH, contention_key, event_files, tail_lines, thread_parents, work_of,
)
from carto_core.model.events import Event
from carto_core.logio.jsonl import loads_line
from carto_core.model.project import find_git, is_project_name
from carto_core.model.session import current_session_id
from carto_core.util.terminal import counted, duration
from carto_core.util.timeparse import format_timestamp, parse_when

MAX_UNCLAIMED = 50


def _ms(delta: timedelta) -> int:
    return int(delta.total_seconds() * 1000)


#: The logs a standup folds (`home_window`): what it names when one cannot be read.
STANDUP_LOGS = ("changelog", "turns")


def window_rows(home, since: datetime, now: datetime) -> list[Event]:
    """Changelog events with since <= time <= now (undated rows dropped: a window is active)."""
    from carto_core.logio.reader import unreadable

    out = []
    if unreadable(home.log("changelog")):
        return out  # left out (`carto standup` names it); not waited on, if a FIFO
    for line in tail_lines(str(home.log("changelog")), None, since):
        row, problem = loads_line(line)
        if problem == "malformed_json" or not isinstance(row, dict):
            continue
        event = Event.from_row(row, "changelog")
        if event.timestamp is None or event.timestamp < since or event.timestamp > now + timedelta(minutes=5):
            continue
        out.append(event)
    out.sort(key=lambda e: e.timestamp)
    return out


def _codex_rollouts_since(since: datetime) -> list[dict]:
    """Codex rollouts written in the window: [{id, transcript_written, transcript_path}]."""
    from carto_core.transcript.resolver import TranscriptRoots, codex_rollouts, session_id_from_path

    out = []
    try:
        for path in codex_rollouts(TranscriptRoots.default().codex):
            try:
                written = datetime.fromtimestamp(os.path.getmtime(path), tz=timezone.utc)
            except OSError:
                continue
            sid = session_id_from_path(path)
            if written < since or not sid:
                continue
            # A rollout copied or restored just now has a new mtime and old records: when its
            # last record tells the time, that is when the session was active.
            last = _last_record_time(path)
            if last is not None:
                if last < since:
                    continue
                written = min(written, last)
            out.append({"id": sid, "transcript_written": format_timestamp(written),
                        "transcript_path": str(path)})
    except OSError:
        pass
    out.sort(key=lambda item: item["transcript_written"], reverse=True)
    return out


ROLLOUT_TAIL_BYTES = 65536


def _last_record_time(path) -> datetime | None:
    """The newest `timestamp` among a rollout's last records, or None when none tells one."""
    from carto_core.capture.tail import tail_rows
    from carto_core.util.timeparse import parse_timestamp

    times = [parse_timestamp(row.get("timestamp")) for row in tail_rows(path, ROLLOUT_TAIL_BYTES)]
    times = [t for t in times if t is not None]
    return max(times) if times else None


def _silent_codex(logged: set[str], rollouts: list[dict]) -> list[dict]:
    return [item for item in rollouts if item["id"] not in logged]


def _not_forgotten(home, silent: list[dict], held) -> list[dict]:
    """The silent sessions less those `carto forget` took out whole: its transcript is still
    on disk, but its first turn's id is buried and the home holds no row of it."""
    from carto_core.logio.tombstone import TombstoneSet

    try:
        buried = TombstoneSet.of(home)
    except (OSError, ValueError):
        return silent
    if not buried:
        return silent
    return [item for item in silent
            if item["id"] in held or f"turn-codex-{item['id']}-1" not in buried]


CODEX_HOOK_MARK = "carto hook codex"


def codex_hook_trust(silent: list[dict], repos: set[str], env=None, fired=()) -> dict:
    """What local files say about Codex running carto's hooks (never null).

    Codex skips a non-managed hook it has not trusted, silently, and keeps that trust per hook
    file and hash in its config.toml (`[hooks.state."<file>:<event>:<group>:<handler>"]
    trusted_hash`, which `carto install codex --trust` writes). Read here: whether a carto hook
    is configured (`hooks.json` / `config.toml` of each Codex home and of the repositories in the
    window), whether `[features]` turns hooks off, the trust of carto's handlers in those
    `hooks.json` as the installed Codex source checks it for `carto doctor` (`trusted` /
    `untrusted`, `trust_known: true`), and whether Codex sessions wrote transcripts in the
    window without logging an event (the symptom of untrusted or failing hooks). Without a Codex
    source to ask, trust is not claimed (`trust_known: false`). `fired`: the Codex sessions of
    this machine whose hook rows are in the window: Codex ran carto's hooks for them, so a
    missing trust record makes them `fired`, never `untrusted` (a run that bypasses hook trust
    runs hooks no trust was recorded for).
    """
    import tomllib

    from carto_core.transcript.resolver import TranscriptRoots

    homes = list(TranscriptRoots.default(env).codex)
    places = homes + [Path(repo) / ".codex" for repo in sorted(repos)]
    hook_files: list[str] = []
    disabled: list[str] = []
    for base in places:
        for name in ("hooks.json", "config.toml"):
            path = Path(base) / name
            try:
                text = path.read_text("utf-8", errors="replace")
            except OSError:
                continue
            if CODEX_HOOK_MARK in text:
                hook_files.append(str(path))
            if name == "config.toml":
                try:
                    features = tomllib.loads(text).get("features") or {}
                except (tomllib.TOMLDecodeError, AttributeError):
                    features = {}
                if isinstance(features, dict) and (features.get("hooks") is False
                                                   or features.get("codex_hooks") is False):
                    disabled.append(str(path))
    # Only a session after carto's hooks were installed can say they do not run.
    from carto_core.util.install_ledger import first_written
    from carto_core.util.timeparse import parse_timestamp

    written = [t for t in (first_written(Path(p)) for p in hook_files) if t is not None]
    # to the second, as transcript_written is said: a session of that second counts
    installed = datetime.fromtimestamp(int(min(written)), timezone.utc) if written else None
    before = [item for item in silent if installed is not None
              and (parse_timestamp(item["transcript_written"]) or installed) < installed]
    silent_ids = [item["id"] for item in silent if item not in before]
    hooks_json = [p for p in hook_files if Path(p).name == "hooks.json"]
    problems = _trust_problems(hooks_json) if hook_files and not disabled else None
    known = problems is not None
    if not hook_files:
        state = "not_installed"
        reason = ("no carto hook in " + ", ".join(str(Path(p) / "hooks.json") for p in places)
                  + " (or config.toml): run `carto install codex`")
    elif disabled:
        state = "disabled"
        reason = "hooks are turned off by [features] in " + ", ".join(disabled)
    elif problems and fired:
        state = "fired"
        reason = (f"{_fired_said(fired)}, though its config.toml does not record them as trusted: "
                  + "; ".join(f"{item['problem']}; fix: {item['fix']}" for item in problems)
                  + _silent_said(silent_ids))
    elif problems:
        state = "untrusted"
        reason = "; ".join(f"{item['problem']}; fix: {item['fix']}" for item in problems)
    elif known:
        state = "trusted"
        reason = (f"carto's hooks in {', '.join(hooks_json)} are trusted in Codex's config.toml, "
                  "as Codex checks before it runs one")
        if silent_ids:
            reason += (f"; yet {counted(len(silent_ids), 'Codex session')} wrote a transcript in "
                       "the window after they were installed and logged no event: `carto doctor` "
                       "runs each hook and says why one is silent")
        elif before:
            reason += (f" ({counted(len(before), 'Codex session')} in the window "
                       f"{'is' if len(before) == 1 else 'are'} from before they were installed)")
    elif fired:
        state = "fired"
        reason = (f"{_fired_said(fired)}; their trust is not checked: no installed Codex source "
                  "reads it (`carto plugins`)" + _silent_said(silent_ids))
    elif silent_ids:
        state = "suspected_untrusted"
        reason = (f"carto hooks are configured, yet {len(silent_ids)} Codex session(s) wrote a "
                  "transcript in the window and logged no event; Codex skips hooks it has not "
                  "trusted without a word: approve them with /hooks in the Codex CLI")
    else:
        state = "unknown"
        reason = ("carto hooks are configured and no Codex session in the window was silent"
                  + (f" since they were installed ({len(before)} before)" if before else "")
                  + "; their trust is not checked: no installed Codex source reads it "
                  "(`carto plugins`)")
    return {"state": state, "trust_known": known, "reason": reason, "hook_files": hook_files,
            "disabled_by": disabled, "silent_sessions": silent_ids, "hooks_fired": sorted(fired),
            "installed_at": format_timestamp(installed) if installed else None}


def _fired_said(fired) -> str:
    return f"carto's hooks logged rows of {counted(len(fired), 'Codex session')} in the window, so Codex ran them"


def _silent_said(silent_ids: list[str]) -> str:
    """What the silent sessions add when hooks fired for others (a run that bypasses hook trust
    runs them, one that does not skips them)."""
    if not silent_ids:
        return ""
    return (f"; {counted(len(silent_ids), 'Codex session')} wrote a transcript in the window after "
            "they were installed and logged no event")


def _trust_problems(hook_files: list[str]) -> list[dict] | None:
    """What the Codex source says is wrong with the trust of carto's handlers in `hook_files`
    (`Source.hook_problems`, the check `carto doctor` reports: untrusted, changed since trusted,
    disabled), [] when nothing is; None when there is no file to ask about, no Codex source is
    installed, or the check itself failed (then nothing is claimed)."""
    import json

    from carto_core.plugin.registry import get_registries

    if not hook_files:
        return None
    try:
        cls = get_registries(hooks=("carto_register_sources",)).sources.get("codex")
        if cls is None:
            return None
        source = cls({})
        problems: list[dict] = []
        for path in hook_files:
            settings = json.loads(Path(path).read_text("utf-8"))
            problems.extend(source.hook_problems(Path(path), settings))
        return problems
    except Exception:  # a broken plugin or a hooks file Codex cannot read either: not claimed
        return None


def _mentions(paths: list[str], rollouts: list[dict], logged: set[str]) -> dict[str, list[dict]]:
    """path -> Codex sessions whose rollout (written in the window) names it, most first."""
    out: dict[str, list[dict]] = {path: [] for path in paths}
    if not paths:
        return out
    needles = {path: path.encode("utf-8") for path in paths}
    for item in rollouts:
        try:
            with open(item["transcript_path"], "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        for path, needle in needles.items():
            count = data.count(needle)
            if count:
                out[path].append({"id": item["id"], "provider": "codex", "mentions": count,
                                  "unlogged": item["id"] not in logged,
                                  "transcript_written": item["transcript_written"]})
    for entries in out.values():
        entries.sort(key=lambda entry: (-entry["mentions"], entry["id"]))
    return out


def _git(repo: str, *args: str) -> list[str]:
    try:
        done = subprocess.run(["git", "-C", repo, *args], capture_output=True, text=True,
                              timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return []
    return done.stdout.splitlines() if done.returncode == 0 else []


def _unclaimed(repos: set[str], claimed: set[str], bash_rows: list[Event], since: datetime,
               shorts: dict[str, str], rollouts: list[dict], logged: set[str]) -> list[dict]:
    out = []
    for repo in sorted(repos):
        for line in _git(repo, "status", "--porcelain=v1", "-uno", "-z")[:1]:
            for entry in line.split("\0"):
                if len(entry) < 4:
                    continue
                relative = entry[3:]
                path = os.path.join(repo, relative)
                try:
                    changed = datetime.fromtimestamp(os.path.getmtime(path), tz=timezone.utc)
                except OSError:
                    continue
                if changed < since or contention_key(path) in claimed:
                    continue
                named = sorted({shorts.get(e.session_id, e.session_id[:8]) for e in bash_rows
                                if relative in (e.summary or "") and e.has_session})
                out.append({"path": relative, "repo": repo, "changed": format_timestamp(changed),
                            "named_in_command": named, "mentioned_by": []})
    out.sort(key=lambda item: item["changed"], reverse=True)
    out = out[:MAX_UNCLAIMED]
    # Who talked about the file without logging an edit: Codex transcripts of the window that
    # name its path (a session whose hooks did not run still leaves its transcript).
    mentions = _mentions(sorted({item["path"] for item in out}), rollouts, logged)
    for item in out:
        item["mentioned_by"] = mentions[item["path"]]
    return out


def home_window(home, start: datetime, now: datetime) -> tuple[list[Event], list[Event]]:
    """What a standup folds from the home: the changelog rows of the window, and what ingest
    wrote in it (its turns, then its prompts): a session that logged no hook row is read from
    these, and one whose agent never ran a tool has only its prompt, as `carto sessions` lists it."""
    from carto_core.lenses.turnwork import window_prompts, window_turns

    until = now + timedelta(minutes=5)
    return window_rows(home, start, now), window_turns(home, start, until) + window_prompts(home, start, until)


def local_files(event: Event) -> list[tuple[str, str]]:
    """(contention key, path) of each file an edit or commit touched, on this machine: the
    main checkout's path (worktrees collapsed)."""
    return [(contention_key(path), path) for path in event_files(event.type, event.summary, event.cwd)]


def _thread_parents(home, held: dict, sessions, cols=None) -> dict[str, str]:
    """sub-agent thread -> the session that spawned it, for the window's sessions and, a level at
    a time, the parents they name (from their turn rows: the session tree's link). `cols`: the
    facts columns the caller opened (each level reads its sessions' rows through them)."""
    from carto_core.lenses.sessionfacts import sessions_events

    parents = thread_parents(e.row for sid, entry in sessions.items()
                             for e in held.get(sid) or entry["rows"] if e.source == "turns")
    looked = set(sessions)
    for _ in range(THREAD_DEPTH):
        wanted = sorted({p for p in parents.values() if p not in looked})
        if not wanted:
            break
        looked.update(wanted)
        more = sessions_events(home, wanted, cols)
        parents.update(thread_parents(e.row for rows in more.values() for e in rows if e.source == "turns"))
    return parents


def _works(touched: dict, parents: dict[str, str]) -> tuple[list[str], dict[str, list[str]]]:
    """The pieces of work among sessions that touched a thing (`touched`: session -> its last
    touch), each named by the session that spawned it (`work_of`), the latest touched first;
    and each work's sub-agents among them, the latest first."""
    last: dict[str, object] = {}
    sub_agents: dict[str, list[str]] = {}
    for sid, when in sorted(touched.items(), key=lambda kv: kv[1], reverse=True):
        work = work_of(sid, parents)
        last.setdefault(work, when)
        if work != sid:
            sub_agents.setdefault(work, []).append(sid)
    return list(last), sub_agents


def standup(home, *, since: str = "6h", project: str | None = None, live: str = "20m",
            me: str | None = None, now: datetime | None = None, scan_unclaimed: bool = True,
            scan_silent: bool = True, window: tuple[list[Event], list[Event]] | None = None,
            files_of=None, local_ids: set[str] | None = None, session_rows=None) -> dict:
    """The standup document (reference 5.1 JSON shape).

    `window` replaces what is folded ((changelog events, turns) of the window; default the
    home's, `home_window`), `files_of(event)` how an event's files are keyed (default
    `local_files`), `local_ids` names the events of this machine (the only ones whose folders
    are looked at for unclaimed changes) and `session_rows(ids)` gives every row of the
    sessions the home holds none of: the team's standup folds the home's and the team's
    events together through this same function."""
    now = now or datetime.now(timezone.utc)
    start = parse_when(since, now=now)
    live_cut = parse_when(live, now=now)
    self_id = me or current_session_id()
    files_of = files_of or local_files
    from carto_core.model.project import ProjectScope

    scope = ProjectScope.parse(project) if project else None
    events, turns = window if window is not None else home_window(home, start, now)
    # Sessions that logged no hook row in the window (a backfilled home; Codex with untrusted
    # hooks) are read from their turns: the turn and what its tool calls stand for.
    from carto_core.lenses.turnwork import hooked_sessions, is_own_row, with_turn_work

    hooked = hooked_sessions(events)
    # Codex ran carto's hooks for these (this machine's: another's trust is its own)
    fired = {e.session_id for e in events if e.provider == "codex" and e.session_id in hooked
             and (local_ids is None or e.event_id in local_ids)}
    events = with_turn_work(events, turns, hooked=hooked)
    events.sort(key=lambda e: e.timestamp)
    if scope is not None:
        events = [e for e in events if scope.matches(e.project)]
    sessions: dict[str, dict] = {}
    unattributed = 0
    edits_unresolved = 0
    files: dict[str, dict] = {}
    projects: dict[str, set] = {}
    repos: set[str] = set()
    claimed: set[str] = set()
    unmapped: set[str] = set()
    bash_rows: list[Event] = []
    for event in events:
        if event.cwd and (local_ids is None or event.event_id in local_ids):
            info = find_git(event.cwd) if os.path.isdir(event.cwd) else None
            if info is not None:
                repos.add(str(info.main_worktree))
        if not event.has_session:
            # a decision changed at a terminal is carto's own row, no work that lost its session
            unattributed += not is_own_row(event)
            continue
        sid = event.session_id
        entry = sessions.setdefault(sid, {
            "provider": event.provider or "unknown", "is_self": sid == self_id, "last": None,
            "rows": []})
        if not (isinstance(event.row, dict) and event.row.get("derived_from")):
            entry["rows"].append(event)
        # a wrapup written just now is no sign the session is at work
        if not is_own_row(event):
            entry["last"] = max(entry["last"] or event.timestamp, event.timestamp)
        if event.provider and entry["provider"] == "unknown":
            entry["provider"] = event.provider
        if event.has_project and is_project_name(event.project):
            projects.setdefault(event.project, set()).add(sid)
        if event.type == "tool_bash":
            bash_rows.append(event)
        if event.type in ("tool_file_edit", "git_commit"):
            paths = files_of(event)
            if event.type == "tool_file_edit" and not paths:
                edits_unresolved += 1
            for key, path in paths:
                claimed.add(key)
                if "/.codex/worktrees/" in key:
                    unmapped.add(key.split("/.codex/worktrees/", 1)[1].split("/", 2)[0])
                slot = files.setdefault(key, {"sessions": {}, "paths": set(), "last": event.timestamp})
                slot["sessions"][sid] = max(slot["sessions"].get(sid, event.timestamp), event.timestamp)
                slot["paths"].add(path)
                slot["last"] = max(slot["last"], event.timestamp)
    # A session active in the window is described whole, by the rule every lens shares
    # (`lenses.sessionfacts`): the same span, counts and commits as `carto sessions` and
    # `carto digest session` give it. A session the home holds no row of (another machine's,
    # in the team's standup) is described by its rows of the window.
    from carto_core.facts.store import facts_columns
    from carto_core.lenses.sessionfacts import session_facts, sessions_events
    from carto_core.lenses.sessions import short_ids
    from carto_core.lenses.sessionstore import session_ids
    from carto_core.model.events import is_resolved

    # opened once for the window's sessions and every level of their parents
    cols = facts_columns(home) if any(is_resolved(sid) for sid in sessions) else None
    # each id printed as `carto sessions` prints it, the home's sessions out of the window
    # counted too: pasted into `carto session`, it names this session (or, another machine's,
    # none of this home's) rather than one the standup leaves out
    shorts = short_ids(sorted(sessions), session_ids(cols) if cols is not None else ())
    held = sessions_events(home, sessions, cols)
    if session_rows is not None:
        held.update(session_rows([sid for sid in sessions if not held.get(sid)]))
    parents = _thread_parents(home, held, sessions, cols)
    roster = []
    for sid, entry in sessions.items():
        facts = session_facts(sid, held.get(sid) or entry["rows"])
        if facts.ended is None:
            continue
        last = max(facts.ended, entry["last"]) if entry["last"] else facts.ended
        roster.append({
            "id": sid,
            "short": shorts[sid],
            "provider": facts.provider or entry["provider"],
            "is_self": entry["is_self"],
            "live": last >= live_cut,
            "last_active": format_timestamp(last),
            "idle_ms": max(0, _ms(now - last)),
            "span_ms": facts.span_ms,
            "events": facts.events,
            "turns": facts.turns,
            "projects": facts.projects,
            "types": dict(facts.types.most_common()),
            "edits_unresolved": facts.files_unresolved,
            "commits": [{k: c[k] for k in ("sha", "subject", "type", "project")}
                        for c in facts.commits[::-1]],
            "pushes": facts.counts["pushes"],
            "evidence": facts.evidence,
            "parent_session": parents.get(sid),
        })
    roster.sort(key=lambda s: s["last_active"], reverse=True)
    contention_projects = []
    for name, sids in sorted(projects.items()):
        works, sub_agents = _works({sid: "" for sid in sorted(sids)}, parents)
        if len(works) > 1:
            contention_projects.append({"project": name, "sessions": sorted(works),
                                        **({"sub_agents": sub_agents} if sub_agents else {})})
    contention_files = []
    for key, slot in sorted(files.items(), key=lambda item: item[1]["last"], reverse=True):
        works, sub_agents = _works(slot["sessions"], parents)
        if len(works) < 2:
            continue
        contention_files.append({
            "path": key,
            "paths": sorted(slot["paths"]),
            "worktree_split": len(slot["paths"]) > 1,
            "sessions": works,
            **({"sub_agents": sub_agents} if sub_agents else {}),
            "last_touched": format_timestamp(slot["last"]),
        })
    rollouts = _codex_rollouts_since(start) if (scan_silent or scan_unclaimed) else []
    # Silent = no hook row: a Codex session whose turns were ingested is still one whose hooks
    # did not run.
    silent = _silent_codex(hooked, rollouts) if scan_silent else []
    if silent and home is not None:
        silent = _not_forgotten(home, silent, sessions)
    trust = (codex_hook_trust(silent, repos, fired=fired) if scan_silent else
             {"state": "not_checked", "trust_known": False, "reason": "silent scan turned off",
              "hook_files": [], "disabled_by": [], "silent_sessions": [], "hooks_fired": []})
    unclaimed = (_unclaimed(repos, claimed, bash_rows, start, shorts, rollouts, hooked)
                 if scan_unclaimed else [])
    return {
        "window": {"since": format_timestamp(start), "until": format_timestamp(now), "spec": since,
                   "project": project or None},
        "generated": format_timestamp(now),
        "self": self_id or None,
        "unattributed_events": unattributed,
        "edits_unresolved": edits_unresolved,
        "worktrees_unmapped": len(unmapped),
        "sessions": roster,
        "contention": {"projects": contention_projects, "files": contention_files},
        "silent": {"codex_sessions_without_events": silent, "codex_hook_trust": trust},
        "unclaimed_changes": unclaimed,
    }


def found_nothing(doc: dict) -> bool:
    """The window holds nothing to report: no session, no event without one, no silent Codex
    session, no unclaimed change. `carto standup` then exits 3 (docs/cli.md: "ran fine but
    found nothing"), after printing its (empty) report; upstream (reference 5.1) names no
    exit code for it."""
    return not (doc["sessions"] or doc["unattributed_events"]
                or doc["silent"]["codex_sessions_without_events"] or doc["unclaimed_changes"])


SILENT_SHOWN = 10
COMMITS_SHOWN = 3
UNCLAIMED_SHOWN = 15


def _ago(doc: dict, stamp: str) -> str:
    """How long before the standup was generated `stamp` is, in words ("just now", "4m ago")."""
    from carto_core.util.terminal import ago

    moment = datetime.fromisoformat(stamp.replace("Z", "+00:00"))
    return ago((datetime.fromisoformat(doc["generated"].replace("Z", "+00:00")) - moment).total_seconds())


def _work_said(item: dict, sid: str, shorts: dict[str, str]) -> str:
    """A piece of work in a CONTENTION line: its session, and the sub-agents of it that were there."""
    said = shorts.get(sid, sid[:8])
    children = item.get("sub_agents", {}).get(sid)
    if children:
        said += (f" (with sub-agent{'s' if len(children) > 1 else ''} "
                 + ", ".join(shorts.get(c, c[:8]) for c in children) + ")")
    return said


def render_standup(doc: dict, cwd: str | None = None) -> str:
    cwd = cwd or os.getcwd()
    shorts = {s["id"]: s["short"] for s in doc["sessions"]}
    from carto_core.util.timeparse import is_span

    window = doc["window"]
    head = f"STANDUP — {'last' if is_span(window['spec']) else 'since'} {window['spec']}"
    if window["since"] > window["until"]:
        head += " (after now: the window holds nothing yet)"
    if doc["window"]["project"]:
        head += f" · {doc['window']['project']}"
    lines = [f"{head}   {counted(len(doc['sessions']), 'session')}"]
    me = next((s for s in doc["sessions"] if s["is_self"]), None)
    if me:
        lines.append(f"you are {me['short']} · {', '.join(me['projects']) or '-'}")
    for s in doc["sessions"]:
        mark = "●" if s["live"] else "○"
        where = f"  [{s['author']} on {s['machine']}]" if s.get("machine") else ""
        provider = s["provider"] if s["provider"] not in ("", "unknown") else "?"
        parent = s.get("parent_session")
        of = f" · sub-agent of {shorts.get(parent, parent[:8])}" if parent else ""
        lines.append(f"{mark} {s['short']}{' (you)' if s['is_self'] else ''}  {provider} "
                     f"{' + '.join(s['projects']) or '-'}{of}{where}")
        detail = f"    {duration(s['idle_ms'])} idle · {duration(s['span_ms'])} span · {counted(s['events'], 'event')}"
        detail += f" · {counted(len(s['commits']), 'commit')}" if s["commits"] else ""
        detail += f" · {counted(s['pushes'], 'push', 'pushes')}" if s["pushes"] else ""
        if s.get("evidence") == "turns":
            detail += f" · from {counted(s['turns'], 'transcript turn')} (no hook rows)"
        elif s.get("evidence") is None:
            detail += " · no tool call recorded"
        lines.append(detail)
        for commit in s["commits"][:COMMITS_SHOWN]:
            lines.append(f"    {commit['sha'][:8]}  {commit['subject']}")
        if len(s["commits"]) > COMMITS_SHOWN:
            lines.append(f"    … {len(s['commits']) - COMMITS_SHOWN} more (carto digest session {s['short']})")
    contention = doc["contention"]
    if not contention["projects"] and not contention["files"]:
        lines.append("CONTENTION — none. No shared project or file across these sessions.")
    else:
        lines.append("CONTENTION")
        for item in contention["projects"]:
            lines.append(f"  {item['project']} — {len(item['sessions'])} sessions: "
                         + ", ".join(_work_said(item, s, shorts) for s in item["sessions"]))
        if contention["files"]:
            lines.append(f"  Same file, different sessions ({len(contention['files'])}):")
            for item in contention["files"]:
                try:
                    shown = os.path.relpath(item["path"], cwd)
                    shown = item["path"] if shown.startswith("..") else shown
                except ValueError:
                    shown = item["path"]
                split = "   [same file, separate worktrees]" if item["worktree_split"] else ""
                lines.append(f"    {shown}{split}")
                lines.append("      " + " · ".join(_work_said(item, s, shorts) for s in item["sessions"])
                             + f"   last touched {_ago(doc, item['last_touched'])}")
    silent = doc["silent"]["codex_sessions_without_events"]
    if silent:
        lines.append("SILENT — activity the event log did not record")
        for item in silent[:SILENT_SHOWN]:
            # A session listed above was read from its transcript's turns: it has events, only
            # no hook row.
            logged = ("no hook rows (its turns were read from the transcript)" if item["id"] in shorts
                      else "0 events logged")
            lines.append(f"  codex  {item['id'][:8]}  transcript written {_ago(doc, item['transcript_written'])}"
                         f" · {logged}")
        if len(silent) > SILENT_SHOWN:
            lines.append(f"  … {len(silent) - SILENT_SHOWN} more (--json lists them all)")
        trust = doc["silent"].get("codex_hook_trust") or {}
        lines.append(f"  Codex hooks {trust.get('state', 'unknown').replace('_', ' ')}: "
                     f"{trust.get('reason', 'approve them with /hooks in the Codex CLI')}.")
    if doc["unclaimed_changes"]:
        lines.append("UNCLAIMED — tracked files changed in the window that no logged session edited")
        for item in doc["unclaimed_changes"][:UNCLAIMED_SHOWN]:
            named = f" · named in a command logged by {', '.join(item['named_in_command'])}" if item["named_in_command"] else ""
            for who in item.get("mentioned_by", [])[:2]:
                named += (f" | mentioned by codex {who['id'][:8]}"
                          + (" (no events logged)" if who["unlogged"] else "")
                          + f" ({who['mentions']}×, transcript {who['transcript_written']})")
            lines.append(f"  {item['path']}   changed {item['changed']} ({os.path.basename(item['repo'])}){named}")
        if len(doc["unclaimed_changes"]) > UNCLAIMED_SHOWN:
            lines.append(f"  … {len(doc['unclaimed_changes']) - UNCLAIMED_SHOWN} more (--json lists them all)")
    notes = []
    if doc["edits_unresolved"]:
        notes.append(f"{counted(doc['edits_unresolved'], 'edit candidate')} did not resolve to a file path")
    if doc["unattributed_events"]:
        notes.append(f"{counted(doc['unattributed_events'], 'event')} "
                     f"{'carries' if doc['unattributed_events'] == 1 else 'carry'} no resolvable session id")
    if doc["worktrees_unmapped"]:
        notes.append(f"{counted(doc['worktrees_unmapped'], 'Codex worktree')} could not be mapped")
    if notes:
        lines.append("NOT COUNTED — " + "; ".join(notes) + ".")
    return "\n".join(lines)


def find_commit(home, query: str) -> dict | None:
    """`--commit SHA|subject`: the logged commit matching a hash prefix or a subject fragment
    and the session that made it ("not recorded, backfilled from git" for commits only the git
    backfill knows), else None. One attribution rule for every lens: `carto_core.lenses.attribution`."""
    from carto_core.lenses.attribution import attribute

    return attribute(home, query)


def render_commit(found: dict) -> str:
    lines = [f"{found['sha'][:12]}  {found['subject']}"]
    if found["session_id"]:
        lines.append(f"  session {found['session_id']} ({found['provider'] or 'unknown'})")
    else:
        lines.append("  not recorded — backfilled from git history")
    age = f" · {duration(found['age_ms'])} ago" if found.get("age_ms") is not None else ""
    lines.append(f"  {found['project'] or '-'} · {found['timestamp']}{age} · {found['event_id']}")
    if found["files"]:
        lines.append("  files: " + ", ".join(found["files"][:10]))
    if found["session_id"]:
        lines.append(f"  context: {counted(found['session_commits'], 'commit')} from this session")
    return "\n".join(lines)
