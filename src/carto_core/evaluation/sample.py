"""Sample data: a small, realistic home written in upstream's row shapes, relative to `now`.

Used by `carto demo` and by tests that need a home with every log populated. Three sessions of
the last hours on two projects (two of them edit one file from different checkouts, so standup
shows contention), commits, research, milestones with a wrapup, prompts and transcript turns,
plus older sessions, 12 days to 4 months back, so that decay has something to decay (in
sessions of their own: a live session spans hours, not the months its project does).
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from pathlib import Path

from carto_core.logio.appendlog import append_rows
from carto_core.logio.home import Home
from carto_core.logio.logs import order_row
from carto_core.util.privatefiles import make_dirs
from carto_core.util.timeparse import format_timestamp, utcnow

SESSIONS = {
    "a": "5a1e0000-aaaa-4000-8000-00000000000a",
    "b": "5b2e0000-bbbb-4000-8000-00000000000b",
    "c": "5c3e0000-cccc-4000-8000-00000000000c",
    # The older work decay has something to decay: sessions of their own, days and months
    # back, so the live sessions span hours as live sessions do.
    "d": "5d4e0000-dddd-4000-8000-00000000000d",
    "e": "5e5e0000-eeee-4000-8000-00000000000e",
    "f": "5f6e0000-ffff-4000-8000-00000000000f",
    "g": "5a7e0000-aaaa-4000-8000-00000000001a",
    "h": "5b8e0000-bbbb-4000-8000-00000000001b",
}

# (minutes ago, session, kind, details). Kinds: bash, edit, commit, fetch, search, milestone,
# wrapup, prompt, turn.
SCRIPT: list[tuple[float, str, str, dict]] = [
    (60 * 24 * 120, "d", "commit", {"project": "infra-tools", "sha": "1f0c9a2", "subject": "feat(deploy): first terraform layout for the staging cluster", "files": ["main.tf", "variables.tf"]}),
    (60 * 24 * 95, "g", "fetch", {"project": "infra-tools", "url": "https://developer.hashicorp.com/terraform/language/state/remote", "prompt": "how does remote state locking work"}),
    (60 * 24 * 45, "e", "edit", {"project": "infra-tools", "path": "/work/infra-tools/modules/vpc/main.tf"}),
    (60 * 24 * 44, "e", "commit", {"project": "infra-tools", "sha": "7d3b1e0", "subject": "fix(vpc): nat gateway per availability zone", "files": ["modules/vpc/main.tf"]}),
    (60 * 24 * 20, "h", "prompt", {"project": "webshop", "text": "why does the checkout total ignore the coupon when the cart has bundles"}),
    (60 * 24 * 12, "f", "bash", {"project": "webshop", "command": "pytest tests/test_checkout.py -k coupon"}),
    (60 * 24 * 12 - 5, "f", "milestone", {"project": "webshop", "milestone": "compaction_auto", "description": "Context compacted (auto)"}),
    (60 * 3, "a", "prompt", {"project": "webshop", "text": "add discount codes to the cart, percent and fixed amount"}),
    (60 * 3 - 2, "a", "turn", {"project": "webshop", "text": "add discount codes to the cart, percent and fixed amount. I'll add a DiscountCode model and apply it in Cart.total() before tax."}),
    (60 * 3 - 4, "a", "edit", {"project": "webshop", "path": "/work/webshop/src/cart.py"}),
    (60 * 3 - 6, "a", "edit", {"project": "webshop", "path": "/work/webshop/src/discounts.py"}),
    (60 * 3 - 9, "a", "bash", {"project": "webshop", "command": "pytest tests/test_cart.py"}),
    (60 * 3 - 12, "a", "commit", {"project": "webshop", "sha": "a41c2d9", "subject": "feat(cart): discount codes with percent and fixed amounts", "files": ["src/cart.py", "src/discounts.py", "tests/test_cart.py"]}),
    (60 * 2, "b", "prompt", {"project": "webshop", "text": "the cart rounding is off by a cent for three items at 19.99"}),
    (60 * 2 - 3, "b", "edit", {"project": "webshop", "path": "/work/webshop/.claude/worktrees/rounding/src/cart.py", "provider": "codex"}),
    (60 * 2 - 5, "b", "search", {"project": "webshop", "query": "python decimal quantize round half even currency", "provider": "codex"}),
    (60 * 2 - 9, "b", "commit", {"project": "webshop", "sha": "c0ffee1", "subject": "fix(cart): round line totals with Decimal quantize", "files": ["src/cart.py"], "provider": "codex"}),
    (60 * 1.5, "c", "fetch", {"project": "infra-tools", "url": "https://docs.python.org/3/library/decimal.html", "prompt": "decimal rounding modes"}),
    (60 * 1, "c", "bash", {"project": "infra-tools", "command": "terraform plan -out plan.bin"}),
    (45, "a", "wrapup", {"project": "webshop", "description": "Discount codes landed in the cart; tax ordering still open", "decisions": ["apply discounts before tax"], "unresolved": ["bundles and coupons stacking"], "key_insight": "Cart.total() is the single place prices combine"}),
    (40, "a", "milestone", {"project": "webshop", "milestone": "session_end_prompt_input_exit", "description": "Session ended (prompt_input_exit)"}),
    (20, "b", "edit", {"project": "webshop", "path": "/work/webshop/.claude/worktrees/rounding/tests/test_cart.py", "provider": "codex"}),
]


def _eid(*parts: object) -> str:
    return "evt-" + hashlib.sha256("|".join(map(str, parts)).encode()).hexdigest()[:12]


def sample_rows(now: datetime | None = None) -> list[tuple[str, dict]]:
    """(log label, row) pairs of the sample home, oldest first."""
    now = now or utcnow()
    out: list[tuple[str, dict]] = []
    turn_counts: dict[str, int] = {}
    for index, (minutes, key, kind, d) in enumerate(SCRIPT):
        ts = format_timestamp(now - timedelta(minutes=minutes))
        sid = SESSIONS[key]
        provider = d.get("provider", "claude")
        project = d["project"]
        cwd = f"/work/{project}"
        tpath = (f"/home/demo/.claude/projects/-work-{project}/{sid}.jsonl" if provider == "claude"
                 else f"/home/demo/.codex/sessions/rollout-{sid}.jsonl")
        eid = _eid(index, kind, sid)
        common = {"event_id": eid, "timestamp": ts, "provider": provider, "project": project,
                  "cwd": cwd, "transcript_path": tpath}
        if kind in ("bash", "edit", "commit"):
            if kind == "bash":
                etype, summary, salience, tool = "tool_bash", f"Ran: {d['command']}", 0.2, "Bash"
                extra = {}
            elif kind == "edit":
                etype, summary, salience, tool = "tool_file_edit", f"Modified: {d['path']}", 0.4, "Edit"
                extra = {}
            else:
                etype, tool = "git_commit", "Bash"
                ctype = "feature" if d["subject"].startswith("feat") else "fix"
                sha = (d["sha"] * 6)[:40]
                summary = f"[{ctype}] Commit {sha}: {d['subject']} | files: {','.join(d['files'])}"
                salience = 0.7
                extra = {"commit_type": ctype, "commit_action": "commit"}
            shape = {"files_new": 0, "files_modified": len(d["files"]), "files_deleted": 0,
                     "lines_added": 12, "lines_removed": 3, "quadrant": "surgical",
                     "commit_type": d["subject"].split("(")[0]} if kind == "commit" else None
            out.append(("tool-use", order_row("tool-use", {
                **common, "type": etype, "tool": tool, "summary": summary, "session": sid,
                "diff_shape": shape, "salience": salience, **extra}, keep_none=frozenset({"diff_shape"}))))
            out.append(("changelog", order_row("changelog", {
                **common, "type": etype, "session_id": sid, "summary": summary, "diff_shape": shape,
                "related_ids": [], "salience": salience, **extra}, keep_none=frozenset({"diff_shape"}))))
        elif kind in ("fetch", "search"):
            if kind == "fetch":
                row = {**common, "type": "fetch", "url": d["url"], "prompt": d["prompt"],
                       "category": "docs", "session": sid, "salience": 0.5}
                summary, etype = f"Fetched: {d['url']}", "research_fetch"
            else:
                row = {**common, "type": "search", "query": d["query"], "category": "other",
                       "session": sid, "salience": 0.5}
                summary, etype = f"Search: {d['query']}", "research_search"
            out.append(("research", order_row("research", row)))
            out.append(("changelog", order_row("changelog", {
                **common, "type": etype, "session_id": sid, "summary": summary, "related_ids": [],
                "salience": row["salience"]})))
        elif kind in ("milestone", "wrapup"):
            name = d.get("milestone", "session_wrapup")
            salience = 0.9 if kind == "wrapup" else 0.5 if name.startswith("session_end") else 0.4
            row = {**common, "milestone": name, "description": d["description"], "session_id": sid,
                   "transcript_verified": True, "deeplink": "", "event": "Wrapup" if kind == "wrapup" else "SessionEnd",
                   "git_branch": "main", "git_dirty_files": 0, "recent_commits": "", "session_event_count": 6,
                   "salience": salience}
            if kind == "wrapup":
                row.update({"decisions": d["decisions"], "unresolved": d["unresolved"],
                            "key_insight": d["key_insight"], "digest": None})
            out.append(("milestones", order_row("milestones", row)))
            out.append(("changelog", order_row("changelog-milestone", {
                **common, "type": f"milestone_{name}", "session_id": sid, "deeplink": "",
                "summary": f"{d['description']} [main, 0 dirty, 6 events]", "transcript_verified": True,
                "related_ids": [], "salience": salience})))
        elif kind == "prompt":
            out.append(("prompts", order_row("prompts", {
                "event_id": _eid("prompt", ts, d["text"]), "timestamp": ts, "type": "prompt",
                "provider": provider, "summary": d["text"], "project": project, "cwd": cwd,
                "session_id": sid, "transcript_path": tpath, "salience": 0.6})))
        elif kind == "turn":
            turn_counts[sid] = turn_counts.get(sid, 0) + 1
            out.append(("turns", order_row("turns", {
                "event_id": f"turn-{sid}-{turn_counts[sid]}", "timestamp": ts, "project": project,
                "type": "transcript", "provider": provider, "summary": d["text"],
                "transcript_path": tpath, "session": sid, "turn_idx": turn_counts[sid]})))
    return out


def build_sample_home(root: Path | str, now: datetime | None = None) -> Home:
    """Write the sample logs into `root` (created if needed) and return its Home."""
    home = Home(root)
    make_dirs(home.root)
    by_log: dict[str, list[dict]] = {}
    from carto_core.intents import ensure

    for label, row in sample_rows(now):
        by_log.setdefault(label, []).append(ensure(label, row))
    for label, rows in by_log.items():
        append_rows(home.log(label), rows)
    return home
