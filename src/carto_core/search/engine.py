"""The warm search engine: one home's keyword index and ranker instances, kept in memory.

A CLI call makes one, searches once and exits; `carto serve` and `carto mcp` keep one per home
and call :meth:`SearchEngine.refresh` (cheap: a stat and a 4 KiB read per log) before each query,
so appended rows show up without reloading anything. Rankers are instantiated once per engine
and may keep warm state (a loaded vector matrix) on themselves; `engine.generation` changes
whenever the documents do.
"""

from __future__ import annotations

import threading
from datetime import datetime

import numpy as np

from carto_core.logio.home import Home
from carto_core.search.api import Scope
from carto_core.search.index import LOG_LABELS, KeywordIndex


class SearchEngine:
    """Documents, keyword postings and rankers of one home.

    `persist=False` keeps every index write away from the home (a read-only mount);
    `auto_refresh=False` makes `run_search` use the documents as they are (benchmarks, eval).
    """

    def __init__(self, home: Home | str, *, registries=None, persist: bool = True,
                 auto_refresh: bool = True, analyzer: str | None = None):
        self.home = home if isinstance(home, Home) else Home(home)
        self._analyzer_name = analyzer
        self._analyzer = None
        self.persist = persist
        self.auto_refresh = auto_refresh
        self._registries = registries
        self._index: KeywordIndex | None = None
        self._rankers: dict[str, object] = {}
        self._lock = threading.RLock()
        self._access_cache: tuple[tuple, dict] | None = None
        #: Why the access ledger could not be read at the last look (None: it could, or none).
        self._ledger_unreadable: str | None = None

    # ---- documents

    @property
    def analyzer(self):
        """The analyzer of this engine's index (`analyzer=` name, else the configured one)."""
        if self._analyzer is None:
            from carto_core.plugin.registries import UnknownNameError
            from carto_core.search.analysis import resolve_analyzer
            from carto_core.search.api import SearchUsageError

            try:
                self._analyzer = resolve_analyzer(self._analyzer_name, self.registries)
            except UnknownNameError as exc:
                raise SearchUsageError(str(exc)) from None
        return self._analyzer

    def _open(self, progress=None) -> KeywordIndex:
        return KeywordIndex.open(self.home, persist=self.persist, analyzer=self.analyzer,
                                 progress=progress)

    def release_pages(self) -> None:
        """`KeywordIndex.release_pages` of the index, if it is open (never opens it)."""
        if self._index is not None:
            self._index.release_pages()

    @property
    def index(self) -> KeywordIndex:
        if self._index is None:
            with self._lock:
                if self._index is None:
                    self._index = self._open()
        return self._index

    def ensure_loaded(self) -> None:
        """Open the index now (building it if needed), without the per-query refresh."""
        self.index  # noqa: B018 - property with a side effect

    def refresh(self) -> str:
        """Pick up appended rows (or rebuild after a rewrite). Returns what happened:
        "opened" (a fresh index opened), "built", "fresh", "grown", "patched" or "rebuilt"."""
        with self._lock:
            if self._index is None:
                self._index = self._open()
                return self._index.opening  # what opening it took: a build, a patch...
            outcome = self._index.refresh()
            if outcome == "rebuild":
                self._index = KeywordIndex.build(self.home, persist=self.persist,
                                                 analyzer=self.analyzer)
                return "rebuilt"
            return outcome

    def rebuild(self, progress=None) -> KeywordIndex:
        with self._lock:
            self._index = KeywordIndex.build(self.home, persist=self.persist, progress=progress,
                                             analyzer=self.analyzer)
            return self._index

    @property
    def generation(self) -> str:
        return self.index.generation

    def __len__(self) -> int:
        return len(self.index)

    @property
    def event_ids(self) -> list[str]:
        return self.index.ids

    def column(self, name: str) -> np.ndarray:
        """A document column: ts (epoch s, NaN = none), project/type/session (codes into
        `strings(...)`), source (own log code), seen (log bitmask), salience (NaN = none),
        doclen, alive."""
        return self.index.cols[name]

    def strings(self, table: str) -> list[str]:
        """`projects`, `types` or `sessions`: the values the code columns point into."""
        return self.index.strings[table]

    def index_of(self, event_id: str) -> int | None:
        return self.index.index_of(event_id)

    def index_positions(self, event_ids: list[str]) -> np.ndarray:
        """Document indices of many ids at once (-1 where the corpus lacks one)."""
        return self.index.positions(event_ids)

    def row(self, index: int) -> dict:
        return self.index.row(index)

    def sources_of(self, index: int) -> list[str]:
        return self.index.seen_labels(index)

    def source_label(self, index: int) -> str:
        return LOG_LABELS[int(self.index.cols["source"][index])]

    # ---- plugins

    @property
    def registries(self):
        if self._registries is None:
            from carto_core.plugin.registry import RANKING_HOOKS, get_registries

            self._registries = get_registries(hooks=RANKING_HOOKS)
        return self._registries

    def ranker(self, name: str):
        """The engine's instance of a registered ranker (UnknownNameError lists the accepted
        names)."""
        instance = self._rankers.get(name)
        if instance is None:
            instance = self._rankers[name] = self.registries.rankers.get(name)()
        return instance

    def fusion(self, name: str):
        key = "fusion:" + name
        instance = self._rankers.get(key)
        if instance is None:
            instance = self._rankers[key] = self.registries.fusions.get(name)()
        return instance

    def decay_policy(self, name: str):
        key = "decay:" + name
        instance = self._rankers.get(key)
        if instance is None:
            instance = self._rankers[key] = self.registries.decay_policies.get(name)()
        return instance

    # ---- scope

    def scope(self, *, since: datetime | None = None, before: datetime | None = None,
              project=None, served_ids=frozenset(), intent: str | None = None,
              sessions=None) -> Scope:
        """Resolve a window, a project scope, a prompt intent, a set of sessions and served ids
        into a document mask."""
        index = self.index
        alive = np.asarray(index.cols["alive"])
        mask = None if alive.all() else alive.copy()
        values: tuple[str, ...] = ()
        if since is not None or before is not None:
            ts = np.asarray(index.cols["ts"])
            window = ~np.isnan(ts)
            if since is not None:
                window &= ts >= since.timestamp()
            if before is not None:
                window &= ts <= before.timestamp()
            mask = window if mask is None else mask & window
        if project is not None:
            projects = index.strings["projects"]
            codes = [code for code, value in enumerate(projects) if project.matches(value)]
            values = tuple(projects[code] for code in codes)
            hit = np.zeros(len(projects), np.bool_)
            hit[codes] = True
            in_project = hit[np.asarray(index.cols["project"])]
            mask = in_project if mask is None else mask & in_project
        if sessions is not None:
            names = index.strings["sessions"]
            hit = np.zeros(len(names), np.bool_)
            hit[[code for code, name in enumerate(names) if name in sessions]] = True
            in_sessions = hit[np.asarray(index.cols["session"])]
            mask = in_sessions if mask is None else mask & in_sessions
        if intent is not None:
            from carto_core.search.rowfields import INTENT_BITS, INTENT_CODE

            in_intent = (np.asarray(index.cols["intent"]) & INTENT_BITS) == INTENT_CODE[intent]
            mask = in_intent if mask is None else mask & in_intent
        served = frozenset(served_ids)
        if served:
            positions = index.positions(list(served))
            positions = positions[positions >= 0]
            if len(positions):
                mask = alive.copy() if mask is None else mask
                mask[positions] = False
        size = int(mask.sum()) if mask is not None else len(index)
        return Scope(mask=mask, since=since, before=before, project=project,
                     project_values=values, served_ids=served, size=size, intent=intent)

    # ---- access ledger (read for the reuse boost)

    def accesses(self) -> dict[str, list[float]]:
        """event_id -> epoch seconds of endorsing accesses (result_fetched rows do not
        count). Cached until the ledger file changes."""
        import os

        from carto_core.search.telemetry import read_accesses

        from carto_core.logio.reader import unreadable

        path = self.home.log("access")
        self._ledger_unreadable = unreadable(path)
        if self._ledger_unreadable:
            return {}
        try:
            st = os.stat(path)
            key = (st.st_ino, st.st_size, st.st_mtime_ns)
        except FileNotFoundError:
            return {}
        if self._access_cache is not None and self._access_cache[0] == key:
            return self._access_cache[1]
        data = read_accesses(path)
        self._access_cache = (key, data)
        return data


    def skipped_files(self) -> list[dict]:
        """The files the last answer did without, each `{path, why, left_out}`: searched logs
        that cannot be read (`KeywordIndex.skipped`: the rest is searched) and an access
        ledger that cannot be (no reuse boost)."""
        out = []
        index = self._index
        for label, why in (index.skipped if index is not None else {}).items():
            out.append({"path": str(self.home.log(label)), "why": why,
                        "left_out": "its events are not searched"})
        if self._ledger_unreadable:
            out.append({"path": str(self.home.log("access")), "why": self._ledger_unreadable,
                        "left_out": "results get no reuse boost"})
        return out


_engines: dict[str, SearchEngine] = {}
_engines_lock = threading.Lock()


def warm_engine(home: Home | str) -> SearchEngine:
    """A process-wide engine per home, for servers (explorer, MCP): created once, refreshed
    by `run_search` on every query."""
    root = str(home.root if isinstance(home, Home) else home)
    with _engines_lock:
        engine = _engines.get(root)
        if engine is None:
            engine = _engines[root] = SearchEngine(root)
        return engine
