"""Which segments of the embedded store a compaction merges: size tiers, a counter in base
`FANOUT` (an LSM's size-tiered policy).

A segment below full (`full` rows) is in tier t when it holds at least full / FANOUT**(TIERS-t)
rows (tier 0: anything smaller than full / FANOUT**(TIERS-1)). Once a tier holds `FANOUT`
segments, every segment of it is merged (a carry): the merged rows are written as full
segments and at most one partial one, which lands in a higher tier and, when that tier fills
in turn, is merged again in the same pass (one group, written once, not once per tier). The
top tier is merged as soon as its rows fill a full segment (a merge of it always makes one).

So a row is rewritten about once per tier on its way into a full segment, whatever the store
holds: a keep-up run that appends k rows rewrites O(k) rows amortised (plus at most a tier-0
merge, under FANOUT x full / FANOUT**(TIERS-1) rows, when k is smaller than that), where
merging every small segment into the one partial segment rewrote that segment (up to `full`
rows) at every run. Most runs merge nothing (a tier fills every `FANOUT`-th write), and at
most (FANOUT - 1) x TIERS segments below full stay per model and id width.
"""

from __future__ import annotations

from collections.abc import Sequence

#: Segments of one tier merged together once there are this many.
FANOUT = 4
#: Tiers below full. With 65,536-row segments: below 256 rows, below 1,024, below 4,096,
#: below 16,384, below 65,536.
TIERS = 5


def tier(count: int, full: int) -> int:
    """The tier (0 .. TIERS - 1) of a segment of `count` rows, `full` rows being full."""
    return sum(1 for j in range(1, TIERS) if count * FANOUT ** j >= full)


def plan(counts: Sequence[int], full: int) -> list[list[int]]:
    """Groups of indices into `counts` (the row counts of segments below `full`, of one model
    and id width) to merge, each group's indices in ascending order; every index in at most
    one group, and only groups of two or more. A group of `n` rows is written as n // full
    full segments and one of n % full rows (none when 0)."""
    pool: list[tuple[int, list[int]]] = [(int(c), [i]) for i, c in enumerate(counts)]
    done: list[list[int]] = []
    while True:
        by_tier: dict[int, list[int]] = {}
        for place, (count, _) in enumerate(pool):
            by_tier.setdefault(tier(count, full), []).append(place)
        ripe = sorted(t for t, places in by_tier.items() if len(places) >= FANOUT
                      or (t == TIERS - 1 and sum(pool[p][0] for p in places) >= full))
        if not ripe:
            break
        places = set(by_tier[ripe[0]])
        total = sum(pool[p][0] for p in places)
        members = sorted(i for p in places for i in pool[p][1])
        pool = [item for place, item in enumerate(pool) if place not in places]
        if total % full:
            pool.append((total % full, members))  # the partial segment: may carry again
        else:
            done.append(members)
    return sorted(done + [members for _, members in pool if len(members) > 1])
