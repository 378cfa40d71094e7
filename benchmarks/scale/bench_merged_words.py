"""The keyword merge's vocabulary heap merge (`index_write.merged_words`) at two sizes in one
process, interleaved: is it linear in what passes through the heap? (docs/performance.md,
"merge_runs: the runs times the ranges, and what is left").

Each size is given as a generation's vocab.txt (the merged vocabulary: W distinct words), the
number of runs R its build merged and the words that passed through the heap (the sum of the
runs' vocabularies, N >= W; `keyword_phase_cpu`-style counts of a real build). Runs are made
from it: every word in one run chosen at random, and N - W more copies in other random runs
(a word shared by runs, as a common word is), each run sorted; the runs are lists in memory,
so the heap merge is timed without the files' reads. Per round and size: the CPU of
merged_words over the runs, of reading them alone (the same items, no heap), and the
comparisons the heap made (`str.__lt__` counted through a wrapper in a separate pass).

    nice -n 10 .venv/bin/python benchmarks/scale/bench_merged_words.py \\
        --size VOCAB_1M 26 1546851 --size VOCAB_3M 79 4637251 --rounds 3
"""

from __future__ import annotations

import argparse
import heapq
import statistics
import sys
import time

import numpy as np


def runs_of(vocab: str, runs: int, items: int, seed: int) -> list[list[str]]:
    with open(vocab, encoding="utf-8") as handle:
        words = handle.read().split("\n")
    rng = np.random.default_rng(seed)
    owner = rng.integers(0, runs, len(words))
    extra_words = rng.integers(0, len(words), max(0, items - len(words)))
    extra_runs = rng.integers(0, runs, len(extra_words))
    out: list[list[str]] = [[] for _ in range(runs)]
    for word, run in zip(words, owner.tolist()):
        out[run].append(word)
    for word, run in zip(extra_words.tolist(), extra_runs.tolist()):
        out[run].append(words[word])
    return [sorted(set(run)) for run in out]


class Counted(str):
    compared = 0

    def __lt__(self, other):
        Counted.compared += 1
        return str.__lt__(self, other)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", nargs=3, action="append", required=True,
                        metavar=("VOCAB", "RUNS", "ITEMS"))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    from carto_core.search.index_write import merged_words

    sizes = []
    for vocab, runs, items in args.size:
        made = runs_of(vocab, int(runs), int(items), seed=1)
        total = sum(map(len, made))
        Counted.compared = 0
        sum(1 for _ in heapq.merge(*([Counted(w) for w in run] for run in made)))
        sizes.append((vocab, int(runs), made, total, Counted.compared))
        print(f"{vocab}: {runs} runs, {total} items through the heap, "
              f"{Counted.compared} comparisons ({Counted.compared / total:.2f} an item)", flush=True)
    times: dict[int, list[tuple[float, float]]] = {i: [] for i in range(len(sizes))}
    for round_ in range(args.rounds):
        for i, (_vocab, _runs, made, total, _) in enumerate(sizes):
            start = time.process_time()
            distinct = sum(1 for _ in merged_words(made))
            heap = time.process_time() - start
            start = time.process_time()
            sum(1 for run in made for _ in run)
            read = time.process_time() - start
            times[i].append((heap, read))
            print(f"round {round_ + 1} size {i + 1}: merged_words {heap:.2f} s ({heap / total * 1e9:.0f} ns "
                  f"an item, {distinct} distinct), reading alone {read:.2f} s", flush=True)
    first = None
    for i, (vocab, runs, made, total, compared) in enumerate(sizes):
        heap = statistics.median(t[0] for t in times[i])
        line = (f"size {i + 1}: {runs} runs, {total} items, merged_words {heap:.2f} s median, "
                f"{heap / total * 1e9:.0f} ns an item, {compared / total:.2f} comparisons an item")
        if first is None:
            first = (total, heap, compared)
        else:
            line += (f"; vs size 1: items {total / first[0]:.2f}x, CPU {heap / first[1]:.2f}x, "
                     f"comparisons {compared / first[2]:.2f}x")
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
