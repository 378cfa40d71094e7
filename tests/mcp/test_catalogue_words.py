"""What the tool catalogue tells an agent about a choice matches what the engine accepts and
uses by default."""

from __future__ import annotations

from carto_core.mcp.tools import TOOLS


def test_search_names_every_decay_policy_and_the_default_the_engine_uses():
    """The decay argument listed none, exp, gated-exp and called gated-exp the default; the
    engine's default is gated-prior (config `search.decay`), which it did not name."""
    from carto_core.model.config import DEFAULTS
    from carto_core.plugin.registry import get_registries

    text = {tool.name: tool for tool in TOOLS}["search"].properties["decay"]["description"]
    names = get_registries().decay_policies.names()
    assert text == (f"Decay policy by name: {', '.join(names)} (default: the configured one, "
                    f"search.decay: {DEFAULTS['search.decay']} unless set).")
