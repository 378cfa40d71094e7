"""Tokens whose prefix itself is cut by a line break (`sk_li` then `ve_…`, `gh` then `p_…`):
a terminal's or an editor's wrap falling inside the first characters, in every form a writer
or an old home holds the break (as written, CRLF, indented, JSON-escaped once or twice, the
spaces of a one-line summary). The pieces are one token when joined they make its family's
shape; a word that merely ends like a prefix's head, or a head followed by prose, stays."""

from __future__ import annotations

import json

import pytest

from carto_core.privacy.redact import Redactor

from tests.privacy.shapes import cut_tokens
from tests.privacy.test_wrapped_tokens import BREAKS

TOKENS = cut_tokens()
REDACTOR = Redactor()


def _prefix(token: str) -> str:
    return next(t[:body] for t, _, body, _ in TOKENS.values() if t == token)


@pytest.mark.parametrize("form", BREAKS)
@pytest.mark.parametrize("name", sorted(TOKENS))
def test_a_token_cut_inside_its_prefix_is_redacted_whole(name, form):
    token, kind, _, _ = TOKENS[name]
    prefix = _prefix(token)
    for at in range(1, len(prefix)):
        text = "the key: " + token[:at] + BREAKS[form] + token[at:] + ", done"
        out = REDACTOR.text(text)
        assert out == "the key: [REDACTED:" + kind + "], done", (at, text, out)


@pytest.mark.parametrize("name", sorted(n for n in TOKENS if len(TOKENS[n][0]) >= 60))
def test_a_wrap_whose_first_break_cuts_the_prefix_is_redacted_whole(name):
    """A terminal 20 or 32 columns wide: the prefix's head ends the first line, every line
    after it full but the last."""
    token, kind, _, _ = TOKENS[name]
    for width in (20, 32):
        at = len(_prefix(token)) // 2 or 1
        lines = [token[:at]] + [token[i:i + width] for i in range(at, len(token), width)]
        for form in ("\n", "\\n", "\r\n"):
            text = "paste " + form.join(lines) + form + "then run it"
            out = REDACTOR.text(text)
            assert out == "paste [REDACTED:" + kind + "]" + form + "then run it", (width, text, out)


@pytest.mark.parametrize("name", ["stripe", "ghp", "akia", "openai"])
def test_a_stored_row_keeps_no_piece(name):
    token, kind, _, _ = TOKENS[name]
    text = "key " + token[:3] + "\n" + token[3:] + " ok"
    row = json.dumps({"prompt": text})
    for stored in (text, row, json.dumps({"text": row})):
        out = REDACTOR.text(stored)
        assert token[3:] not in out and f"[REDACTED:{kind}]" in out, out


def test_words_that_end_like_a_head_are_left_alone():
    texts = [
        "ask\n_live_9Kq2Lm9Np4Rs7Tv1Wy3Ab",       # a word ending in `sk`, not a prefix's start
        "the desk\nk_live tests pass",
        "we do\np_v1 of the plan",                # `do` then `p_v1` of prose
        "sha\n256~ is a tilde",
        "gh\np_ is GitHub's classic prefix",       # a head and its tail, then no body
        "AK\nIA is a prefix, AKIA1 is too short",
        "pul\n-request merged",
        "sk_li\nve_data = load()",                 # a tail then a word, no random body
        "ey\nJust a line",
    ]
    for text in texts:
        for form in BREAKS.values():
            assert REDACTOR.text(text.replace("\n", form)) == text.replace("\n", form), (form, text)


def test_an_open_token_cut_in_its_prefix_keeps_the_word_after_it():
    """The prefix says the token goes on past the break; the word after its end is prose."""
    token, kind, _, _ = TOKENS["stripe"]
    for form in BREAKS.values():
        text = "key: " + token[:5] + form + token[5:] + form + "done"
        assert REDACTOR.text(text) == "key: [REDACTED:" + kind + "]" + form + "done", text
