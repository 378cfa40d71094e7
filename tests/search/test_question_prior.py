"""gated-prior's recency prior by kind of query, through the whole pipeline: a question in
one's own words that does not ask for the latest state ranks a memory of any age by what it
says alone; asking for the latest state, or a query that is no question, keeps the prior."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

from carto_core.logio.home import Home
from carto_core.search import SearchRequest, run_search
from carto_core.search.engine import SearchEngine

NOW = datetime(2026, 12, 1, 12, 0, tzinfo=timezone.utc)
OLD = "The garden gave beans."  # 200 days old, short: bm25's first
NEW = "Walked past the garden again on the long way to the station this morning."  # an hour old


def _home(tmp_path) -> Home:
    rows = []
    for n, (age, text) in enumerate([(timedelta(days=200), OLD), (timedelta(hours=1), NEW)]):
        rows.append({"event_id": f"turn-s{n}-1", "summary": text, "session": f"s{n}",
                     "turn_idx": 1, "project": "notes", "type": "transcript",
                     "timestamp": (NOW - age).strftime("%Y-%m-%dT%H:%M:%SZ")})
    rows += [{"event_id": f"turn-zz-{i}", "summary": f"Unrelated note {i} about trains.",
              "session": "zz", "turn_idx": i, "project": "notes", "type": "transcript",
              "timestamp": (NOW - timedelta(days=30, minutes=i)).strftime("%Y-%m-%dT%H:%M:%SZ")}
             for i in range(20)]
    rows.sort(key=lambda r: r["timestamp"])
    (tmp_path / "turns.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    return Home(tmp_path)


def _first(home, query: str) -> str:
    request = SearchRequest(query=query, semantic=False, limit=5, now=NOW, all=True)
    hits = run_search(request, engine=SearchEngine(home)).results
    return hits[0].summary


def test_a_question_ranks_an_old_memory_by_what_it_says(tmp_path):
    """Both rows hold "garden" and no row holds "grow": the old row is bm25's first, one rank
    (1/61 against 1/62) ahead; the prior of 0.25 put the new row first."""
    home = _home(tmp_path)
    assert _first(home, "What did I grow in the garden?") == OLD


def test_asking_for_the_latest_state_or_listing_words_keeps_the_prior(tmp_path):
    home = _home(tmp_path)
    assert _first(home, "What do I grow in the garden now?") == NEW
    assert _first(home, "garden grow") == NEW
