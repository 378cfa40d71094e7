"""The carto plugin surface: every hook a plugin may implement.

A plugin is a module (or object) registered under the entry-point group ``carto``; it marks its
implementations with ``carto_core.hookimpl``::

    from carto_core import hookimpl

    @hookimpl
    def carto_register_sources(register):
        register(NotesSource)

Registration hooks hand the plugin a ``register`` callable. Each call adds one named class to a
registry of its kind; the registry rejects a second class under a name already taken (the
second one is reported by ``carto plugins`` and ``carto doctor``, the first stays), sorts by
name, and the core selects by name from flags and configuration, never by pluggy's call order.
A hook may register any number of classes, or none. Hooks run once per process, when the
registries are first built; they must be cheap (import heavy libraries inside the registered
classes' methods, not at module top level).

This module is the reference manual; ``docs/plugins.md`` walks through each hook with an example.
A meta-test fails when a hook here lacks a docstring, a section in ``docs/plugins.md`` or a test
that exercises it.
"""

from __future__ import annotations

import pluggy

hookspec = pluggy.HookspecMarker("carto")


@hookspec
def carto_register_sources(register):
    """Register provider sources: where backfilled events come from.

    :param register: ``register(source_class)``. The class subclasses
        :class:`carto_core.sources.Source` and sets ``name`` (unique, ``[a-z0-9-]+``, used by
        ``carto ingest NAME`` and in checkpoints) and ``provider`` (stamped on its rows).

    A source is the backfill half: ``discover`` lists what can be read and ``read`` reads one
    stream from its checkpoint (the methods, their arguments and what they return are
    documented on :class:`carto_core.sources.Source`). Live capture is not a source method: it
    is the ``carto.capture`` entry point that ``carto hook`` runs without pluggy, documented once
    in docs/capture.md ("The capture contract").

    Every source is offered to ``carto ingest``; all installed sources contribute.
    The contract suite in ``carto_core.testing`` checks a source against its own fixtures.

    Example::

        @hookimpl
        def carto_register_sources(register):
            register(NotesSource)
    """


@hookspec
def carto_register_writers(register):
    """Register writers: sinks that receive redacted rows.

    :param register: ``register(writer_class)``. The class subclasses
        :class:`carto_core.sources.Writer`, sets a unique ``name`` and implements
        ``write(home, log, rows) -> int`` (rows already redacted and key-ordered; returns how
        many it accepted). ``enabled(config) -> bool`` decides whether it takes part.

    All enabled writers receive every batch, in name order. The built-in ``jsonl`` writer
    appends to the home's logs (one ``os.write`` per row on an ``O_APPEND`` descriptor) and is
    the source of truth; other writers (an index feeder, a mirror) are derived and must not
    fail the batch: their exceptions are reported and the batch still lands in the logs.

    Example::

        @hookimpl
        def carto_register_writers(register):
            register(MirrorWriter)
    """


@hookspec
def carto_register_rankers(register):
    """Register rankers (ladder producers) and fusions for ``carto search``.

    :param register: ``register(ranker_class)``. The class subclasses
        :class:`carto_core.search.api.Ranker` (``kind = "ladder"``: ``rank(query, scope, engine,
        depth=500) -> list[Ladder]``, ``status(engine) -> (available, reason)``, optional
        ``index_steps()`` for ``carto index``) or :class:`carto_core.search.api.Fusion`
        (``kind = "fusion"``: ``fuse(ladders, engine) -> list[Fused]``), with a unique ``name``.

    Ladders are selected by name (``carto search --ranker NAME``, repeatable; ``search.rankers``
    in the config file); exactly one fusion is used (``search.fusion``, default ``rrf``). A
    ranker registered as ``semantic`` is the semantic ladder: it joins fusion whenever its
    ``status`` says it is available (``--semantic/--no-semantic``), and when it is not, keyword
    results still come back with the reason in ``semantic_status``.
    Each ladder answers with ordered candidates, each carrying an event index, a score and
    whether it holds every query token (the decay gate reads that flag). The scope (time window,
    project, already-served ids) is applied by core *before* a ladder is cut to its depth; a
    ranker must keep corpus-wide statistics (IDF) unchanged by the scope.

    Example::

        @hookimpl
        def carto_register_rankers(register):
            register(BM25Ranker)
            register(RRFFusion)
    """


@hookspec
def carto_register_decay_policies(register):
    """Register decay policies: how age and reuse reshape fused scores.

    :param register: ``register(policy_class)``. The class subclasses
        :class:`carto_core.search.api.DecayPolicy`, sets a unique ``name`` and implements
        ``apply(candidates, context) -> candidates`` with final scores (``context`` carries the
        clock, the query's gate count and the access ledger).

    Exactly one policy runs per search, chosen by name (``--decay NAME``, ``search.decay`` in the
    config file; default ``gated-exp``). The policy runs after fusion and after the 10 % trim.

    Example::

        @hookimpl
        def carto_register_decay_policies(register):
            register(NoDecay)
    """


@hookspec
def carto_register_fact_verbs(register):
    """Register fact verbs: deterministic folds over the corpus (``carto facts VERB``).

    :param register: ``register(verb_class)``. The class sets a unique ``name`` and implements
        ``run(corpus, request) -> dict`` returning the verb's ``facts`` object. Class flags tell
        the engine what to load: ``needs_corpus = False`` (the verb reads logs itself, as
        ``delta`` does) and ``columns_only = True`` (the persisted columns cache suffices, as for
        ``census`` and ``tempo``; see ``carto_core.facts.store``).

    Facts answer "what is true" with counts that carry sample event_ids; a verb never ranks and
    never writes telemetry. Verbs are selected by name.

    Example::

        @hookimpl
        def carto_register_fact_verbs(register):
            register(CensusVerb)
    """


@hookspec
def carto_register_embedders(register):
    """Register embedders for the semantic ladder.

    :param register: ``register(embedder_class)``. The class subclasses
        :class:`carto_core.semantic.embedder.Embedder`, sets a unique ``name`` and implements
        ``model_tag`` (a string every stored vector carries), ``embed_documents(texts)`` and
        ``embed_query(text)`` returning float vectors (and ``fit`` when it learns from the corpus,
        as ``lsa`` does). A query embedding must not import heavy libraries.

    One embedder is used, by name (``semantic.embedder`` in the config file; default ``lsa``).
    Vectors whose model tag differs from the selected embedder's are never scored.

    Example::

        @hookimpl
        def carto_register_embedders(register):
            register(LsaEmbedder)
    """


@hookspec
def carto_register_commands(cli):
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
