"""`wordllama`: a pretrained static embedder that ships inside its wheel (offline, no fit).

wordllama (PyPI `wordllama`, MIT) is the token-embedding table of a large language model
distilled to 256 dimensions (`l2_supercat_256`, Llama 2's 32,000-token vocabulary); a text's
vector is the mean of its tokens' rows, normalised. Its wheel holds the weights
(`wordllama/weights/l2_supercat_256.safetensors`) and the tokenizer
(`wordllama/tokenizers/l2_supercat_tokenizer_config.json`). `WordLlama.load` looks for the
tokenizer under `wordllama/tokenizer/` (a wrong folder name) before the cache folder, so it is
loaded with `cache_dir` set to the package folder and downloads disabled; nothing here ever
reaches the network.

Two paths, the same vectors (tested):

- documents (`carto index`): `WordLlama.load(..., cache_dir=<package>, disable_download=True)`
  and its tokenizer (Hugging Face `tokenizers`, fast in batches);
- a query (`carto search`): no `wordllama` import (requests, pydantic) and no
  `tokenizers` (nor reading its JSON; docs/performance.md): the weights are memory-mapped
  straight from the safetensors file with numpy, and the query is tokenized by a small BPE
  (Llama 2's: spaces become U+2581, one leading U+2581, merges by rank, bytes as `<0xXX>` for
  characters outside the vocabulary) over hashed vocabulary/merge tables written once (from
  the tokenizer JSON) under `<home>/.carto/embedders/wordllama/` and memory-mapped.
"""

from __future__ import annotations

import json
import os
import struct
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from carto_core.api import Embedder, EmbedderUnavailable, make_dirs, map_npy, save_npy, term_hash
from carto_rankers.embedders.packages import installed_folder

CONFIG = "l2_supercat"
DIMS = 256
WEIGHTS = f"weights/{CONFIG}_{DIMS}.safetensors"
TOKENIZER = f"tokenizers/{CONFIG}_tokenizer_config.json"
SPACE = "\u2581"


_FOLDER: list = []
_VERSION: list = []


def package_folder() -> Path | None:
    """The installed wordllama folder, found without importing the package."""
    if not _FOLDER:
        found = installed_folder("wordllama")
        if found is None:
            return None
        _FOLDER.append(found)
    return _FOLDER[0]


def package_version() -> str:
    """wordllama's version, read from its `_version.py` (importlib.metadata is costly for a
    cold query; the package itself far more)."""
    if _VERSION:
        return _VERSION[0]
    import re

    folder = package_folder()
    found = None
    if folder is not None:
        try:
            found = re.search(r"""^__version__\s*=\s*(?:version\s*=\s*)?['"]([^'"]+)['"]""",
                              (folder / "_version.py").read_text("utf-8"), re.MULTILINE)
        except OSError:
            found = None
    if found:
        _VERSION.append(found.group(1))
    else:
        from importlib import metadata

        try:
            _VERSION.append(metadata.version("wordllama"))
        except metadata.PackageNotFoundError:
            return "?"
    return _VERSION[0]


def load_weights(path: Path) -> np.ndarray:
    """The embedding table of a safetensors file, memory-mapped (format: an 8-byte header
    length, a JSON header naming dtype, shape and byte offsets, then the raw tensors)."""
    with open(path, "rb") as handle:
        size = struct.unpack("<Q", handle.read(8))[0]
        header = json.loads(handle.read(size))
    entry = header.get("embedding.weight") or next(v for k, v in header.items() if k != "__metadata__")
    dtype = {"F16": np.float16, "F32": np.float32, "BF16": None}[entry["dtype"]]
    if dtype is None:
        raise EmbedderUnavailable(f"{path.name}: bfloat16 weights are not supported")
    start, end = entry["data_offsets"]
    rows, dims = entry["shape"]
    return np.memmap(path, dtype=dtype, mode="r", offset=8 + size + start, shape=(rows, dims))


class BPE:
    """Llama 2's SentencePiece-style BPE as the tokenizer JSON defines it (normalizer:
    prepend U+2581, spaces to U+2581; no pre-tokenizer; byte fallback). `rank_of(a, b)` and
    `id_of(symbol)` answer from dicts (`from_json`) or from hashed arrays (`HashedTables`)."""

    def __init__(self, rank_of, id_of):
        self.rank_of = rank_of
        self.id_of = id_of

    @classmethod
    def from_json(cls, path: Path) -> "BPE":
        vocab, ranks = read_tables(path)
        return cls(lambda a, b: ranks.get((a, b)), vocab.get)

    def ids(self, text: str) -> list[int]:
        """The token ids of `text`: each step merges the adjacent pair of lowest rank (the
        leftmost among equals), as the tokenizer does. The pairs wait in a heap keyed by
        (rank, position) and the symbols form a linked list, so a text of n symbols costs
        O(n log n) lookups, not a rescan of every pair per merge (quadratic: 1,000 words took
        seconds). A heap entry whose pair has since changed is skipped when it comes up."""
        if not text:
            return []
        import heapq

        rank_of, id_of = self.rank_of, self.id_of
        symbols: list[str | None] = []
        for ch in SPACE + text.replace(" ", SPACE):
            if id_of(ch) is not None:
                symbols.append(ch)
            else:
                symbols.extend(f"<0x{b:02X}>" for b in ch.encode("utf-8"))
        count = len(symbols)
        following = list(range(1, count + 1))
        preceding = list(range(-1, count - 1))
        heap = []
        for i in range(count - 1):
            rank = rank_of(symbols[i], symbols[i + 1])
            if rank is not None:
                heap.append((rank, i, symbols[i], symbols[i + 1]))
        heapq.heapify(heap)
        while heap:
            _, left, a, b = heapq.heappop(heap)
            right = following[left]
            if symbols[left] != a or right >= count or symbols[right] != b:
                continue  # stale: one side was merged into something else since
            merged = a + b
            symbols[left], symbols[right] = merged, None
            after = following[left] = following[right]
            if after < count:
                preceding[after] = left
            before = preceding[left]
            if before >= 0:
                rank = rank_of(symbols[before], merged)
                if rank is not None:
                    heapq.heappush(heap, (rank, before, symbols[before], merged))
            if after < count:
                rank = rank_of(merged, symbols[after])
                if rank is not None:
                    heapq.heappush(heap, (rank, left, merged, symbols[after]))
        unk = id_of("<unk>") or 0
        return [id_of(s) if id_of(s) is not None else unk for s in symbols if s is not None]


def read_tables(path: Path) -> tuple[dict[str, int], dict[tuple[str, str], int]]:
    model = json.loads(path.read_text("utf-8"))["model"]
    pairs = [tuple(m.split(" ", 1)) if isinstance(m, str) else tuple(m) for m in model["merges"]]
    return dict(model["vocab"]), {pair: rank for rank, pair in enumerate(pairs)}


def _h(text: str) -> int:
    return term_hash(text)


class HashedTables:
    """The vocabulary and merge ranks as sorted 64-bit hashes (blake2b of the symbol, or of
    "a b" for a merge) with their values, saved as .npy and memory-mapped: a query looks up
    the few pairs it meets instead of loading every merge into a dict."""

    FILES = ("vocab_hash", "vocab_id", "merge_hash", "merge_rank")

    def __init__(self, folder: Path):
        self.arrays = {n: map_npy(folder / f"{n}.npy") for n in self.FILES}
        self._memo: dict[str, int | None] = {}

    @classmethod
    def write(cls, folder: Path, tokenizer_json: Path) -> None:
        vocab, ranks = read_tables(tokenizer_json)
        make_dirs(folder)
        tmp = folder.with_name(f".{folder.name}.{os.getpid()}.tmp")
        make_dirs(tmp)
        for name, keys, values in (
                ("vocab", [_h(s) for s in vocab], list(vocab.values())),
                ("merge", [_h(f"{a} {b}") for a, b in ranks], list(ranks.values()))):
            keys = np.array(keys, np.uint64)
            order = np.argsort(keys)
            save_npy(tmp / f"{name}_hash.npy", keys[order])
            save_npy(tmp / f"{name}_{'id' if name == 'vocab' else 'rank'}.npy",
                     np.array(values, np.int32)[order])
        for name in cls.FILES:
            os.replace(tmp / f"{name}.npy", folder / f"{name}.npy")
        tmp.rmdir()

    def _find(self, keys: str, values: str, text: str) -> int | None:
        memo_key = keys + text
        if memo_key in self._memo:
            return self._memo[memo_key]
        hashes = self.arrays[keys]
        h = np.uint64(_h(text))
        i = int(hashes.searchsorted(h))
        found = int(self.arrays[values][i]) if i < len(hashes) and hashes[i] == h else None
        self._memo[memo_key] = found
        return found

    def id_of(self, symbol: str) -> int | None:
        return self._find("vocab_hash", "vocab_id", symbol)

    def rank_of(self, a: str, b: str) -> int | None:
        return self._find("merge_hash", "merge_rank", f"{a} {b}")


class WordLlamaEmbedder(Embedder):
    name = "wordllama"
    description = "wordllama l2_supercat 256-d static embeddings, shipped in its wheel (offline, no fit)"
    needs_fit = False
    #: Averaged static vectors are close together: measured, a 0.3 floor dropped evidence
    #: turns (conversational hit@10 0.51 -> 0.56 at 0.1; docs/ranking.md).
    min_score = 0.1
    #: Measured (semantic ladder alone, docs/ranking.md): conversational hit@10 0.62 -> 0.71
    #: and 0.79 -> 0.82 on the two dialogue sets when the query is its content words.
    content_query = True
    #: Centred queries (the home's mean vector taken off the query; docs/ranking.md, "Centred
    #: queries"): measured, conversational hit@10 a 0.82 -> 0.83, b 0.82 -> 0.95, d 0.60 ->
    #: 0.70, known-item and recency unchanged. 1: the plain mean, not a tuned share.
    centre = 1.0
    #: Its ladder weighs up to twice as much (a keyword ladder's weight) for a question no
    #: keyword candidate covers (docs/ranking.md, "The semantic ladder weighs what the keyword
    #: side does not cover"): measured, hit@1 / MRR up on a, b, c and d with the question step.
    uncovered_lift = 1.0
    #: A search whose best hit scores under this cosine (and no keyword match covers the
    #: question) found nothing: the highest floor that cost no dialogue set an answer in its
    #: top 10. No band: its word vectors cannot tell a vague question's answer from an unseen
    #: question's neighbour, and records held to a band lost the commit questions
    #: (docs/ranking.md, "wordllama's floor").
    evidence_floor = 0.22

    def __init__(self, home, options=None):
        super().__init__(home, options)
        self._weights: np.ndarray | None = None
        self._bpe: BPE | None = None
        self._fast = None
        self._unpadded = None

    # ---- availability

    def _package(self) -> Path:
        folder = package_folder()
        if folder is None or not (folder / WEIGHTS).is_file() or not (folder / TOKENIZER).is_file():
            raise EmbedderUnavailable("the wordllama package (with its weights) is not installed",
                                      fix="pip install wordllama")
        return folder

    def check(self) -> None:
        self._package()

    @property
    def model_tag(self) -> str:
        return f"wordllama-{CONFIG}-{DIMS}-{package_version()}"

    # ---- the model

    def weights(self) -> np.ndarray:
        if self._weights is None:
            self._weights = load_weights(self._package() / WEIGHTS)
        return self._weights

    @property
    def tables_folder(self) -> Path:
        return self.home.state / "embedders" / "wordllama" / f"bpe-{package_version()}"

    def bpe(self) -> BPE:
        if self._bpe is None:
            folder = self.tables_folder
            try:
                tables = HashedTables(folder)
            except (OSError, ValueError):
                try:
                    HashedTables.write(folder, self._package() / TOKENIZER)
                    tables = HashedTables(folder)
                except OSError:  # a read-only home: the dict tables, slower to load
                    self._bpe = BPE.from_json(self._package() / TOKENIZER)
                    return self._bpe
            self._bpe = BPE(tables.rank_of, tables.id_of)
        return self._bpe

    def fast_model(self):
        """wordllama's own loader (documents): cache_dir at the package folder, no download."""
        if self._fast is None:
            from wordllama import WordLlama

            self._fast = WordLlama.load(config=CONFIG, dim=DIMS, cache_dir=self._package(),
                                        disable_download=True)
        return self._fast

    # ---- embedding

    def _pool(self, id_lists: Sequence[Sequence[int]]) -> np.ndarray:
        table = self.weights()
        out = np.zeros((len(id_lists), table.shape[1]), np.float32)
        for row, ids in enumerate(id_lists):
            if len(ids):
                vector = np.asarray(table[np.minimum(np.asarray(ids), len(table) - 1)],
                                    np.float32).mean(axis=0)
                norm = float(np.linalg.norm(vector))
                out[row] = vector / norm if norm else vector
        return out

    def _batch_tokenizer(self):
        """wordllama's tokenizer without its padding: a batch padded to its longest text costs
        twice the encoding and a mask filter per id (measured on turns: 2.4 + 0.4 s -> 1.1 s
        for 2,048 texts), for the same ids. Read from the package's tokenizer file, not taken
        from `fast_model()`: loading wordllama's model (its weights, which documents do not
        use: `_pool` reads `weights()`) and copying its tokenizer was most of a keep-up run's
        fixed cost (docs/performance.md, "The keep-up step at a million events"); the ids
        are the same (tests/test_wordllama.py)."""
        if self._unpadded is None:
            from tokenizers import Tokenizer

            tokenizer = Tokenizer.from_file(str(self._package() / TOKENIZER))
            tokenizer.no_padding()
            self._unpadded = tokenizer
        return self._unpadded

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        encoded = self._batch_tokenizer().encode_batch(list(texts), add_special_tokens=False)
        return self._pool([e.ids for e in encoded])

    def embed_query(self, text: str) -> np.ndarray:
        return self._pool([self.bpe().ids(text)])[0]
