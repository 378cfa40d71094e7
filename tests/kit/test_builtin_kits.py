"""Every built-in ranker, fusion, decay policy, embedder, fact verb and writer passes its kit
(`carto_core.kits`). The lists come from the registries, so a new built-in is checked as soon as
it is registered; what is left out is listed with its reason."""

from __future__ import annotations

import pytest

from carto_core.api import (
    DecayPolicyContract, EmbedderContract, FactVerbContract, FusionContract, RankerContract,
    WriterContract,
)
from carto_core.plugin.registry import load_registries

pytest_plugins = ["carto_core.testing"]

REGISTRIES = load_registries()
#: Built-ins the kit cannot run here, each with why.
LEFT_OUT = {
    ("embedders", "http"): "an embedding service over the network (tests run without one)",
}


def names(kind: str) -> list[str]:
    return [n for n in getattr(REGISTRIES, kind).names() if (kind, n) not in LEFT_OUT]


def test_every_kind_has_built_ins_to_check():
    for kind in ("rankers", "fusions", "decay_policies", "embedders", "fact_verbs", "writers"):
        assert names(kind), kind


class TestBuiltinRankers(RankerContract):
    @pytest.fixture(params=names("rankers"))
    def ranker(self, request, carto_kit_engine):
        ranker = REGISTRIES.rankers.get(request.param)()
        for step in ranker.index_steps():  # the semantic ranker embeds the kit's home first
            step.run(carto_kit_engine)
        return ranker


class TestBuiltinFusions(FusionContract):
    @pytest.fixture(params=names("fusions"))
    def fusion(self, request):
        return REGISTRIES.fusions.get(request.param)()


class TestBuiltinDecayPolicies(DecayPolicyContract):
    @pytest.fixture(params=names("decay_policies"))
    def policy(self, request):
        return REGISTRIES.decay_policies.get(request.param)()


class TestBuiltinEmbedders(EmbedderContract):
    @pytest.fixture(params=names("embedders"))
    def embedder(self, request, carto_contract_home):
        return REGISTRIES.embedders.get(request.param)(carto_contract_home)


class TestBuiltinFactVerbs(FactVerbContract):
    @pytest.fixture(params=names("fact_verbs"))
    def verb(self, request):
        return REGISTRIES.fact_verbs.get(request.param)


class TestBuiltinWriters(WriterContract):
    @pytest.fixture(params=names("writers"))
    def writer(self, request):
        return REGISTRIES.writers.get(request.param)()
