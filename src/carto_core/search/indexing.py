"""The steps of `carto index`: the keyword index first, then every step a ranker contributes.

A ranker adds steps by returning :class:`~carto_core.search.api.IndexStep` objects from
`Ranker.index_steps()` (the semantic ranker embeds new events there). Steps run in this order:
keyword, then rankers by name.
"""

from __future__ import annotations

import time

from carto_core.search.api import IndexStep


class KeywordIndexStep(IndexStep):
    name = "keyword"
    description = "BM25 postings and document columns under <home>/.carto/search/"

    def run(self, engine, *, rebuild: bool = False, progress=None) -> dict:
        t0 = time.perf_counter()
        if rebuild:
            index = engine.rebuild(progress=progress)
            outcome = "rebuilt"
        else:
            outcome = engine.refresh()
            index = engine.index
            if index.tail_docs or len(index.segments) > 1 or index.patched:
                index.save()  # fold appended rows into the persisted segment
                outcome = "updated"
            elif outcome == "grown":  # read again and nothing new (a torn last line still torn)
                outcome = "opened"
        return {
            "step": self.name, "outcome": outcome, "documents": len(index),
            "live_documents": index.n_alive, "terms": int(len(index.segments[0].terms)),
            "postings": int(sum(len(s) for s in index.segments)),
            "generation": index.generation, "problems": index.problems,
            "seconds": round(time.perf_counter() - t0, 3),
            **({"skipped_files": engine.skipped_files()} if index.skipped else {}),
        }


def index_steps(engine, names: list[str] | None = None) -> list[IndexStep]:
    """Every step, keyword first; `names` keeps only those steps."""
    steps: list[IndexStep] = [KeywordIndexStep()]
    for ranker_name in engine.registries.rankers.names():
        try:
            steps.extend(engine.ranker(ranker_name).index_steps())
        except Exception:  # a broken plugin's steps are skipped; `carto doctor` reports it
            continue
    if names:
        steps = [s for s in steps if s.name in names]
    return steps
