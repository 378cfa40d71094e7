"""`carto facts VERB`: deterministic counts over the home's events (contract v1)."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path

import click

from carto_core.util.output import JsonErrorCommand, emit_json, fail, json_option, usage_error
from carto_core.util.privatefiles import open_private
from carto_core.util.terminal import counted
from carto_core.util.timeparse import shown_timestamp

VERB_HELP = "census | tempo | delta | pulse | tokens (or a verb a plugin registered)"


def _call_id() -> str:
    return f"facts-{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%S')}-{os.getpid()}"


def _read_cursor_file(path: str) -> str:
    """A cursor file holds `{cursor, corpus_root, verb, call_id, written_at}`; a bare token is
    accepted too. A missing file means a baseline call (a scheduled job's first run)."""
    try:
        text = open(path, encoding="utf-8").read().strip()
    except FileNotFoundError:
        return ""
    except UnicodeDecodeError:
        fail(f"cursor file {path} is not a facts cursor (not text): give the file a delta or pulse "
             "wrote, or a missing one for a new baseline", 2)
    except OSError as exc:
        fail(f"cannot read cursor file {path}: {exc.strerror or exc}")
    if text.startswith("{"):
        try:
            return str(json.loads(text).get("cursor") or "")
        except ValueError:
            fail(f"cursor file {path} is not JSON and not a bare cursor", 2)
    return text


#: A short cursor: this prefix and 16 base64url characters (96 bits of the SHA-256 of the
#: cursor it stands for). A long cursor is base64url of a JSON object, so it starts `eyJ`.
SHORT_PREFIX = "fc_"
_SHORT = re.compile(r"fc_[A-Za-z0-9_-]{16}")
#: Short cursors remembered per home, the newest kept: a person pastes back a recent one.
CURSORS_KEPT = 512


def _cursor_folder(home) -> Path:
    return home.state / "facts" / "cursors"


def short_cursor(home, token: str) -> str:
    """A handle of a few dozen characters for `token`, the cursor kept under it in the home
    (`<home>/.carto/facts/cursors/`): the contract's cursor names every log's offset and a
    SHA-1 of the bytes before it, hundreds of characters nobody pastes back by hand. The same
    cursor gets the same handle. `token` itself when the home cannot keep it."""
    from carto_core.util.privatefiles import make_dirs, write_text

    name = base64.urlsafe_b64encode(hashlib.sha256(token.encode("utf-8")).digest()[:12]).decode("ascii")
    folder = _cursor_folder(home)
    path = folder / name
    try:
        if path.is_file() and path.read_text("utf-8") == token:
            os.utime(path)  # used again: kept as one of the newest
        else:
            make_dirs(folder)
            temporary = folder / f".{name}.tmp-{os.getpid()}"
            write_text(temporary, token)
            os.replace(temporary, path)
            kept = sorted(folder.iterdir(), key=lambda p: p.stat().st_mtime, reverse=True)
            for old in kept[CURSORS_KEPT:]:
                old.unlink(missing_ok=True)
    except (OSError, UnicodeDecodeError):
        return token
    return SHORT_PREFIX + name


def expand_cursor(home, text: str) -> str:
    """The cursor a short handle stands for; any other text unchanged (a long cursor, as every
    earlier carto printed, goes to the contract as it is)."""
    text = text.strip()
    if not _SHORT.fullmatch(text):
        return text
    name = text[len(SHORT_PREFIX):]
    try:
        token = (_cursor_folder(home) / name).read_text("utf-8")
    except (OSError, UnicodeDecodeError):
        token = ""
    if not token or base64.urlsafe_b64encode(
            hashlib.sha256(token.encode("utf-8")).digest()[:12]).decode("ascii") != name:
        fail(f"cursor {text} was not issued by this home ({home.root}), or its record was removed: "
             "a short cursor is kept in the home that printed it (`--json` and `--cursor-file` "
             "give the full cursor); give none for a new baseline", 4)
    return token


def _config_names_the_home() -> None:
    """Exit 2 naming the config file when it cannot be read and CARTO_HOME is not set: the
    home is then the one that file failed to name (`current_home` passes over a broken file,
    and the home guard leaves it to the command), so counting the default home would answer
    for the wrong one, or for an empty home that does not exist."""
    if os.environ.get("CARTO_HOME"):
        return
    from carto_core.model.config import ConfigError, load_config

    try:
        load_config()
    except ConfigError as exc:
        fail(str(exc))


def _write_cursor_file(path: str, envelope: dict) -> None:
    document = {
        "cursor": envelope["facts"]["cursor"],
        "corpus_root": envelope["corpus_root"],
        "verb": envelope["verb"],
        "call_id": envelope["call_id"],
        "written_at": datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
    }
    temporary = f"{path}.tmp-{os.getpid()}"
    with open_private(temporary, "w", encoding="utf-8") as handle:
        json.dump(document, handle)
        handle.write("\n")
    os.replace(temporary, path)


def _bucket_line(buckets: list[dict]) -> str:
    return ", ".join(f"{b['name']}({b['count']})" for b in buckets) or "-"


LISTED = 30
DELTA_LISTED = 50


def _thousands(n: int, noun: str) -> str:
    """`counted`, with the thousands separated (a first build counts millions of rows)."""
    return f"{n:,}" + counted(n, noun)[len(str(n)):]


def _bucket_name(bucket: dict) -> str:
    """A bucket's name, and the folder when a project's name was recorded in several."""
    if "folder" not in bucket:
        return bucket["name"]
    if bucket["folder"] is None:
        return f"{bucket['name']} (no folder recorded)"
    import os

    home = os.path.expanduser("~")
    folder = bucket["folder"]
    if home not in ("", "~", os.sep) and folder.startswith(home.rstrip(os.sep) + os.sep):
        folder = "~" + folder[len(home.rstrip(os.sep)):]
    return f"{bucket['name']} ({folder})"


def _more(items: list, shown: int) -> list[str]:
    return [f"  … {len(items) - shown} more (--json for all)"] if len(items) > shown else []


def _pulse_lines(envelope: dict, cursor: str) -> list[str]:
    facts = envelope["facts"]
    census, window = facts["census"], facts["window"]
    lines = [f"window since {window['since_at'] or '-'}" + (f" before {window['before_at']}" if window["before_at"] else ""),
             "", "## What happened (counted)",
             f"{counted(census['events'], 'event')} · {counted(census['sessions']['resolved'], 'session')} · "
             f"{counted(len(census['by_project']), 'project')} · span {census['span']['oldest'] or '-'} .. {census['span']['newest'] or '-'}"]
    for bucket in census["by_project"]:
        ids = bucket.get("event_ids") or []
        lines.append(f"  {bucket['count']:>7}  {_bucket_name(bucket)}" + (f"   [{', '.join(ids)}]" if ids else ""))
    if facts["outside_scope"] and facts["outside_scope"]["events"]:
        out = facts["outside_scope"]
        lines.append(f"outside the scope: {counted(out['events'], 'event')} in {counted(len(out['projects']), 'other project')}")
    lines += ["", f"## Commits ({len(facts['commits'])})"]
    for commit in facts["commits"][:LISTED] or []:
        lines.append(f"  {shown_timestamp(commit['timestamp']) or '?'}  {commit['event_id']}  {commit['project'] or '-'}  {commit['summary']}")
    lines += _more(facts["commits"], LISTED)
    if not facts["commits"]:
        lines.append("  (no commit in the window and scope)")
    lines += ["", f"## Tempo (baseline {facts['tempo']['since']})"]
    for entry in facts["tempo"]["projects"]:
        z = entry["z"]
        lines.append(f"  {entry['project']:<28} {entry['scored_day'] or '-'} = {entry['scored_count']}"
                     f" · {f'z {z:+.2f}' if z is not None else entry['z_status'].replace('_', ' ')}")
    feed = facts["delta"]
    lines += ["", "## Since the last pulse (delta)"]
    if feed["baseline"]:
        lines.append("  baseline recorded: the next pulse with this cursor lists what arrives from now on")
    else:
        lines.append(f"  {counted(feed['returned'], 'new event')}")
        # Counted per project as census is above: a name recorded in several folders, per folder
        # (the events below carry the name only).
        for bucket in (feed.get("summary") or {}).get("by_project") or []:
            lines.append(f"  {bucket['count']:>7}  {_bucket_name(bucket)}")
        for event in feed["events"][:LISTED]:
            lines.append(f"  [{shown_timestamp(event['timestamp']) or '?'}] [{event['source']}] {event['event_id']}  {event['project'] or '-'}  {event['summary']}")
        lines += _more(feed["events"], LISTED)
    lines.append(f"cursor: {cursor}   (the next: carto facts pulse --cursor {cursor})")
    return lines


def _tokens(usage: dict) -> str:
    return (f"{usage['total']:>12,} tokens (in {usage['input']:,}, out {usage['output']:,}, "
            f"cache read {usage['cache_read']:,}, cache write {usage['cache_write']:,})")


def _token_lines(facts: dict) -> list[str]:
    if not facts["turns"]:
        return ["0 turns reported tokens: the turns a backfill or a Stop hook reads from the "
                "transcripts carry them (carto ingest --all)"]
    lines = [f"{counted(facts['turns'], 'turn')} reported {_tokens(facts['tokens']).strip()}"]
    lines.append(f"sessions ({facts['sessions_total']}):")
    for s in facts["sessions"]:
        lines.append(f"  {s['tokens']['total']:>12,}  {(s['session_id'] or '-')[:8]}  {s['project'] or '-':18} "
                     f"{counted(s['turns'], 'turn'):>10}  {counted(s['commits'], 'commit'):>11}  {shown_timestamp(s['first']) or '?'} .. {shown_timestamp(s['last']) or '?'}")
    lines.append("projects:")
    for p in facts["projects"]:
        lines.append(f"  {p['tokens']['total']:>12,}  {p['project'] or '-':24} {counted(p['sessions'], 'session'):>13} "
                     f"{counted(p['turns'], 'turn'):>12}")
    lines.append("days (UTC):")
    for d in facts["days"]:
        lines.append(f"  {d['tokens']['total']:>12,}  {d['day'] or 'undated'}  {counted(d['turns'], 'turn'):>12}")
    if facts["commits"]:
        lines.append(f"commits ({facts['commits_total']}; each charged the turns since the session's previous commit):")
        for c in facts["commits"]:
            lines.append(f"  {c['tokens']['total']:>12,}  {c['sha'][:7]}  {shown_timestamp(c['timestamp']) or '?'}  "
                         f"{c['subject'] or ''}  [{c['event_id']}]")
    lines.append(f"uncommitted (turns after a session's last commit): {facts['uncommitted']['total']:,} tokens")
    return lines


def _tempo_score(entry: dict) -> str:
    """How a project's last complete day compares with the days before it, in words: with no
    complete day, or too few before it for a mean, there is nothing to compare yet."""
    from carto_core.facts.tempo import MIN_BASELINE_DAYS

    if entry["scored_day"] is None:
        return "no history yet: no complete UTC day to score (the current one never is)"
    scored = f"scored {entry['scored_day']} = {entry['scored_count']}"
    if entry["baseline_mean"] is None:
        days = entry["baseline_days"]
        history = (f"only {counted(days, 'day')} of history before it" if days
                   else "no history before it yet")
        return f"{scored} · {history} (a score needs {MIN_BASELINE_DAYS} days)"
    z = entry["z"]
    verdict = f"z {z:+.2f}" if z is not None else entry["z_status"].replace("_", " ")
    return (f"{scored} vs mean {entry['baseline_mean']} over {counted(entry['baseline_days'], 'day')}"
            f" · {verdict}")


def render_text(envelope: dict, cursor: str | None = None) -> str:
    """The text a person reads; `cursor` is the one to show (a short handle), the envelope's
    when None."""
    facts, verb = envelope["facts"], envelope["verb"]
    cursor = cursor or facts.get("cursor") or ""
    window = envelope["window"]
    scope = []
    if window.get("since") or window.get("before"):
        scope.append(f"window {window.get('since') or '…'} .. {window.get('before') or 'now'}")
    if envelope.get("project"):
        scope.append(f"project ~ {envelope['project']}")
    head = f"=== facts {verb}" + (f" ({'; '.join(scope)})" if scope else "") + " ==="
    lines = [head]
    if verb == "census":
        un = facts["unattributed"]
        lines.append(
            f"{counted(facts['events'], 'event')} · {counted(facts['sessions']['resolved'], 'session')}"
            f" (+{counted(un['session'], 'row')} with no session) · span {facts['span']['oldest'] or '-'}"
            f" .. {facts['span']['newest'] or '-'}"
        )
        if window.get("since") or window.get("before"):
            lines.append(f"windowed out {facts['windowed_out']} · undated dropped {facts['undated_dropped']}")
        lines.append("unattributed: " + ", ".join(f"{k} {v}" for k, v in un.items()))
        for key in ("by_project", "by_type", "by_source", "by_provider"):
            if not facts[key]:
                continue
            lines.append(f"{key[3:]}:")
            for bucket in facts[key]:
                ids = bucket.get("event_ids")
                lines.append(f"  {bucket['count']:>7}  {_bucket_name(bucket)}" + (f"   [{', '.join(ids)}]" if ids else ""))
        if facts["commits"]:
            lines.append(f"commits ({len(facts['commits'])}):")
            for commit in facts["commits"][:20]:
                lines.append(f"  {shown_timestamp(commit['timestamp']) or '?'}  {commit['event_id']}  {commit['project'] or '-'}  {commit['summary']}")
            if len(facts["commits"]) > 20:
                lines.append(f"  … {len(facts['commits']) - 20} more (--json for all)")
        lines.append("verify any id: carto search --get ID[,ID...]")
    elif verb == "tempo":
        lines.append(f"undated dropped {facts['undated_dropped']}")
        from carto_core.facts.tempo import MAX_DAYS as TEMPO_DAYS

        series = [entry["days"] for entry in facts["projects"] if entry["days"]]
        if any(len(days) >= TEMPO_DAYS for days in series):
            # census counts the whole window; tempo's totals cover only its series
            first = min(days[0]["day"] for days in series)
            last = max(days[-1]["day"] for days in series)
            lines.append(f"days counted: {first} .. {last} (tempo reads at most {TEMPO_DAYS} days of the window)")
        for entry in facts["projects"]:
            lines.append(
                f"  {entry['project']:<28} total {entry['total']:>6} · {_tempo_score(entry)}"
                + (f" · today so far {entry['partial_day']['count']}" if entry["partial_day"] else "")
            )
    elif verb == "pulse":
        lines.extend(_pulse_lines(envelope, cursor))
    elif verb == "tokens":
        lines.extend(_token_lines(facts))
    elif verb == "delta":
        if facts["baseline"]:
            lines.append("baseline recorded: nothing is reported as new on a first call.")
        else:
            lines.append(f"{counted(facts['returned'], 'new event')} ({counted(facts['read'], 'row')} read)")
            for source, reason in facts["stale"].items():
                lines.append(f"  STALE {source}: {reason} (no events from it; re-baselined)")
            for source, count in facts["pending"].items():
                lines.append(f"  pending {source}: {count} more (run again with the new cursor)")
            for event in facts["events"][:DELTA_LISTED]:
                lines.append(f"  [{shown_timestamp(event['timestamp']) or '?'}] [{event['source']}] {event['event_id']}  {event['project'] or '-'}  {event['type'] or '-'}  {event['summary']}")
            lines += _more(facts["events"], DELTA_LISTED)
        lines.append(f"cursor: {cursor}   (the next: carto facts delta --cursor {cursor})")
    else:
        lines.append(json.dumps(facts, indent=2))
    return "\n".join(lines)


@click.command(
    cls=JsonErrorCommand,
    epilog="""\b
Examples:
  carto facts census --since 24h --top 5          what happened in the last day, counted
  carto facts census --project webshop --json     one project, one JSON document
  carto facts tempo --since 14d                   is yesterday unusual for each project?
  carto facts delta --cursor-file ~/.pulse.cursor what arrived since the last run
  carto facts pulse --since 24h --cursor-file ~/.pulse.cursor   counted day + what is new
  carto search --get ID,ID                        check any sample id a count carries
  carto facts census --team --since 7d            the whole team's week (docs/team.md)
  carto facts tokens --since 7d --project webshop tokens per session, day and commit

Exit codes: 0 ok, 2 the request is wrong (400), 4 it names another corpus or contract
version (409), 1 engine failure."""
)
# optional for click, so that a missing verb is told with the verbs there are (the contract's
# refusal) instead of click's bare "Missing argument 'VERB'"
@click.argument("verb", metavar="VERB", required=False, default="")
@click.option("--project", default="", help="Project scope: case-insensitive substring, `a|b` for several, a family name widens.")
@click.option("--since", default="", help="Window start (WHEN: 24h, 7d, yesterday, 2026-09-01...). Not for delta.")
@click.option("--before", default="", help="Window end (WHEN). Not for delta.")
@click.option("--top", type=int, default=None, help="Buckets per dimension (projects for tempo), 1..200, default 20.")
@click.option("--sample", type=int, default=None, help="Sample event_ids per bucket, 0..10, default 3.")
@click.option("--budget", type=int, default=None, help="delta page size, 1..2000, default 200.")
@click.option("--cursor", default="", help="delta, pulse: the cursor a previous delta or pulse printed "
              "(the short fc_… one, or the full one --json gives).")
@click.option("--cursor-file", type=click.Path(dir_okay=False), default=None,
              help="delta: read the cursor from this file (missing = baseline) and store the new one "
                   "there after the answer is printed.")
@click.option("--call-id", default="", help="Echoed in the answer (default facts-<time>-<pid>).")
@click.option("--purpose", default="facts", show_default=True, help="[A-Za-z0-9_-], up to 64 chars.")
@click.option("--corpus-root", default="", help="Refuse (exit 4) unless the home is this folder.")
@click.option("--team", "team", is_flag=True,
              help="census and tempo over the team server's rows (carto team init), counted by SQL; "
                   "unreachable: this home's facts and a line saying so.")
@json_option
def facts(verb, project, since, before, top, sample, budget, cursor, cursor_file, call_id,
          purpose, corpus_root, team, as_json) -> None:
    """Count what is true in the home: census, tempo, delta, pulse, tokens (VERB).

    Facts answer "what happened" with counts, and every count carries sample event_ids you can
    fetch back; they never rank and never write a log or telemetry row. census and tempo keep
    their columns in <home>/.carto/facts/columns.bin (built on first use, then brought up to
    date from where each log was last read; CARTO_FACTS_CACHE=0 turns it off). census buckets events by project,
    type, source and provider and lists commits; tempo gives each project's daily counts and
    scores the last complete UTC day against its baseline (z with z_status); delta returns the
    rows appended since a cursor, and a first call without one records a baseline; pulse is
    census, commits, tempo and delta in one answer; tokens what the model API reported per
    session, project, day and commit.
    """
    from carto_core.facts import FactsError, run_facts
    from carto_core.logio.home import current_home

    _config_names_the_home()
    if cursor_file and not cursor:
        cursor = _read_cursor_file(cursor_file)
    home = current_home()
    if cursor:
        cursor = expand_cursor(home, cursor)
    request: dict = {"contract_version": 1, "verb": verb, "call_id": call_id or _call_id(),
                     "project": project, "since": since, "before": before, "purpose": purpose,
                     "corpus_root": corpus_root, "cursor": cursor}
    for name, value in (("top", top), ("sample", sample), ("budget", budget)):
        if value is not None:
            request[name] = value

    def cache_note(opened) -> None:
        # The one slow call is the first (or the one after a rewrite): say what it cost.
        if opened.state.startswith(("built", "rebuilt")):
            reasons = "; ".join(f"{k}: {v}" for k, v in opened.reasons.items())
            click.echo(f"facts: columns cache {opened.state.split(' ')[0]} in {opened.ms / 1000:.1f} s "
                       f"({_thousands(opened.columns.n, 'event')}, {_thousands(opened.rows_read, 'row')} read"
                       f"{'; ' + reasons if reasons else ''}); later calls read it"
                       + ("" if opened.saved else " (not saved: state folder not writable)"), err=True)

    if team and verb not in ("census", "tempo"):
        fail(f"--team answers census and tempo, not {verb}", 2)
    from carto_core.cli.logskips import fail_if_none_readable
    from carto_core.logio.logs import SEARCHED_LOGS

    fail_if_none_readable(home, SEARCHED_LOGS)
    try:
        if team:
            from carto_core.team.lenses import facts_with_team

            envelope = facts_with_team(home, request, lambda: run_facts(request, home, on_cache=cache_note))
        else:
            envelope = run_facts(request, home, on_cache=cache_note)
    except FactsError as exc:
        message = exc.message
        if message.startswith(("cannot parse since", "cannot parse before")):
            # The contract keeps upstream's wording; a person at the CLI also needs the grammar.
            from carto_core.util.timeparse import WHEN_HELP

            message += f"; accepted: {WHEN_HELP}"
        fail(message, exc.exit_code)
    from carto_core.cli.search_text import say_skipped

    say_skipped(home, envelope.get("skipped_files") or [])
    if as_json:
        emit_json(envelope)
    else:
        issued = envelope["facts"].get("cursor") if verb in ("delta", "pulse") else None
        click.echo(render_text(envelope, short_cursor(home, issued) if issued else None))
        if team:
            from carto_core.team.lenses import team_line

            click.echo(team_line(envelope["team"]))
    if cursor_file and verb in ("delta", "pulse"):
        # Written only after the answer was rendered: advancing first would lose the events
        # for good if printing failed.
        _write_cursor_file(cursor_file, envelope)
