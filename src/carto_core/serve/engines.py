"""The engines behind the explorer's recall, facts and standup routes: the same functions the
CLI calls (`carto_core.search.run_search`, `carto_core.facts.engine.run_facts`, the standup
lens), never a copy. Each is imported on first use; a missing engine answers 503 with the
reason instead of failing the server.
"""

from __future__ import annotations

import importlib
import time
from datetime import datetime

from carto_core.lenses.livecorpus import LiveCorpus
from carto_core.lenses.sessionstore import unloaded
from carto_core.serve.spec import ApiError

RECALL_CONTRACT_VERSION = 1


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ImportError as exc:
        raise ApiError(503, "ENGINE_UNAVAILABLE", f"{name} is not available: {exc}") from None


class Engines:
    def __init__(self, live: LiveCorpus):
        self.live = live
        self._search_engine = None

    # -- recall ----------------------------------------------------------------------------

    def search_engine(self):
        """The warm search engine (corpus columns + keyword index), built once."""
        if self._search_engine is None:
            search = _module("carto_core.search")
            self._search_engine = search.SearchEngine(self.live.home)
        return self._search_engine

    def search_status(self) -> dict:
        try:
            _module("carto_core.search")
        except ApiError as exc:
            return {"available": False, "reason": exc.message}
        return {"available": True, "warm": self._search_engine is not None}

    def recall(self, body: dict, *, corpus_root: str, sessions: frozenset | None = None) -> dict:
        """The recall contract's answer; `sessions`: only events of these (a tag filter's)."""
        started = time.perf_counter()
        search = _module("carto_core.search")
        request = search.SearchRequest(
            query=body["query"],
            project=body.get("project") or None,
            since=body.get("since_at"),
            before=body.get("before_at"),
            limit=body["limit"] + len(body["excluded_event_ids"]),
            session_id=None,  # the API never does delta serving: callers pass excluded ids
            all=True,
            explain=bool(body.get("explain")),
            sessions=sessions,
        )
        try:
            # The engine refreshes itself from the logs before each query (auto_refresh).
            result = search.run_search(request, engine=self.search_engine())
        except search.SearchUsageError as exc:
            raise ApiError(400, "RECALL_INVALID", str(exc)) from None
        except search.EmptyHomeError as exc:
            raise ApiError(404, "EMPTY_HOME", str(exc)) from None
        if body.get("team"):
            team = _module("carto_core.team.lenses")
            document = team.search_with_team(self.live.home, request, result)[0]
        else:
            document = result.to_dict()
        excluded = set(body["excluded_event_ids"])
        results = [hit for hit in document.get("results", []) if hit.get("event_id") not in excluded]
        excluded_count = len(document.get("results", [])) - len(results)
        results = results[: body["limit"]]
        stages = dict(document.get("stages_ms") or {})
        stages["total"] = round((time.perf_counter() - started) * 1000, 3)
        return {
            "contract_version": RECALL_CONTRACT_VERSION,
            "backend": "carto",
            "call_id": body.get("call_id") or "",
            "corpus_root": corpus_root,
            "index_generation": document.get("index_generation", ""),
            "query": body["query"],
            "results": results,
            "facets": document.get("facets", {}),
            "ladders": document.get("ladders", []),
            "contributing": document.get("contributing", []),
            "semantic_status": document.get("semantic_status", ""),
            "semantic": document.get("semantic", {}),
            "decay": document.get("decay", ""),
            # Why a page is empty when the ladders found candidates: the relevance floor.
            "floor": document.get("floor"),
            "meta": {"eligible_count": document.get("total", len(results)),
                     "excluded_count": excluded_count},
            "stages_ms": stages,
            **({"explain": document["explain"]} if "explain" in document else {}),
            **({"team": document["team"]} if "team" in document else {}),
        }

    # -- facts -----------------------------------------------------------------------------

    def facts(self, body: object, *, now: datetime | None = None) -> dict:
        engine = _module("carto_core.facts.engine")
        contract = _module("carto_core.facts.contract")
        team = isinstance(body, dict) and body.get("team") is True
        if team:
            body = {k: v for k, v in body.items() if k != "team"}
            if body.get("verb") not in ("census", "tempo"):
                raise ApiError(400, "FACTS_REFUSED", "team answers census and tempo only")

        def run() -> dict:
            # A verb that reads only the facts columns reads the server's (those the session
            # list was checked against, current for the generation) while no view loaded the
            # corpus; the others take the corpus (their envelope counts its events), and a
            # request naming no verb is refused before anything is read.
            name = body.get("verb") if isinstance(body, dict) else None
            verb = engine.fact_verbs().get(name.strip()) if isinstance(name, str) else None
            kept = unloaded(self.live) if getattr(verb, "columns_only", False) else None
            if kept is not None:
                return engine.run_facts(body, self.live.home, now=now, columns=kept[1])
            return engine.run_facts(body, self.live.home, self.live.corpus if verb else None,
                                    now=now)

        try:
            if team:
                lenses = _module("carto_core.team.lenses")
                return lenses.facts_with_team(self.live.home, body, run)
            return run()
        except contract.FactsError as exc:
            raise ApiError(exc.status, "FACTS_REFUSED", str(exc)) from None

    def facts_health(self) -> dict:
        engine = _module("carto_core.facts.engine")
        return engine.health(self.live.home, events=self.live.events)

    # -- standup ---------------------------------------------------------------------------

    def standup(self, *, since: str, project: str | None, team: bool = False) -> dict:
        if team:
            return _module("carto_core.team.lenses").standup_with_team(self.live.home, since=since, project=project)
        lens = _module("carto_core.lenses.standup")
        return lens.standup(self.live.home, since=since, project=project)

    # -- team ------------------------------------------------------------------------------

    def team_status(self) -> dict:
        """Whether this home has a team (its settings only: the server is not asked)."""
        settings = _module("carto_core.team.settings")
        try:
            found = settings.load(self.live.home)
        except settings.TeamSettingsError as exc:
            return {"configured": False, "reason": str(exc)}
        if found is None:
            return {"configured": False}
        return {"configured": True, "team": found.team, "machine": found.machine,
                "projects": [p["key"] for p in found.projects]}

    def sessions(self, *, days: int, project: str | None, provider: str | None, limit: int) -> dict:
        from datetime import timedelta

        from carto_core.util.timeparse import utcnow

        lenses = _module("carto_core.team.lenses")
        stored_summaries = _module("carto_core.lenses.sessionstore").stored_summaries
        # the summaries the local list keeps for this generation: not the columns opened again
        document = lenses.sessions_with_team(self.live.home, since=utcnow() - timedelta(days=days),
                                             project=project, provider=provider, limit=limit,
                                             summaries=stored_summaries(self.live))
        document["days"] = days
        return document
