"""A row's `salience` as a number, by the one rule every reader applies (the Event, the keyword
index and its unsaved tail): a number or a numeric string, None otherwise (a bool is not a
salience). Stdlib only: the prompt-time recall reads the tail inside the agent's hook."""

from __future__ import annotations


def as_number(value: object) -> float | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, str):
        try:
            return float(value)
        except ValueError:
            return None
    return None
