"""The carto plugin surface: every hook a plugin may implement.

A plugin is a module (or object) registered under the entry-point group ``carto``; it marks its
implementations with ``hookimpl`` from the public API (``carto_core.api``)::

    from carto_core.api import hookimpl

    @hookimpl
    def carto_register_sources(register):
        register(NotesSource)

Registration hooks hand the plugin a ``register`` callable. Each call adds one named class to a
registry of its kind. Every registry's names match ``[a-z0-9][a-z0-9-]*`` (lowercase letters,
digits and hyphens, not starting with a hyphen: a name is a command argument and may be a file
name); a class under any other name is rejected and reported. The registry rejects a second
class under a name already taken (the second one is reported by ``carto plugins`` and ``carto
doctor``, the first stays; carto's own plugins register first, so a third-party plugin never
takes one of their names), sorts by name, and the core selects by name from flags and
configuration, never by pluggy's call order.
A hook may register any number of classes, or none. Hooks run once per process, when the
registries are first built; they must be cheap (import heavy libraries inside the registered
classes' methods, not at module top level).

The annotations are the contract: ``register`` takes a subclass of the base class named in the
hook's signature, and that base class documents (and its methods' signatures define) what the
registered class implements; the docstrings here say what the hook is for and point at the
base, they do not restate its methods. Live capture is not a hook: it is the ``carto.capture``
entry point ``carto hook`` runs without pluggy (docs/capture.md, "The capture contract").

This module is the reference manual; ``docs/plugins.md`` walks through each hook with an example.
Meta-tests (tests/core/test_hookspecs_meta.py) fail when a hook here lacks a docstring or a
section in ``docs/plugins.md`` whose heading matches its signature, and every hook is called
through a real plugin manager with every installed plugin, each registered class checked
against the annotated base.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

import pluggy

if TYPE_CHECKING:  # the bases are named in the annotations, not imported at run time
    import click

    from carto_core.facts.verb import FactVerb
    from carto_core.search.api import DecayPolicy, Fusion, Ranker
    from carto_core.search.tokens import Analyzer
    from carto_core.semantic.embedder import Embedder
    from carto_core.model.sources import Source, Writer

hookspec = pluggy.HookspecMarker("carto")


@hookspec
def carto_register_sources(register: Callable[[type[Source]], type[Source]]) -> None:
    """Register provider sources: where backfilled events come from.

    :param register: ``register(cls)`` with a subclass of :class:`carto_core.model.sources.Source`
        that sets a unique ``name`` (``carto ingest NAME``, the checkpoint file's name)
        and the ``provider`` it stamps on rows.

    A source is the backfill half (``discover`` and ``read``; see the base class). Every source
    with backfill is offered to ``carto ingest``; all installed sources contribute. The contract
    suite ``carto_core.testing.SourceContract`` checks a source against its own fixtures. Live
    capture is the ``carto.capture`` entry point, not a source method (docs/capture.md).

    Example::

        @hookimpl
        def carto_register_sources(register):
            register(NotesSource)
    """


@hookspec
def carto_register_writers(register: Callable[[type[Writer]], type[Writer]]) -> None:
    """Register writers: sinks that receive redacted rows.

    :param register: ``register(cls)`` with a subclass of :class:`carto_core.model.sources.Writer`
        that sets a unique ``name`` (see the base class for ``write`` and ``enabled``).

    All enabled writers receive every batch, in name order, rows already redacted and
    key-ordered. The built-in ``jsonl`` writer appends to the home's logs (one ``os.write`` per
    row on an ``O_APPEND`` descriptor) and is the source of truth (``primary``); other writers
    (an index feeder, a mirror) are derived and must not fail the batch: their exceptions are
    reported and the batch still lands in the logs.

    Example::

        @hookimpl
        def carto_register_writers(register):
            register(MirrorWriter)
    """


@hookspec
def carto_register_rankers(register: Callable[[type[Ranker]], type[Ranker]]) -> None:
    """Register rankers: ladder producers for ``carto search``.

    :param register: ``register(cls)`` with a subclass of :class:`carto_core.search.api.Ranker`
        that sets a unique ``name`` (see the base class for ``rank``, ``status`` and
        ``index_steps``).

    Ladders are selected by name (``carto search --ranker NAME``, repeatable; ``search.rankers``
    in the config file). A ranker registered as ``semantic`` is the semantic ladder: it joins
    fusion whenever its ``status`` says it is available (``--semantic/--no-semantic``), and when
    it is not, keyword results still come back with the reason in ``semantic_status``. The scope
    (time window, project, already-served ids) is applied by core *before* a ladder is cut to
    its depth; a ranker must keep corpus-wide statistics (IDF) unchanged by the scope.

    A fusion or an analyzer registered here (the single hook of earlier versions) is still
    accepted, into its own registry, with a ``DeprecationWarning``.

    Example::

        @hookimpl
        def carto_register_rankers(register):
            register(BM25Ranker)
    """


@hookspec
def carto_register_fusions(register: Callable[[type[Fusion]], type[Fusion]]) -> None:
    """Register fusions: how the ladders of one search become one ranking.

    :param register: ``register(cls)`` with a subclass of :class:`carto_core.search.api.Fusion`
        that sets a unique ``name`` (see the base class for ``fuse`` and ``gated``).

    Exactly one fusion is used per search, by name (``search.fusion`` in the config file). The
    pipeline applies the trim (``TRIM`` of the top fused score) and the decay policy after it.

    Example::

        @hookimpl
        def carto_register_fusions(register):
            register(RRFFusion)
    """


@hookspec
def carto_register_analyzers(register: Callable[[type[Analyzer]], type[Analyzer]]) -> None:
    """Register analyzers: text to index terms, for the keyword index and its queries.

    :param register: ``register(cls)`` with a subclass of
        :class:`carto_core.search.tokens.Analyzer` that sets a unique ``name`` and a ``version``
        bumped whenever the terms of some text change (see the base class for ``terms`` and
        ``query``).

    The keyword index asks for one analyzer by name (``search.analyzer``, ``carto index
    --analyzer NAME``) and records its signature, so choosing another one rebuilds the index.
    An analyzer is a pure function of a row's text and imports nothing heavy: the prompt-time
    recall runs it on every prompt.

    Example::

        @hookimpl
        def carto_register_analyzers(register):
            register(EnglishAnalyzer)
    """


@hookspec
def carto_register_decay_policies(register: Callable[[type[DecayPolicy]], type[DecayPolicy]]) -> None:
    """Register decay policies: how age and reuse reshape fused scores.

    :param register: ``register(cls)`` with a subclass of
        :class:`carto_core.search.api.DecayPolicy` that sets a unique ``name`` (see the base
        class for ``apply`` and the context it receives).

    Exactly one policy runs per search, chosen by name (``--decay NAME``, ``search.decay`` in the
    config file). The policy runs after fusion and after the 10 % trim.

    Example::

        @hookimpl
        def carto_register_decay_policies(register):
            register(NoDecay)
    """


@hookspec
def carto_register_fact_verbs(register: Callable[[type[FactVerb]], type[FactVerb]]) -> None:
    """Register fact verbs: deterministic folds over the corpus (``carto facts VERB``).

    :param register: ``register(cls)`` with a subclass of :class:`carto_core.facts.verb.FactVerb`
        that sets a unique ``name`` and the flags that tell the engine what to load (see the base
        class for ``run``, ``needs_corpus`` and ``columns_only``).

    Facts answer "what is true" with counts that carry sample event_ids; a verb never ranks and
    never writes telemetry. Verbs are selected by name.

    Example::

        @hookimpl
        def carto_register_fact_verbs(register):
            register(CensusVerb)
    """


@hookspec
def carto_register_embedders(register: Callable[[type[Embedder]], type[Embedder]]) -> None:
    """Register embedders for the semantic ladder.

    :param register: ``register(cls)`` with a subclass of
        :class:`carto_core.semantic.embedder.Embedder` that sets a unique ``name`` (see the base
        class for ``model_tag``, the embedding methods and ``fit``).

    One embedder is used, by name (``semantic.embedder`` in the config file). Vectors whose model
    tag differs from the selected embedder's are never scored. Embedding a query must not import
    heavy libraries.

    Example::

        @hookimpl
        def carto_register_embedders(register):
            register(LsaEmbedder)
    """


@hookspec
def carto_register_commands(cli: click.Group) -> None:
    """Add click commands to the ``carto`` command line.

    :param cli: the root :class:`click.Group`. Call ``cli.add_command(command)``; to add a
        subcommand under an existing group (``ingest``), use ``cli.get_command(None, "ingest")``
        and add to it.

    Command names must be unique; a plugin command never replaces a core command (the core's
    wins and the clash is reported). Keep module top levels light: the CLI builds every
    plugin's commands on each start.

    Example::

        @hookimpl
        def carto_register_commands(cli):
            cli.add_command(notes_command)
    """
