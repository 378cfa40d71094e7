"""The decision-lifecycle figures of docs/recall.md ("Memory that stays true"): does a reversed
decision stay out of the way, and is a decision whose cited file changed marked?

One home (the sample home's work as noise) holds every pair of the set below: an old decision
stated in one wrapup and, weeks later, a new one that says it reverses it. For each pair:

- proposal: does `carto wrapup`'s reversal detection propose superseding the right decision
  (and nothing else)?
- after the supersession: the successor's rank against the superseded decision in `carto
  decision list --all` (the MCP `decisions` tool answers the same document) and whether
  `carto memory` still shows the superseded one;
- prompt recall: the pair's question asked from a new session of the project; which rows are
  injected (a snippet is relevant when it is the successor's wrapup or the decision_update row
  that names it), whether the superseded one is injected at all, and above its successor.

Set A (12 pairs) was written with the code; set B (6 pairs) was written afterwards and kept
aside. Stale: each pair's new decision cites a file of a temporary git repository; half of
those files change in a later commit: marked in the decision list, `carto memory` and orient,
and the others not.

Usage (repository root): .venv/bin/python benchmarks/recall/eval_decisions.py
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from datetime import timedelta
from pathlib import Path

#: (file, old decision, new decision that reverses it, the question whose answer is the new one)
SET_A = [
    ("refunds.py", "gift cards are refunded to the original card", "gift cards are refunded as store credit instead of to the original card", "how are gift cards refunded?"),
    ("tax.py", "apply discounts before tax", "apply discounts after tax (reverses the earlier rule)", "do we apply discounts before or after tax?"),
    ("cache.py", "product images are cached for one day in the CDN", "product images are no longer cached in the CDN, served from the bucket", "how long are product images cached in the CDN?"),
    ("auth.py", "sessions expire after 30 minutes idle", "sessions expire after 8 hours idle instead of 30 minutes", "when do idle sessions expire?"),
    ("deploy.sh", "deploys run on Friday afternoons", "deploys no longer run on Friday afternoons, Tuesday mornings instead", "which day do deploys run?"),
    ("db.py", "orders table uses integer primary keys", "orders table uses UUID primary keys instead of integer keys", "what primary keys does the orders table use?"),
    ("search.py", "catalog search uses Postgres full text", "catalog search uses Meilisearch instead of Postgres full text", "what engine does catalog search use?"),
    ("email.py", "receipts are emailed through SMTP relay", "receipts are emailed through the SES API rather than the SMTP relay", "how are receipts emailed?"),
    ("shipping.py", "shipping rates come from a static table", "shipping rates come from the carrier API instead of a static table", "where do shipping rates come from?"),
    ("logging.py", "request logs are kept for 90 days", "request logs are kept for 30 days (reverses the 90 day retention)", "how long are request logs kept?"),
    ("currency.py", "prices are stored as floats", "prices are stored as integer cents, no longer as floats", "how are prices stored?"),
    ("queue.py", "webhooks are retried 3 times", "webhooks are retried 10 times with backoff instead of 3 times", "how many times are webhooks retried?"),
]
SET_B = [
    ("inventory.py", "stock is reserved when the cart is created", "stock is reserved at checkout rather than when the cart is created", "when is stock reserved?"),
    ("images.py", "thumbnails are generated on upload", "thumbnails are generated lazily on first view instead of on upload", "when are thumbnails generated?"),
    ("pricing.py", "coupons stack with sale prices", "coupons no longer stack with sale prices", "do coupons stack with sale prices?"),
    ("i18n.py", "translations live in YAML files", "translations live in the CMS instead of YAML files", "where do translations live?"),
    ("billing.py", "invoices are numbered per year", "invoices are numbered globally, reverses per-year numbering", "how are invoices numbered?"),
    ("search_ui.js", "search suggestions appear after 3 letters", "search suggestions appear after 2 letters instead of 3", "after how many letters do search suggestions appear?"),
]


def _git(repo, *args, when=None):
    env = {**os.environ, "GIT_AUTHOR_NAME": "e", "GIT_AUTHOR_EMAIL": "e@x", "GIT_COMMITTER_NAME": "e",
           "GIT_COMMITTER_EMAIL": "e@x", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    if when is not None:
        env["GIT_AUTHOR_DATE"] = env["GIT_COMMITTER_DATE"] = when.strftime("%Y-%m-%dT%H:%M:%S+0000")
    return subprocess.run(["git", "-C", str(repo), *args], env=env, check=True, capture_output=True,
                          text=True).stdout.strip()


def run_set(name: str, pairs, root: Path) -> dict:
    from carto_core.evaluation.sample import build_sample_home
    from carto_core.lenses.decisions import change, list_document, proposals
    from carto_core.lenses.memory import build_memory, render
    from carto_core.logio.appendlog import append_rows
    from carto_core.model import decisions as model
    from carto_core.recall.find import find
    from carto_core.recall.prompt import closed_wrapups
    from carto_core.search import lite
    from carto_core.search.engine import SearchEngine
    from carto_core.search.index_view import IndexView
    from carto_core.util.timeparse import format_timestamp, utcnow

    now = utcnow()
    home = build_sample_home(root / f"home-{name}")
    repo = root / f"repo-{name}"
    repo.mkdir()
    _git(repo, "init", "-q", "-b", "main")
    for file, *_ in pairs:
        (repo / file).write_text("v1\n")
    _git(repo, "add", ".")
    _git(repo, "commit", "-qm", "init", when=now - timedelta(days=40))

    def wrapup(n, days, decision, file):
        return {"event_id": f"evt-evaldec{n:05d}", "timestamp": format_timestamp(now - timedelta(days=days)),
                "milestone": "session_wrapup", "provider": "claude", "session_id": f"eval-{n}",
                "project": "webshop", "cwd": str(repo), "description": decision, "decisions": [decision],
                "unresolved": [], "key_insight": "", "cites": {"repo": str(repo), "commits": {}, "files": [file]}}

    append_rows(home.log("milestones"), [wrapup(i, 20, old, f) for i, (f, old, _, _) in enumerate(pairs)])
    out = {"pairs": len(pairs), "proposed_right": 0, "proposed_wrong": 0, "list_successor_above": 0,
           "memory_superseded_shown": 0, "recall_questions": 0, "recall_answered": 0, "recall_snippets": 0,
           "recall_relevant": 0, "recall_superseded_shown": 0, "recall_superseded_above": 0,
           "stale_expected": 0, "stale_marked_list": 0, "stale_marked_memory": 0, "false_stale": 0}
    updates: dict[int, str] = {}
    for i, (f, old, new, _) in enumerate(pairs):
        row = wrapup(100 + i, 3, new, f)
        found = proposals(home, row)
        right = model.record_id("decision", "webshop", old)
        out["proposed_right"] += any(p["supersede"] == right for p in found)
        out["proposed_wrong"] += sum(p["supersede"] != right for p in found)
        append_rows(home.log("milestones"), [row])
        updates[i] = change(home, right, "superseded", by=model.record_id("decision", "webshop", new))["event_id"]
    # half of the files change after the new decisions
    for f, *_ in pairs[::2]:
        (repo / f).write_text("v2\n")
    _git(repo, "commit", "-qam", "later change", when=now - timedelta(days=1))
    document = list_document(home, project="webshop", states=model.STATES)
    order = [r["id"] for r in document["records"]]
    stale_ids = {r["id"] for r in document["records"] if r["stale"]}
    memory = render(build_memory(home, "webshop"))
    for i, (f, old, new, _) in enumerate(pairs):
        o, n = (model.record_id("decision", "webshop", t) for t in (old, new))
        out["list_successor_above"] += order.index(n) < order.index(o)
        out["memory_superseded_shown"] += f"- {old} " in memory
        changed = i % 2 == 0
        out["stale_expected"] += changed
        line = next((l for l in memory.splitlines() if l.startswith(f"- {new}")), "")
        if changed:
            out["stale_marked_list"] += n in stale_ids
            out["stale_marked_memory"] += f"stale: {f} changed in" in line
        else:
            out["false_stale"] += (n in stale_ids) + ("stale:" in line)
    SearchEngine(home).ensure_loaded()
    view = IndexView.open(home)
    components = lite.resolve_components()
    for i, (f, old, new, question) in enumerate(pairs):
        found = find(view, components, question, session_id="eval-new", now=now.timestamp(),
                     skip=closed_wrapups(home))
        ids = [r.event_id for r in found.results]
        good, bad = f"evt-evaldec{100 + i:05d}", f"evt-evaldec{i:05d}"
        out["recall_questions"] += 1
        out["recall_answered"] += bool(ids)
        out["recall_snippets"] += len(ids)
        # relevant: the successor's wrapup, or the update row that names it
        out["recall_relevant"] += sum(i_ in (good, updates[i]) for i_ in ids)
        out.setdefault("irrelevant", []).extend(
            (question, view.row(r.doc).get("description") or view.row(r.doc).get("summary"))
            for r in found.results if r.event_id not in (good, updates[i]))
        out["recall_superseded_shown"] += bad in ids
        out["recall_superseded_above"] += bad in ids and (good not in ids or ids.index(bad) < ids.index(good))
    return out


def main() -> int:
    with tempfile.TemporaryDirectory() as tmp:
        os.environ.setdefault("XDG_CACHE_HOME", os.path.join(tmp, "cache"))
        results = {name: run_set(name, pairs, Path(tmp)) for name, pairs in (("A", SET_A), ("B (aside)", SET_B))}
    print(json.dumps(results, indent=1))
    print("\n| set | pairs | right proposals | wrong proposals | successor above in list | superseded in memory "
          "| recall answered | snippets relevant | superseded recalled | stale marked (list / memory) | false stale |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, r in results.items():
        precision = f"{r['recall_relevant']}/{r['recall_snippets']}"
        print(f"| {name} | {r['pairs']} | {r['proposed_right']} | {r['proposed_wrong']} | {r['list_successor_above']} "
              f"| {r['memory_superseded_shown']} | {r['recall_answered']}/{r['recall_questions']} | {precision} "
              f"| {r['recall_superseded_shown']} | {r['stale_marked_list']}/{r['stale_expected']} / "
              f"{r['stale_marked_memory']}/{r['stale_expected']} | {r['false_stale']} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
