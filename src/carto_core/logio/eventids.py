"""Event ids -> event numbers for builds that stream millions of rows, in 16 bytes an id.

A dict of millions of ids is large (docs/performance.md); this table keeps, per id, a 96-bit fingerprint
(Python's 64-bit string hash and a CRC-32 of the UTF-8 bytes) and the number (int32), 16 bytes
in all, in sorted numpy runs. Two distinct ids collide only if both hashes agree: about
n^2 / 2^97 for n ids (1e-16 at three million), so the table is used as exact. Python's string
hash changes per process, so a table lives in one process and is never persisted.

Runs: `add` appends a sorted run; small runs are merged with each other as a binary counter
(about log2 of their count stay), and into the main one when they add up to an eighth of it
(the small runs sorted together, then inserted into the main run: no sort of the whole table,
and at most about 24 bytes an id alive while it merges), so a lookup bisects a few runs.
"""

from __future__ import annotations

import zlib

import numpy as np

#: Event numbers are below 2**31 (an index holds int32 document numbers): 16 bytes an id.
_EMPTY = (np.zeros(0, np.int64), np.zeros(0, np.uint32), np.zeros(0, np.int32))


def fingerprints(ids: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """(64-bit hash, CRC-32) of each id."""
    keys = np.fromiter(map(hash, ids), np.int64, len(ids))
    crc = zlib.crc32
    checks = np.fromiter((crc(i.encode("utf-8", "surrogatepass")) for i in ids), np.uint32, len(ids))
    return keys, checks


class EventIds:
    """Fingerprint -> number, exact in practice (see the module docstring)."""

    MERGE_MIN = 1 << 16

    def __init__(self):
        self._runs: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = [_EMPTY]
        self._pending = 0

    def __len__(self) -> int:
        return sum(len(run[0]) for run in self._runs)

    def find(self, keys: np.ndarray, checks: np.ndarray) -> np.ndarray:
        """The number of each fingerprint, -1 where absent."""
        out = np.full(len(keys), -1, np.int64)
        if not len(keys):
            return out
        # the wanted keys in order: numpy's binary search then starts each key where the
        # previous one ended
        order = np.argsort(keys)
        wanted = keys[order]
        for run_keys, run_checks, run_numbers in self._runs:
            size = len(run_keys)
            if not size:
                continue
            lo = run_keys.searchsorted(wanted, "left")
            at = np.minimum(lo, size - 1)
            hit = np.flatnonzero((lo < size) & (run_keys[at] == wanted))
            if not len(hit):
                continue
            pos = lo[hit]
            after = np.minimum(pos + 1, size - 1)
            shared = (pos + 1 < size) & (run_keys[after] == wanted[hit])
            single, pos = hit[~shared], pos[~shared]
            ok = run_checks[pos] == checks[order[single]]
            out[order[single[ok]]] = run_numbers[pos[ok]]
            for i in hit[shared]:  # a 64-bit hash shared: compare the CRCs
                p, key, check = int(lo[i]), wanted[i], checks[order[i]]
                while p < size and run_keys[p] == key:
                    if run_checks[p] == check:
                        out[order[i]] = run_numbers[p]
                    p += 1
        return out

    def add(self, keys: np.ndarray, checks: np.ndarray, numbers: np.ndarray) -> None:
        """Add fingerprints that are not in the table yet (the caller checked with `find`)."""
        if not len(keys):
            return
        order = np.argsort(keys, kind="stable")
        self._runs.append((keys[order], checks[order], np.asarray(numbers, np.int32)[order]))
        self._pending += len(keys)
        if self._pending >= max(self.MERGE_MIN, len(self._runs[0][0]) // 8):
            self._merge()
            return
        # The small runs as a binary counter: the newest merged into the one before while that
        # one is no larger, so they stay about log2(pending / chunk) runs. Each of them is
        # searched on every lookup: with a run per chunk until an eighth of the main run
        # had come in, the fold's lookups grew far faster than the ids (docs/performance.md,
        # "Scale").
        runs = self._runs
        while len(runs) > 2 and len(runs[-2][0]) <= len(runs[-1][0]):
            newer, older = runs.pop(), runs.pop()
            parts = [np.concatenate([older[k], newer[k]]) for k in range(3)]
            order = np.argsort(parts[0], kind="stable")
            runs.append(tuple(part[order] for part in parts))

    def repoint(self, keys: np.ndarray, checks: np.ndarray, numbers: np.ndarray) -> None:
        """Give fingerprints already in the table new numbers (a newer row took the id over)."""
        for run_keys, run_checks, run_numbers in self._runs:
            if not len(run_keys):
                continue
            lo = run_keys.searchsorted(keys, "left")
            hi = run_keys.searchsorted(keys, "right")
            for i in np.flatnonzero(hi > lo):
                for p in range(lo[i], hi[i]):
                    if run_checks[p] == checks[i]:
                        run_numbers[p] = numbers[i]

    def _merge(self) -> None:
        main, runs = list(self._runs[0]), self._runs[1:]
        self._runs = []
        parts = [np.concatenate([run[k] for run in runs]) for k in range(3)]
        del runs
        order = np.argsort(parts[0], kind="stable")
        parts = [part[order] for part in parts]
        at = main[0].searchsorted(parts[0], "right")
        merged = []
        for k in range(3):  # one column at a time: the old one goes as its merge is made
            merged.append(np.insert(main[k], at, parts[k]))
            main[k] = parts[k] = None
        self._runs = [tuple(merged)]
        self._pending = 0
