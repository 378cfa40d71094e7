"""`index_write._live_words` on a built keyword index's vocabulary: the words of vocab.txt
checked against its own term hashes (all live), in blocks as `merge_runs` does, against the
same loop searching each block's hashes in the words' order (the code before the sort), one
after the other in this process, `--rounds` times (medians of process CPU):

    nice -n 10 .venv/bin/python benchmarks/scale/bench_live_words.py HOME/.carto/search/gen-* --rounds 3
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from itertools import islice
from pathlib import Path

import numpy as np

from carto_core.search.index_write import _live_words
from carto_core.search.tokens import term_hash


def unsorted_live_words(words, live, block: int = 1 << 16):
    """The peer: each block's hashes searched in the order of its words."""
    while batch := list(islice(words, block)):
        if not len(live):
            return
        hashes = np.fromiter(map(term_hash, batch), np.uint64, len(batch))
        at = np.minimum(live.searchsorted(hashes), len(live) - 1)
        yield from (word for word, ok in zip(batch, (live[at] == hashes).tolist()) if ok)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("generation", type=Path)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    words = (args.generation / "vocab.txt").read_text("utf-8").split("\n")
    live = np.sort(np.load(args.generation / "post_terms.npy"))
    spent: dict[str, list[float]] = {"sorted": [], "unsorted": []}
    for round_ in range(args.rounds):
        for name, function in (("unsorted", unsorted_live_words), ("sorted", _live_words)):
            start = time.process_time()
            kept = sum(1 for _ in function(iter(words), live))
            spent[name].append(time.process_time() - start)
            assert kept == len(words), (name, kept, len(words))
            print(f"round {round_ + 1} {name}: {spent[name][-1]:.2f} s CPU", file=sys.stderr, flush=True)
    medians = {name: statistics.median(values) for name, values in spent.items()}
    print(f"{len(words):,} words: unsorted {medians['unsorted']:.2f} s, sorted {medians['sorted']:.2f} s "
          f"({medians['sorted'] / medians['unsorted']:.3f}x)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
