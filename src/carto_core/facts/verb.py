"""The base class of a fact verb (`carto facts NAME`), registered through
`carto_register_fact_verbs`.

A verb is a deterministic fold: counts that carry sample event ids, never ranking, never
telemetry, never a write. `carto_core.facts.engine.run_facts` validates the request (contract
v1), loads what the verb's flags ask for and calls `run`.
"""

from __future__ import annotations

from typing import ClassVar


class FactVerb:
    """Subclass, set `name` (and `description`), pick the flags, implement `run`."""

    #: Unique; `carto facts NAME`, the `verb` of a request.
    name: ClassVar[str] = ""
    #: One line for `carto plugins` and `carto facts --help`.
    description: ClassVar[str] = ""
    #: False when the verb reads the logs itself and needs no corpus loaded (as `delta` does).
    needs_corpus: ClassVar[bool] = True
    #: True when the persisted columns cache suffices (`carto_core.facts.store`; census, tempo):
    #: the engine then opens the cache instead of loading the corpus.
    columns_only: ClassVar[bool] = False

    def run(self, corpus, request) -> dict:
        """The verb's `facts` object for `request` (a `carto_core.facts.contract.FactsRequest`
        whose `context` holds `home`, `now`, `corpus_root` and, when loaded, `columns`, the
        columnar view). `corpus` is the loaded corpus, or None when the flags asked for none."""
        raise NotImplementedError(f"fact verb {self.name!r} does not implement run()")
