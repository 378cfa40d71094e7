"""A JSON body nested past the bound is a 400 naming the bound on every route that reads a
body (the parser recursed per level: 100,000 levels were a RecursionError and a 500)."""

from __future__ import annotations

import pytest

from carto_core.serve.app import ENDPOINTS
from carto_core.util.jsondepth import MAX_DEPTH

BODY_ROUTES = sorted(ep.path for ep in ENDPOINTS if ep.body is not None)


def _nested(levels: int) -> str:
    return '{"query": "cart", "contract_version": 1, "deep": ' + "[" * levels + "1" + "]" * levels + "}"


@pytest.mark.parametrize("path", BODY_ROUTES)
@pytest.mark.parametrize("levels", [1_000, 100_000])
def test_a_deep_body_is_a_400(client, path, levels):
    answer = client.post(path, content=_nested(levels), headers={"content-type": "application/json"})
    assert answer.status_code == 400, answer.text
    assert answer.json()["code"] == "BODY_TOO_DEEP" and str(MAX_DEPTH) in answer.json()["error"]


def test_a_body_at_the_bound_is_read():
    assert "/api/recall" in BODY_ROUTES and "/api/facts" in BODY_ROUTES


def test_recall_reads_a_body_just_inside_the_bound(client):
    answer = client.post("/api/recall", content=_nested(MAX_DEPTH - 1),
                         headers={"content-type": "application/json"})
    assert answer.status_code == 200, answer.text
