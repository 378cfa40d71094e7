"""One kind of fact a generated dialogue tells and later asks about (dialogues, dialogue_c)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Topic:
    """One kind of fact. In `dialogues.TOPICS` phrasings are split between the variants (even
    indices go to `a`, odd ones to `b`), so the two sets never share a template; `ask[j]`
    paraphrases `tell[j]`."""

    name: str
    values: list[str]
    tell: list[str]        # the person tells the fact: {v}
    ask: list[str]         # a question asking for it (paraphrased, no {v})
    mention: list[str]     # the topic without the answer (distractors)
    change: list[str]      # the fact changes (temporal): {v}, and {old} when it names it
    latest: list[str]      # asks for the current state
