"""Measuring prompt-time recall: how often what it injects is relevant, and how often it stays
silent, on the conversational-recall set (`evaluation.dialogues`) and on generic prompts.

For every question of a generated dialogue home, the recall runs as the UserPromptSubmit hook
would (the persisted keyword index through `IndexView`, the configured engine, the gate) from a
new session; an injected snippet is *relevant* when it is one of the case's evidence turns (or
of another case asking the very same question).
Generic prompts ("hello there", "run the tests", ...) are asked of the same homes: anything
they inject is irrelevant by definition. `sweep` scores many gates on the same rankings.

Used by `benchmarks/recall/eval_prompt_recall.py` (the table of docs/ranking.md) and its tests.
"""

from __future__ import annotations

from dataclasses import dataclass, field

#: Prompts an agent gets all day that are about nothing earlier work could answer.
GENERIC_PROMPTS = (
    "hello there", "hi", "thanks!", "thank you, that works", "run the tests",
    "run the tests again", "continue", "go on", "yes, do it", "ok", "looks good, ship it",
    "commit this", "push it", "can you fix the failing test", "why is the build failing?",
    "what does this function do?", "please refactor this file", "add a docstring",
    "make it faster", "undo that", "explain the error", "write a unit test for this",
    "rename the variable", "format the code", "what's next?", "summarise what you did",
    "lint and fix", "start the dev server", "update the readme", "good morning",
)


@dataclass
class Tally:
    questions: int = 0
    answered: int = 0          # questions with at least one snippet injected
    first_relevant: int = 0    # questions whose first snippet is an evidence turn
    any_relevant: int = 0
    injected: int = 0          # snippets injected for questions
    relevant: int = 0          # of those, evidence turns
    generic: int = 0
    generic_injected: int = 0  # generic prompts that injected anything
    generic_snippets: int = 0
    by_category: dict = field(default_factory=dict)

    def add(self, other: "Tally") -> None:
        for name in ("questions", "answered", "first_relevant", "any_relevant", "injected",
                     "relevant", "generic", "generic_injected", "generic_snippets"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        for cat, (n, hit) in other.by_category.items():
            mine = self.by_category.setdefault(cat, [0, 0])
            mine[0] += n
            mine[1] += hit

    def summary(self) -> dict:
        snippets = self.injected + self.generic_snippets
        return {
            "questions": self.questions,
            "precision": round(self.relevant / snippets, 3) if snippets else None,
            "precision_questions": round(self.relevant / self.injected, 3) if self.injected else None,
            "silent": round(1 - self.answered / self.questions, 3) if self.questions else None,
            "first_relevant": round(self.first_relevant / self.questions, 3) if self.questions else None,
            "any_relevant": round(self.any_relevant / self.questions, 3) if self.questions else None,
            "snippets_per_answer": round(self.injected / self.answered, 2) if self.answered else 0,
            "generic": self.generic,
            "generic_silent": round(1 - self.generic_injected / self.generic, 3) if self.generic else None,
            "by_category": {c: {"questions": n, "any_relevant": round(h / n, 3) if n else None}
                            for c, (n, h) in sorted(self.by_category.items())},
        }


def evaluate_home(root, cases, gates: dict, *, now: float, generic=GENERIC_PROMPTS) -> dict:
    """{gate name: Tally} for one home (its keyword index built and persisted when missing)."""
    from carto_core.logio.home import Home
    from carto_core.recall.find import find
    from carto_core.search import lite
    from carto_core.search.engine import SearchEngine
    from carto_core.search.index_view import IndexView

    home = Home(root)
    SearchEngine(home).ensure_loaded()  # builds and persists the index when missing
    view = IndexView.open(home)
    if view is None:
        raise RuntimeError(f"no usable keyword index under {home.state}")
    components = lite.resolve_components()
    # The generator asks some questions twice (two multi-hop cases of one template: "Who hosts
    # the podcast my coworker suggested?" has two right answers in the home); the evidence of
    # every case asking the same words is relevant to them.
    answers: dict[str, set] = {}
    for case in cases:
        answers.setdefault(case.query, set()).update(case.expect)
    out = {}
    for name, gate in gates.items():
        tally = Tally()
        for case in cases:
            found = find(view, components, case.query, now=now, gate=gate)
            ids = [r.event_id for r in found.results]
            expected = answers[case.query]
            hits = [i for i in ids if i in expected]
            tally.questions += 1
            tally.answered += bool(ids)
            tally.first_relevant += bool(ids) and ids[0] in expected
            tally.any_relevant += bool(hits)
            tally.injected += len(ids)
            tally.relevant += len(hits)
            cat = tally.by_category.setdefault(case.bucket or case.kind, [0, 0])
            cat[0] += 1
            cat[1] += bool(hits)
        for prompt in generic:
            found = find(view, components, prompt, now=now, gate=gate)
            tally.generic += 1
            tally.generic_injected += bool(found.results)
            tally.generic_snippets += len(found.results)
        out[name] = tally
    return out
