"""A placeholder at the end of a sentence is still a placeholder: docs and chat say "send it as
Authorization: Bearer <token>." and the full stop made `<token>.` read as a value (redacted,
the prose changed). A real value before a full stop is still taken, the stop left."""

from __future__ import annotations

import pytest

from carto_core.privacy.redact import default_redactor

PROSE = [
    "Send it as Authorization: Bearer <token>.",
    "Then set the header Authorization: Bearer $TOKEN.",
    "The client sends Authorization: Bearer {token}; the server checks it.",
    "Use Authorization: Bearer <YOUR_API_KEY>!",
    "Log in with password: <your password>.",
    "export API_KEY=<your key>.",
    "Put api_key: changeme, then restart.",
]

VALUES = [
    ("Authorization: Bearer 8f3kQ29dLm41Zx77pQ0aVbN2.", "8f3kQ29dLm41Zx77pQ0aVbN2"),
    ("it failed with Authorization: Bearer sk_live_4eC39HqLyjWDarjtT1zdp7dc.", "4eC39HqLyjWDarjtT1zdp7dc"),
    ("log in with password: Tr0ub4dor&3x.", "Tr0ub4dor&3x"),
]


@pytest.mark.parametrize("text", PROSE)
def test_a_placeholder_before_a_sentences_end_is_left(text):
    assert default_redactor().value(text) == text


@pytest.mark.parametrize("text,secret", VALUES)
def test_a_value_before_a_full_stop_is_still_taken(text, secret):
    out = default_redactor().value(text)
    assert secret not in out and "[REDACTED:" in out
