"""Opening the configured vector store: the embedded one (numpy, memory-mapped) by default,
Qdrant (and `qdrant_client`, ~0.8 s to import) only when configured.

Apart from `store.py` (the interface every store implements) so that the interface does not
import its implementations, which import it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from carto_core.semantic.store import VectorStore, vectors_dir

if TYPE_CHECKING:
    from carto_core.logio.home import Home
    from carto_core.semantic.settings import SemanticSettings


def open_store(home: "Home", settings: "SemanticSettings") -> VectorStore:
    """The configured store. Qdrant (and qdrant_client) only when configured."""
    if settings.store_kind == "qdrant":
        from carto_core.semantic.qdrant import QdrantStore

        return QdrantStore(url=settings.qdrant_url or None, api_key=settings.qdrant_api_key or None,
                           path=settings.qdrant_path or None, collection=settings.collection)
    from carto_core.semantic.embedded import EmbeddedStore

    return EmbeddedStore(vectors_dir(home))
