"""carto_rankers: the BM25 keyword ladder, RRF fusion and the decay policies of `carto search`.

Everything registers by name through carto's hooks and is swappable from the command line
(`--ranker`, `--decay`) or the config file (`search.rankers`, `search.fusion`, `search.decay`).
Module tops stay light (no numpy): the CLI loads every plugin on start, and only a search needs
the arrays.
"""

from __future__ import annotations

from carto_core.api import UpstreamAnalyzer, hookimpl
from carto_rankers.analyzers import EnglishAnalyzer, UnicodeAnalyzer
from carto_rankers.bm25 import BM25Ranker, UpstreamBM25Ranker
from carto_rankers.decay import ExpDecay, GatedExpDecay, GatedPriorDecay, NoDecay
from carto_rankers.rrf import RRFFusion, RRFPriorFusion

__all__ = ["BM25Ranker", "EnglishAnalyzer", "ExpDecay", "GatedExpDecay", "NoDecay", "RRFFusion",
           "UnicodeAnalyzer", "UpstreamBM25Ranker"]


@hookimpl
def carto_register_rankers(register):
    register(BM25Ranker)
    register(UpstreamBM25Ranker)


@hookimpl
def carto_register_fusions(register):
    register(RRFFusion)
    register(RRFPriorFusion)


@hookimpl
def carto_register_analyzers(register):
    register(UpstreamAnalyzer)
    register(UnicodeAnalyzer)
    register(EnglishAnalyzer)


@hookimpl
def carto_register_decay_policies(register):
    register(NoDecay)
    register(ExpDecay)
    register(GatedExpDecay)
    register(GatedPriorDecay)
