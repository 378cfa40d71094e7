"""`carto eval`: the age-curve known-item harness and recency cases (filled in below)."""

from __future__ import annotations

import click


@click.command("eval")
def eval_command() -> None:
    """Evaluate rankers and decay policies on a home (in progress: see issue 3)."""
    raise SystemExit(1)
