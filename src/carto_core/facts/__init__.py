"""Facts: deterministic folds over a home's events, contract v1 as upstream.

One engine for every front door (CLI, web server, MCP)::

    from carto_core.facts import run_facts, FactsError

    envelope = run_facts({"contract_version": 1, "verb": "census", "call_id": "x",
                          "since": "24h", "top": 5}, home)
    # FactsError(message, status=400|409) on a refused request; .exit_code for the CLI

Verbs (`census`, `tempo`, `delta`) subclass `carto_core.facts.verb.FactVerb` and are registered
through `carto_register_fact_verbs` by `carto_core.builtins.facts`. See docs/facts.md.
"""

# The names below load on first use (PEP 562): importing a submodule (the FactVerb base, which
# every CLI start registers through core's built-in verbs) must not pay for the engine.
_EXPORTS = {
    "CONTRACT_VERSION": "contract", "FactsError": "contract", "FactsRequest": "contract",
    "Position": "contract", "decode_cursor": "contract", "encode_cursor": "contract",
    "normalize_request": "contract", "run_facts": "engine", "health": "engine",
    "corpus_root_of": "engine", "index_generation": "engine", "FactVerb": "verb",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'carto_core.facts' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"carto_core.facts.{module}"), name)
    globals()[name] = value
    return value
