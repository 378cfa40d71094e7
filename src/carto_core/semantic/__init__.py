"""The semantic ladder's machinery: embedder base class, vector stores, the indexer, status.

Import-light on purpose: this package root pulls in neither numpy nor qdrant_client. The
embedded store (numpy) loads when a store is opened; `qdrant_client` loads only when Qdrant is
configured (`CARTO_QDRANT_URL`, `CARTO_QDRANT_PATH` or `[semantic] qdrant_url/qdrant_path`),
because importing it costs ~0.8 s and its local mode locks its folder against other processes.

Pieces (docs/semantic.md walks through them):

- :mod:`.settings`  - what the config file and environment select (embedder, store, gate).
- :mod:`.embedder`  - the :class:`~.embedder.Embedder` base class plugins subclass.
- :mod:`.store`     - the :class:`~.store.VectorStore` interface, records, errors.
- :mod:`.stores`    - `open_store`: the configured store.
- :mod:`.embedded`  - the default store: exact cosine over memory-mapped float32 arrays.
- :mod:`.qdrant`    - the same interface over a Qdrant server or qdrant-client local mode.
- :mod:`.indexer`   - `run_index`: incremental, resumable embedding of the home's events.
- :mod:`.searcher`  - `SemanticSearcher`: status plus a scoped query, for the ladder ranker.
"""
