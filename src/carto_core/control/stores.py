"""Bringing the derived stores in line with logs that lost rows, by patching them, not by
dropping them: search keeps its keyword index, its facts cache and its semantic ladder at every
moment. Used by `carto forget` (events taken out) and `carto repair redact` (rows whose text
changed).

- keyword index (`<home>/.carto/search/`): the rewritten logs are patched in
  (`KeywordIndex.refresh`, `patch_rewritten`: a document whose rows are gone is retired, the
  forgotten ids named so that a copy in another log does not force a rebuild), the generation
  saved without the retired documents, their words and their projects, types and sessions,
  and every other generation folder removed (an older one would still hold the text);
- facts columns (`<home>/.carto/facts/columns.bin`): patched the same way (`open_columns`);
  the session summaries made from them (`<home>/.carto/sessions/summaries.json`) deleted;
- vectors (the configured store): the forgotten or changed events' vectors deleted; the others
  stay, so the semantic ladder keeps answering (a changed row is embedded again by the next
  keep-up);
- `profile.md`, written by `carto profile` from the logs: written again.
"""

from __future__ import annotations

import shutil
from collections.abc import Collection
from pathlib import Path

from carto_core.logio.home import Home


def patch_keyword_index(home: Home, forgotten: Collection[str] = ()) -> dict:
    """The keyword index after a rewrite of its logs: patched (or rebuilt when a patch cannot
    follow), saved, older generations removed. Nothing when the home has no index."""
    base = home.state / "search"
    if not base.is_dir():
        return {"outcome": "none"}
    from carto_core.search.index import KeywordIndex

    index = KeywordIndex.load(home)
    if index is None:
        # Another version or analyzer: unreadable by this carto, but its files hold the old
        # text. A fresh build replaces it.
        index = KeywordIndex.build(home)
        outcome = "rebuilt"
    else:
        outcome = index.refresh(forgotten=set(forgotten))
        if outcome == "rebuild":
            index = KeywordIndex.build(home)
            outcome = "rebuilt"
        elif index.patched or index.tail_docs or len(index.segments) > 1:
            index.save()
    removed = remove_other_generations(base)
    return {"outcome": outcome, "documents": int(index.n_alive), "removed_generations": removed}


def remove_other_generations(base: Path) -> int:
    """Remove every finished generation folder but the one CURRENT names (a reader that has one
    open keeps its mapped files). Unfinished `.tmp` folders are another writer's, left alone."""
    try:
        from carto_core.search.index_view import read_current

        current = read_current(base)
    except OSError:
        return 0
    removed = 0
    for entry in base.iterdir():
        if entry.is_dir() and entry.name.startswith("gen-") and not entry.name.endswith(".tmp") \
                and entry.name != current:
            shutil.rmtree(entry, ignore_errors=True)
            removed += 1
    return removed


def patch_facts(home: Home, forgotten: Collection[str] = ()) -> dict:
    """The facts columns after a rewrite of their logs, patched and saved. Nothing when the
    home has no cache."""
    from carto_core.facts.store import cache_path, open_columns
    from carto_core.lenses.sessionstore import cache_path as summaries_path

    # The session summaries `carto sessions` keeps name the rows' projects and transcripts:
    # gone with them (the next `carto sessions` summarises again from the patched columns).
    summaries_path(home).unlink(missing_ok=True)
    if not cache_path(home).exists():
        return {"outcome": "none"}
    opened = open_columns(home, forgotten=set(forgotten))
    return {"outcome": opened.state, "events": opened.columns.n}


def delete_vectors(home: Home, event_ids: Collection[str]) -> dict:
    """Delete the events' vectors of every model from the configured store. An embedded store
    that does not exist is left alone; a server that cannot be reached is reported."""
    from carto_core.semantic.settings import SemanticSettings
    from carto_core.semantic.store import vectors_dir

    settings = SemanticSettings.load()
    if settings.store_kind != "qdrant" and not (vectors_dir(home) / "manifest.json").exists():
        return {"outcome": "none"}
    ids = sorted(event_ids)
    try:
        from carto_core.semantic.stores import open_store

        store = open_store(home, settings)
        try:
            deleted = {}
            for model in sorted(store.models()):
                deleted[model] = store.delete(model, ids) if ids else 0
        finally:
            store.close()
    except Exception as exc:  # noqa: BLE001 - a store that cannot be reached: said, not fatal
        return {"outcome": "failed", "error": f"{type(exc).__name__}: {exc}"}
    return {"outcome": "patched", "deleted": deleted}


def rewrite_profile(home: Home) -> dict:
    """`<home>/.carto/profile.md` written again from the logs as they are now (it is `carto
    profile`'s default output, built with its defaults)."""
    path = home.state / "profile.md"
    if not path.exists():
        return {"outcome": "none"}
    from carto_core.lenses.profile import build_profile, write_profile

    write_profile(home, build_profile(home))
    return {"outcome": "rewritten"}
