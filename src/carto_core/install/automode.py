"""`carto trustmap --apply`: the trust map's uncovered identifiers merged into Claude Code's
`autoMode.environment`, shown first as a diff against the current settings.

`autoMode.environment` is a list of prose entries the auto-mode classifier reads as trusted
infrastructure; a list without the literal `"$defaults"` replaces the built-in entries, so a
list carto creates starts with it and an existing list is kept as it is, new entries appended.
An entry is proposed only for an identifier the settings file does not mention yet (the trust
map's `covered`), so `--apply` again proposes only the delta. A settings file that is not a JSON
object is refused before anything is written. The file is backed up (`<name>.carto-backup-<UTC
time>`, `install.configedit`) and replaced atomically; a `trustmap_update` milestone records what
was added (session-milestones and its changelog copy, redacted like every row).
"""

from __future__ import annotations

import difflib
import json
import os
import secrets
from pathlib import Path

from carto_core.install.configedit import backup, write_atomic

DEFAULTS = "$defaults"


class SettingsRefused(ValueError):
    """The settings file cannot be merged into (not JSON, not an object, autoMode of another
    shape): nothing was changed."""


def settings_path(given: str | None = None) -> Path:
    value = given or os.environ.get("CARTOGRAPHER_SETTINGS") or os.path.join(
        os.path.expanduser("~"), ".claude", "settings.json")
    return Path(value).expanduser()


def proposed_entries(doc: dict, *, min_public_hits: int = 3) -> list[dict]:
    """The environment entries for the trust map's uncovered identifiers: source-control orgs,
    LAN hosts and public hosts used `min_public_hits` times or more (a site fetched once is no
    infrastructure), cloud buckets, package registries, Kubernetes namespaces and contexts."""
    out: list[dict] = []

    def add(section: str, label: str, keep=lambda e: True) -> None:
        for entry in doc.get(section, []):
            if not entry["covered"] and keep(entry):
                out.append({"kind": section, "id": entry["id"], "hits": entry["hits"],
                            "entry": f"{label}: {entry['id']}"})

    add("orgs", "Source control organization")
    add("hosts", "Trusted host", lambda e: e.get("kind") == "lan" or (
        e.get("kind") == "public" and e["hits"] >= min_public_hits))
    add("buckets", "Cloud storage bucket")
    add("registries", "Package registry")
    add("k8s_namespaces", "Kubernetes namespace")
    add("k8s_contexts", "Kubernetes context")
    return out


def read_settings(path: Path) -> tuple[str, dict]:
    """(the file's text, its object); a missing file is an empty object. Raises SettingsRefused."""
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return "", {}
    except OSError as exc:
        raise SettingsRefused(f"{path} cannot be read ({exc.strerror or exc})") from None
    except UnicodeDecodeError:
        raise SettingsRefused(f"{path} cannot be read (not UTF-8 text)") from None
    try:
        value = json.loads(text) if text.strip() else {}
    except ValueError as exc:
        raise SettingsRefused(f"{path} is not valid JSON ({exc}); fix it by hand first, nothing was changed") from None
    if not isinstance(value, dict):
        raise SettingsRefused(f"{path} is not a JSON object; nothing was changed")
    auto = value.get("autoMode")
    if auto is not None and not isinstance(auto, dict):
        raise SettingsRefused(f"{path}: autoMode is not an object; nothing was changed")
    env = (auto or {}).get("environment")
    if env is not None and not (isinstance(env, list) and all(isinstance(e, str) for e in env)):
        raise SettingsRefused(f"{path}: autoMode.environment is not a list of strings; nothing was changed")
    return text, value


def merged(settings: dict, entries: list[str]) -> dict:
    out = json.loads(json.dumps(settings))
    auto = out.setdefault("autoMode", {})
    current = list(auto.get("environment") or [DEFAULTS])
    auto["environment"] = current + [e for e in entries if e not in current]
    return out


def render(settings: dict) -> str:
    return json.dumps(settings, indent=2, ensure_ascii=False) + "\n"


def apply_trustmap(doc: dict, *, path: Path, dry_run: bool = False, min_public_hits: int = 3,
                   home=None) -> dict:
    """Propose, diff, back up, merge, record. Raises SettingsRefused (nothing changed)."""
    text, settings = read_settings(path)
    proposals = proposed_entries(doc, min_public_hits=min_public_hits)
    current = ((settings.get("autoMode") or {}).get("environment") or [])
    fresh = [p for p in proposals if p["entry"] not in current]
    result = {"settings": str(path), "proposed": fresh, "applied": False, "dry_run": dry_run,
              "backup": None, "milestone": None, "diff": ""}
    if not fresh:
        return result
    after = merged(settings, [p["entry"] for p in fresh])
    before_text = render(settings) if text else ""
    result["diff"] = "".join(difflib.unified_diff(
        before_text.splitlines(True), render(after).splitlines(True),
        fromfile=str(path), tofile=f"{path} (after carto trustmap --apply)"))
    if dry_run:
        return result
    result["backup"] = backup(path)
    write_atomic(path, render(after))
    read_settings(path)  # verify: the file now parses and holds what was merged
    result["applied"] = True
    if home is not None:
        result["milestone"] = record_update(home, fresh, path)
    return result


def record_update(home, added: list[dict], path: Path) -> str:
    """The `trustmap_update` milestone (upstream's row: milestone, event, description, summary,
    provider, session_id, project, cwd) and its changelog copy."""
    from carto_core.logio.appendlog import append_rows
    from carto_core.logio.logs import order_row
    from carto_core.model.project import project_for
    from carto_core.privacy.redact import redacted
    from carto_core.model.session import current_session_id, detect_provider
    from carto_core.util.timeparse import format_timestamp, utcnow

    alphabet = "abcdefghijklmnopqrstuvwxyz0123456789"
    event_id = "evt-" + "".join(secrets.choice(alphabet) for _ in range(12))
    cwd = os.getcwd()
    session = current_session_id() or None
    provider = detect_provider()
    description = (f"Trust map applied to {path}: {len(added)} autoMode.environment "
                   f"entr{'y' if len(added) == 1 else 'ies'} added ("
                   + ", ".join(p["entry"] for p in added[:8]) + (", ..." if len(added) > 8 else "") + ")")
    row = order_row("milestones", {
        "event_id": event_id, "timestamp": format_timestamp(utcnow()), "milestone": "trustmap_update",
        "provider": provider, "description": description, "session_id": session,
        "project": project_for(cwd), "cwd": cwd, "event": "Trustmap", "summary": description,
        "salience": 0.5, "added": [p["entry"] for p in added], "settings": str(path)})
    row = redacted([row])[0]
    append_rows(home.log("milestones"), [row])
    append_rows(home.log("changelog"), [order_row("changelog-milestone", {
        "event_id": event_id, "timestamp": row["timestamp"], "type": "milestone_trustmap_update",
        "provider": provider, "session_id": session, "project": row["project"], "cwd": cwd,
        "summary": row["description"], "related_ids": [], "salience": 0.5})])
    return event_id
