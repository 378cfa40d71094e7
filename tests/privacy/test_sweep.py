"""The sweep (tests/privacy/sweep.py): credential shapes and ordinary developer text written
from the formats' public documentation. The two thirds the rules were fixed against are held
to every shape caught and every ordinary text left alone; the held-out third is measured and
held to what it scored when the fixes were made (docs/performance.md)."""

from __future__ import annotations

import pytest

from carto_core.privacy.redact import Redactor

from tests.privacy import sweep

REDACTOR = Redactor()


def test_the_sweep_is_as_large_as_asked():
    assert len(sweep.shapes()) >= 60 and len(sweep.ordinary()) >= 60
    assert len(sweep.held_out_shapes()) * 3 >= len(sweep.shapes()) - 2


@pytest.mark.parametrize("case", sweep.tuned_shapes(), ids=lambda c: f"{c['family']}:{c['text'][:40]}")
def test_every_tuned_shape_is_redacted(case):
    out = REDACTOR.text(case["text"])
    assert case["secret"] not in out and "[REDACTED:" in out, out


@pytest.mark.parametrize("text", sweep.tuned_ordinary(), ids=lambda t: t[:40])
def test_tuned_ordinary_text_is_left_alone(text):
    assert REDACTOR.text(text) == text


def test_the_held_out_third_scores_what_it_did():
    """Measured, never tuned on, but for the two faults it named, fixed each with cases of its
    own: 23 of 23 shapes (a `#` in a URL's password: tests/privacy/test_git_credentials.py),
    22 of 22 ordinary texts (`Bearer <token>.` in prose: test_placeholder_sentence_end.py)."""
    missed = [c["text"] for c in sweep.held_out_shapes() if c["secret"] in REDACTOR.text(c["text"])]
    changed = [t for t in sweep.held_out_ordinary() if REDACTOR.text(t) != t]
    assert (len(sweep.held_out_shapes()), missed) == (23, [])
    assert (len(sweep.held_out_ordinary()), changed) == (22, [])
