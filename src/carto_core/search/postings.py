"""Posting lists in CSR form (`Segment`) and merging segments: the keyword index's inverted
file, numpy arrays only.
"""

from __future__ import annotations

import mmap
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from carto_core.util.records import Record


class Segment(Record):
    """Posting lists in CSR form: `terms` (sorted uint64 hashes), `offsets` (len V+1),
    `docs` (int32 document indices, increasing within a term), `tfs` (uint16), and `dls`
    (float32 length of each posting's document: contiguous next to its tf, so scoring a term
    reads two slices instead of gathering lengths from all over the corpus). A plain record
    (carto_core.util.records: no dataclass to generate on every cold search)."""

    _fields = ("terms", "offsets", "docs", "tfs", "dls", "words")
    terms: np.ndarray
    offsets: np.ndarray
    docs: np.ndarray
    tfs: np.ndarray
    dls: np.ndarray | None
    #: The terms themselves, sorted (prefix queries): a list, a path read on first use, or a
    #: file mapped when the generation was opened (it outlives the file's removal).
    words: "list[str] | Path | mmap.mmap | None"

    def __init__(self, terms: np.ndarray, offsets: np.ndarray, docs: np.ndarray, tfs: np.ndarray,
                 dls: np.ndarray | None = None, words: "list[str] | Path | mmap.mmap | None" = None):
        self.terms = terms
        self.offsets = offsets
        self.docs = docs
        self.tfs = tfs
        self.dls = dls
        self.words = words

    @classmethod
    def empty(cls) -> "Segment":
        return cls(np.zeros(0, np.uint64), np.zeros(1, np.int64), np.zeros(0, np.int32),
                   np.zeros(0, np.uint16))

    @classmethod
    def from_postings(cls, term_ids: np.ndarray, docs: np.ndarray, tfs: np.ndarray,
                      hashes: np.ndarray) -> "Segment":
        """Build from parallel posting arrays; `hashes[term_id]` is each term's hash."""
        if len(docs) == 0:
            return cls.empty()
        keys = hashes[term_ids]
        # a builder's postings come in document order: one stable sort by term then keeps
        # them in it (what the lexsort by term then document gives, at half its cost)
        order = (np.argsort(keys, kind="stable") if (docs[1:] >= docs[:-1]).all()
                 else np.lexsort((docs, keys)))
        keys = keys[order]
        uniq, starts = np.unique(keys, return_index=True)
        offsets = np.empty(len(uniq) + 1, np.int64)
        offsets[:-1] = starts
        offsets[-1] = len(keys)
        return cls(uniq.astype(np.uint64), offsets, docs[order].astype(np.int32),
                   np.minimum(tfs[order], 65535).astype(np.uint16))

    def lookup(self, h: np.uint64) -> tuple[int, int]:
        """(start, end) of a term's postings; (0, 0) when absent."""
        terms = self.terms
        i = int(terms.searchsorted(h))
        if i < len(terms) and terms[i] == h:
            return int(self.offsets[i]), int(self.offsets[i + 1])
        return 0, 0

    def sorted_words(self) -> list[str]:
        if isinstance(self.words, mmap.mmap):
            self.words = list(iter_words(self.words))
        elif isinstance(self.words, Path):
            try:
                text = self.words.read_text("utf-8")
            except OSError:
                text = ""
            self.words = text.split("\n") if text else []
        return self.words or []

    def expanded_terms(self) -> np.ndarray:
        return np.repeat(self.terms, np.diff(self.offsets))

    def __len__(self) -> int:
        return int(len(self.docs))


def map_words(path: Path) -> "mmap.mmap | list[str]":
    """A vocabulary file (one word a line) mapped: a reader keeps it even once a newer
    generation has removed the file (POSIX keeps an unlinked file's mapped pages)."""
    with open(path, "rb") as handle:
        if not handle.seek(0, 2):
            return []
        return mmap.mmap(handle.fileno(), 0, access=mmap.ACCESS_READ)


def iter_words(source) -> Iterator[str]:
    """The words of a sorted word list, in order, one at a time: a list, a file of one word a
    line, or such a file mapped (`map_words`)."""
    if isinstance(source, mmap.mmap):
        start, end = 0, len(source)
        while start < end:
            stop = source.find(b"\n", start)
            stop = end if stop < 0 else stop
            if stop > start:
                yield source[start:stop].decode("utf-8")
            start = stop + 1
    elif isinstance(source, (str, Path)):
        with open(source, encoding="utf-8") as handle:
            for line in handle:
                word = line.rstrip("\n")
                if word:
                    yield word
    else:
        yield from source or ()


def merge_segments(segments: list[Segment]) -> Segment:
    """One segment holding the postings of all of `segments` (empty ones skipped)."""
    segments = [s for s in segments if len(s)]
    if not segments:
        return Segment.empty()
    if len(segments) == 1:
        return segments[0]
    terms = np.concatenate([s.expanded_terms() for s in segments])
    docs = np.concatenate([np.asarray(s.docs) for s in segments])
    tfs = np.concatenate([np.asarray(s.tfs) for s in segments])
    order = np.lexsort((docs, terms))
    terms, docs, tfs = terms[order], docs[order], tfs[order]
    uniq, starts = np.unique(terms, return_index=True)
    offsets = np.append(starts, len(terms)).astype(np.int64)
    words = sorted(set().union(*(s.sorted_words() for s in segments)))
    return Segment(uniq, offsets, docs.astype(np.int32), tfs, words=words)
