"""Core's fact verbs: census, tempo, delta, pulse, tokens (contract v1), registered like any plugin's."""

from __future__ import annotations

from carto_core import hookimpl
from carto_core.facts.verb import FactVerb


class CensusVerb(FactVerb):
    name = "census"
    description = "buckets by project, type, source and provider with sample ids; commits; span"
    needs_corpus = True
    columns_only = True

    def run(self, corpus, request) -> dict:
        from carto_core.facts.census import census

        return census(request.context["columns"], corpus, request)


class TempoVerb(FactVerb):
    name = "tempo"
    description = "per-project daily counts; the last complete day scored against its baseline"
    needs_corpus = True
    columns_only = True

    def run(self, corpus, request) -> dict:
        from carto_core.facts.tempo import tempo

        return tempo(request.context["columns"], corpus, request)


class DeltaVerb(FactVerb):
    name = "delta"
    description = "rows appended since a cursor (byte positions + boundary hashes)"
    needs_corpus = False

    def run(self, corpus, request) -> dict:
        from carto_core.facts.delta import delta

        return delta(request.context["home"], request.context["corpus_root"], request)


class PulseVerb(FactVerb):
    name = "pulse"
    description = "census + commits + tempo + the delta feed in one document (upstream's pulse)"
    needs_corpus = True
    columns_only = True

    def run(self, corpus, request) -> dict:
        from carto_core.facts.pulse import pulse

        return pulse(request.context["columns"], corpus, request)


class TokensVerb(FactVerb):
    name = "tokens"
    description = "tokens the model API reported, per session, project and day, and the commits they paid for"
    needs_corpus = False

    def run(self, corpus, request) -> dict:
        from carto_core.lenses.tokens import tokens
        from carto_core.model.project import ProjectScope

        scope = ProjectScope.parse(request.project) if request.project else None
        return tokens(request.context["home"], since=request.since_at, before=request.before_at,
                      project=scope.matches if scope else None, top=request.top, sample=request.sample)


@hookimpl
def carto_register_fact_verbs(register):
    register(CensusVerb)
    register(TempoVerb)
    register(DeltaVerb)
    register(PulseVerb)
    register(TokensVerb)
