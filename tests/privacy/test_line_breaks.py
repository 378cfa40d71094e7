"""Tokens split across lines: a shell line continuation (a backslash, then a line break) inside a
token, in every form a writer or an old home holds it: as typed, JSON-escaped, and collapsed into
`\\ ` by a one-line summary. The text after it is the token's; ordinary continuations and
escaped spaces are left alone."""

from __future__ import annotations

import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.privacy.redact import Redactor

GHP = "ghp_Zx8Kq2Lm9Np4Rs7Tv1Wy3Ab6Cd0Ef5Gh2Jk4"
BODY = "Zx8Kq2Lm9Np4Rs7Tv1Wy3Ab6Cd0Ef5Gh2Jk4"

#: A backslash and a line break as typed (LF, CRLF), as JSON escapes it, and as a summary that
#: collapsed the break into one space stores it.
CONTINUATIONS = {"lf": "\\\n", "crlf": "\\\r\n", "json": "\\\\\\n", "json-crlf": "\\\\\\r\\n", "collapsed": "\\ "}


def split(token: str, at: int, form: str) -> str:
    return token[:at] + CONTINUATIONS[form] + token[at:]


@pytest.mark.parametrize("form", CONTINUATIONS)
def test_the_sweeps_bash_command_is_redacted_whole(form):
    command = "gh auth login --with-token <<< " + split(GHP, 20, form)
    assert Redactor().text(command) == "gh auth login --with-token <<< [REDACTED:github-token]"


@pytest.mark.parametrize("form", CONTINUATIONS)
@pytest.mark.parametrize("text, kind", [
    ("export GITHUB_TOKEN={}", "secret-assignment"),
    ("curl -H 'Authorization: Bearer {}' https://api.github.com/user", "bearer"),
    ("stripe login --api-key sk_live_{}", "stripe-key"),
    ("ANTHROPIC_API_KEY=sk-ant-api03-{} claude", "anthropic-key"),
])
def test_text_after_a_continuation_belongs_to_a_token_of_unknown_length(form, text, kind):
    """Bearer and key-name values have no known length: the continuation says where the token goes on."""
    out = Redactor().text(text.format(split(BODY, 16, form)))
    assert BODY[:16] not in out and BODY[16:] not in out, out
    assert out == text.format(f"[REDACTED:{kind}]").replace("sk_live_[", "[").replace("sk-ant-api03-[", "["), out


def test_a_stop_answer_with_two_continued_tokens():
    answer = ("Set it with: export GITHUB_TOKEN=Zx8Kq2Lm9Np4Rs7Tv1Wy\\\n3Ab6Cd0Ef5Gh2Jk4 and then\n"
              "curl -H 'Authorization: Bearer Qq8Kq2Lm9Np4Rs7Tv1Wy\\\n9Ab6Cd0Ef5Gh2Jk4' https://x\nok")
    out = Redactor().text(answer)
    assert out == ("Set it with: export GITHUB_TOKEN=[REDACTED:secret-assignment] and then\n"
                   "curl -H 'Authorization: Bearer [REDACTED:bearer]' https://x\nok")


@pytest.mark.parametrize("form", CONTINUATIONS)
def test_the_rest_after_a_stored_marker_is_that_secrets(form):
    """An old home: the first half was redacted, the second stored after the continuation."""
    redactor = Redactor()
    stored = ("export GITHUB_TOKEN=[REDACTED:secret-assignment]" + CONTINUATIONS[form] + "3Ab6Cd0Ef5Gh2Jk4 and curl -H "
              "'Authorization: Bearer [REDACTED:bearer]" + CONTINUATIONS[form] + "9Ab6Cd0Ef5Gh2Jk4'")
    out, kinds = redactor.scan(stored)
    assert out == "export GITHUB_TOKEN=[REDACTED:secret-assignment] and curl -H 'Authorization: Bearer [REDACTED:bearer]'"
    assert kinds == ["secret-assignment", "bearer"]  # what `carto doctor --secrets` counts


def test_the_continuations_outside_a_secret_are_kept():
    text = "TOKEN=Zx8Kq2Lm9Np4Rs7T\\\nv1Wy3Ab6Cd0Ef5Gh2Jk4 make\\\nrun cp a\\\nb c\\ d"
    assert Redactor().text(text) == "TOKEN=[REDACTED:secret-assignment] make\\\nrun cp a\\\nb c\\ d"


#: Continuations and escaped spaces in ordinary text: scripts, paths, macros, wrapped prose.
ORDINARY = [
    "docker run --rm \\\n  -e LOG_LEVEL=debug \\\n  -v \"$PWD:/src\" \\\n  ghcr.io/acme/api:1.4.2",
    "./configure --prefix=/usr/local\\\n--enable-shared && make -j8",
    "cp ~/Library/Application\\ Support/Code/User/settings.json ./backup/",
    "open /Volumes/Macintosh\\ HD/Users/dana/My\\ Documents/report\\ 2026.pdf",
    "#define CHECK(x) do { if (!(x)) abort();\\\n} while (0)",
    "x = first_value + \\\n    second_value",
    "echo 'line one'\\\necho 'line two'",
    "git commit -m \"fix token refresh\" \\\n  --author=\"Dana Reyes <dana@example.com>\"",
    "key_rotation_days: 90\\\nsession_timeout: 30m",
    "ls C:\\\\Users\\\\dana\\\\AppData\\\\Local\\\\Temp",
    "printf 'a\\\\nb' | wc -l",
    "the commit was abc1234\\\nThen we reverted it",
    "Bearer tokens are described in RFC 6750\\\nsection 2.1",
    "export PATH=/usr/local/bin:$PATH\\\nexport EDITOR=vim",
    "pass_rate: 97.25%\\ auth_method: oauth2",
    # a Markdown hard break (a backslash at a line's end) between words
    "auth: true\\\nauth: required",
    "The deploy token lives in the vault under ci/deploy\\\nRotate it every month",
    "The config section is named Settings\\\nAdvancedOptionsForDeployment",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_continuations_are_left_alone(text):
    assert Redactor().text(text) == text
    collapsed = " ".join(text.split())  # as a one-line summary stores it
    assert Redactor().text(collapsed) == collapsed


def test_the_ordinary_corpus_with_its_line_breaks_continued_is_left_alone():
    """Every line break of the ordinary corpus turned into a continuation (the words on either
    side joined, as the shell would read them): nothing there is a token either."""
    from tests.privacy.ordinary import corpus

    redactor = Redactor()
    texts = [t.replace("\n", "\\\n") for t in corpus() if "\n" in t]
    assert len(texts) >= 10
    assert [t for t in texts if redactor.text(t) != t] == []


TOKENS = st.sampled_from([
    ("ghp_", string.ascii_letters + string.digits, 36, "gh auth login --with-token <<< {}", "github-token"),
    ("sk_live_", string.ascii_letters + string.digits, 24, "STRIPE={}", "stripe-key"),
    ("", string.ascii_letters + string.digits + "-._~+/", 40, "Authorization: Bearer {}", "bearer"),
    ("", string.ascii_letters + string.digits, 32, "export API_TOKEN={}", "secret-assignment"),
    ("glpat-", string.ascii_letters + string.digits + "-_", 20, "git clone https://oauth2:{}@gitlab.com/a/b", "gitlab-token"),
])


@settings(max_examples=300, deadline=None)
@given(TOKENS, st.data(), st.sampled_from(sorted(CONTINUATIONS)))
def test_a_continuation_anywhere_inside_a_token_never_leaves_a_piece(token, data, form):
    prefix, alphabet, length, template, kind = token
    body = data.draw(st.text(alphabet=alphabet, min_size=length, max_size=length)
                     .filter(lambda b: any(c.isdigit() for c in b) and any(c.isupper() for c in b)
                             and b[0].isalnum() and b[-1].isalnum() and len(set(b)) >= 12))  # (random, as tokens are)
    at = data.draw(st.integers(min_value=1, max_value=length - 1))
    if not body[at].isalnum():
        at = next(i for i in range(at, length) if body[i].isalnum())
    secret = prefix + body
    text = template.format(split(secret, len(prefix) + at, form))
    out = Redactor().text(text)
    for piece in (secret[:len(prefix) + at], secret[len(prefix) + at:]):
        assert len(piece) < 5 or piece not in out, (text, out)
    assert "[REDACTED:" in out and CONTINUATIONS[form] not in out, (text, out)
