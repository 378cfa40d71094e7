"""Which analyzer makes the keyword index's terms: `--analyzer`, else `search.analyzer` in the
config file (`CARTO_ANALYZER`), else the default.

Analyzers are registered by plugins through `carto_register_analyzers` (carto-rankers: `unicode`, `english`, and upstream's `upstream`); core's own `upstream` answers
when no plugin registered it (a carto-core alone).
"""

from __future__ import annotations

from carto_core.search.tokens import Analyzer, UpstreamAnalyzer

DEFAULT_ANALYZER = "english"

_instances: dict[str, Analyzer] = {}


def analyzer_names(registries) -> list[str]:
    return sorted(set(registries.analyzers.names()) | {UpstreamAnalyzer.name})


def configured_name() -> str:
    from carto_core.model.config import load_config

    return str(load_config().get("search.analyzer") or DEFAULT_ANALYZER)


def resolve_analyzer(name: str | None = None, registries=None) -> Analyzer:
    """The analyzer named `name` (None: the configured one), one instance per process (its
    memo of analysed words is then shared). Raises `UnknownNameError` listing the names."""
    name = name or configured_name()
    found = _instances.get(name)
    if found is not None:
        return found
    if registries is None:
        from carto_core.plugin.registry import RANKING_HOOKS, get_registries

        registries = get_registries(hooks=RANKING_HOOKS)
    cls = registries.analyzers.get(name) if name in registries.analyzers else None
    if cls is None:
        if name == UpstreamAnalyzer.name:
            cls = UpstreamAnalyzer
        else:
            from carto_core.plugin.registries import UnknownNameError

            raise UnknownNameError(
                f"unknown analyzer {name!r}; accepted: {', '.join(analyzer_names(registries))}")
    instance = _instances[name] = cls()
    return instance
