"""Facts: deterministic folds over a home's events, contract v1 as upstream.

One engine for every front door (CLI, web server, MCP)::

    from carto_core.facts import run_facts, FactsError

    envelope = run_facts({"contract_version": 1, "verb": "census", "call_id": "x",
                          "since": "24h", "top": 5}, home)
    # FactsError(message, status=400|409) on a refused request; .exit_code for the CLI

Verbs (`census`, `tempo`, `delta`) are registered through `carto_register_fact_verbs` by
`carto_core.builtins.facts`. See docs/facts.md.
"""

from carto_core.facts.contract import (
    CONTRACT_VERSION,
    FactsError,
    FactsRequest,
    Position,
    decode_cursor,
    encode_cursor,
    normalize_request,
)
from carto_core.facts.engine import corpus_root_of, health, index_generation, run_facts

__all__ = [
    "CONTRACT_VERSION", "FactsError", "FactsRequest", "Position", "decode_cursor",
    "encode_cursor", "normalize_request", "run_facts", "health", "corpus_root_of",
    "index_generation",
]
