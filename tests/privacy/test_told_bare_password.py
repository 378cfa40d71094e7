"""A password told with no verb and no colon ("connect with password Xk9#mQ2vL7pR"): redacted
when the value is shaped as a credential, while prose about passwords is left as it is."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.privacy.redact import redact_text

SECRET = "Xk9#mQ2vL7pR"


@pytest.mark.parametrize("text, secret", [
    (f"connect to the okapi replica database with password {SECRET} and check the walrus table", SECRET),
    (f"log in using the password {SECRET}", SECRET),
    (f"Password {SECRET}.", SECRET),
    (f"(password {SECRET})", SECRET),
    (f"use the password `P4ssw0rd!x` now", "P4ssw0rd!x"),
    ("staging pw Summer2024! for the admin", "Summer2024!"),
    ("passwd Tr0ub4dor&3 on the box", "Tr0ub4dor&3"),
    ("the pwd Qz7Lm2Rt9Vx4 for root", "Qz7Lm2Rt9Vx4"),
    (f'"text": "with password {SECRET}\\nnext"', SECRET),  # a turn's text as JSON stores it
])
def test_a_credential_after_the_bare_word_is_redacted(text, secret):
    out = redact_text(text)
    assert secret not in out and "[REDACTED:password]" in out, out


@pytest.mark.parametrize("text", [
    "the password field is empty",
    "a password manager keeps them",
    "the password reset flow sends an email",
    "the password password123 is the usual bad example",  # a doc's example: one class and digits
    "password policy_v2 applies",
    "password bcrypt-v2.1 hashing",
    "see password RFC-8018 section 5",
    "the password hashing uses SHA-256",
    "password /etc/shadow holds the hashes",
    "the password PasswordHasherV2 class",
    "pw <your-password> here",
    "password Summer2024 is one class short of a chosen one",
])
def test_prose_about_passwords_is_left_alone(text):
    assert redact_text(text) == text


WORDS = ("the", "a", "password", "passwords", "field", "manager", "reset", "flow", "is", "was", "with",
         "using", "for", "your", "new", "old", "strong", "weak", "hashing", "policy", "expired", "pw",
         "passwd", "login", "form", "user", "admin", "database", "change", "forgot", "enter", "Password",
         "Reset", "Manager", "required", "length", "characters", "at", "least", "and", "must", "contain")


# Numbers from 8: "password 0 X" and "password 7 X" are Cisco IOS's password lines (a rule of
# their own redacts the word after them).
@settings(max_examples=400, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.integers(8, 99999).map(str),
                          st.sampled_from(WORDS).map(str.title)), min_size=1, max_size=14),
       st.sampled_from(("", ".", "?", "!")))
def test_ordinary_sentences_with_the_word_password_are_unchanged(words, end):
    text = " ".join(["password", *words]) + end
    assert redact_text(text) == text
