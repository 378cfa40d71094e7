"""The decay policies' knobs (from the environment) and the reuse boost: what every caller of
a decay policy computes the same way, `run_search` and the stdlib UserPromptSubmit recall
alike. Stdlib only (no numpy), so the hook path can share it.
"""

from __future__ import annotations

import math
import os

from carto_core.search.api import SearchUsageError


#: gated-prior's recency prior for a question in one's own words that does not ask for the
#: latest state ("what did you suggest for my loaves?"): none. It asks for a memory of any
#: age; under rank fusion's flat scores (rank 1 and rank 15 of a ladder 20 % apart) a prior
#: of 0.25 reordered the ladder's first fifteen by their dates (docs/ranking.md, "No recency
#: prior for a question that does not ask for the latest state").
QUESTION_BETA = 0.0


def _env_float(names: tuple[str, ...], default: float) -> float:
    for name in names:
        value = os.environ.get(name)
        if value:
            try:
                return float(value)
            except ValueError:
                raise SearchUsageError(f"{name}={value!r} is not a number") from None
    return default


def decay_parameters() -> dict:
    """Decay knobs from the environment (upstream names accepted)."""
    return {
        "lambda_per_hour": _env_float(("CARTO_DECAY_LAMBDA", "CARTOGRAPHER_DECAY_LAMBDA"), 0.001),
        "reuse_weight": _env_float(("CARTO_REUSE_WEIGHT", "CARTOGRAPHER_REUSE_WEIGHT"), 0.3),
        "lookup_max": int(_env_float(("CARTO_DECAY_LOOKUP_MAX", "CARTOGRAPHER_DECAY_LOOKUP_MAX"), 10)),
        "lift": _env_float(("CARTO_DECAY_LIFT", "CARTOGRAPHER_DECAY_LIFT"), 3.0),
        "prior_beta": _env_float(("CARTO_DECAY_PRIOR_BETA",), 0.25),
        "question_beta": _env_float(("CARTO_DECAY_QUESTION_BETA",), QUESTION_BETA),
        "vague_lambda": _env_float(("CARTO_DECAY_VAGUE_LAMBDA",), 0.2),
    }


def hours_since(now: float, then: float) -> float:
    return max(0.0, (now - then) / 3600.0)


def reuse_boost(now: float, accesses: list[float], weight: float) -> float:
    if not accesses or weight <= 0:
        return 1.0
    total = sum(1.0 / math.sqrt(max(0.02, (now - t) / 86400.0)) for t in accesses)
    return min(2.0, 1.0 + weight * total)
