"""Tokens split across lines: a shell line continuation (a backslash, then a line break) inside a
token, in every form a writer or an old home holds it: as typed, JSON-escaped, and collapsed into
`\\ ` by a one-line summary. The text after it is the token's; ordinary continuations and
escaped spaces are left alone."""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.privacy.redact import Redactor
from tests.privacy.hooked import home_text, through_hooks

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


def _left_alone(text: str) -> None:
    """`text` and its one-line form (as a summary stores it) are not changed by redaction."""
    assert Redactor().text(text) == text
    collapsed = " ".join(text.split())
    assert Redactor().text(collapsed) == collapsed


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_continuations_are_left_alone(text):
    _left_alone(text)


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
                             and b[0].isalnum() and b[-1].isalnum() and len(set(b)) >= 12
                             and re.search(r"(.)\1{3}", b) is None))  # (random, as tokens are: no run of AAAA)
    at = data.draw(st.integers(min_value=1, max_value=length - 1))
    if not body[at].isalnum():
        at = next(i for i in range(at, length) if body[i].isalnum())
    secret = prefix + body
    text = template.format(split(secret, len(prefix) + at, form))
    out = Redactor().text(text)
    for piece in (secret[:len(prefix) + at], secret[len(prefix) + at:]):
        assert len(piece) < 5 or piece not in out, (text, out)
    assert "[REDACTED:" in out and CONTINUATIONS[form] not in out, (text, out)


# --- tokens of a known length cut by a bare line break ------------------------------------------

#: One line break as written (LF, CRLF, an indented next line), JSON-escaped, and as a one-line
#: summary collapses it.
BREAKS = {"lf": "\n", "crlf": "\r\n", "indented": "\n  ", "json": "\\n", "json-crlf": "\\r\\n", "collapsed": " ",
          "collapsed-indented": "   "}

#: Each known-length family: a token, the kind its rule names, where its body starts.
RANDOM = "Zx8Kq2Lm9Np4Rs7Tv1Wy3Ab6Cd0Ef5Gh2Jk4Qw3Er5Ty7Ui9Op1As2Df4Gh6Jk8Lz0Xc5Vb7Nm"
KNOWN = {
    "ghp": (GHP, "github-token", 4),
    "gho": ("gho_" + RANDOM[36:72], "github-token", 4),
    "github_pat": ("github_pat_" + RANDOM[:22] + "_" + RANDOM[10:69], "github-token", 11),
    "akia": ("AKIAQ7RT5WZ2XK4M9PLD", "aws-access-key", 4),
    "asia": ("ASIAZ2XK4M9PLDQ7RT5W", "aws-access-key", 4),
    "xoxb": ("xoxb-1765367248-1987469832-" + RANDOM[5:29], "slack-token", 5),
    "xoxp": ("xoxp-2210535565-2210535567-2227463910-e5f1b0a8d5f1d8b5e1c9b2e6a6f4b1c0", "slack-token", 5),
    "npm": ("npm_" + RANDOM[20:56], "npm-token", 4),
    "google": ("AIza" + RANDOM[3:38], "google-api-key", 4),
}


def test_known_shapes_are_what_their_rules_say():
    from carto_core.privacy.redact import _CUT_SHAPE

    for name, (token, kind, _) in KNOWN.items():
        assert _CUT_SHAPE.fullmatch(token), name
        assert Redactor().text(f"x {token} y") == f"x [REDACTED:{kind}] y", name


@pytest.mark.parametrize("form", BREAKS)
def test_the_sweeps_wrapped_prompt_is_redacted_whole(form):
    prompt = "always push with " + GHP[:30] + BREAKS[form] + GHP[30:] + " please"
    assert Redactor().text(prompt) == "always push with [REDACTED:github-token] please"


@pytest.mark.parametrize("form", BREAKS)
@pytest.mark.parametrize("name", KNOWN)
def test_a_known_length_token_cut_anywhere_is_redacted_across_the_break(name, form):
    token, kind, body = KNOWN[name]
    for at in range(body, len(token)):
        if token[at - 1] == "-" and form == "indented" or token[at] in "-_":
            continue  # (a break right at a dash or underscore is not where a token is wrapped)
        text = f"the key: {token[:at]}{BREAKS[form]}{token[at:]}, done"
        assert Redactor().text(text) == f"the key: [REDACTED:{kind}], done", (at, text)


@pytest.mark.parametrize("form", BREAKS)
@pytest.mark.parametrize("name", KNOWN)
def test_a_whole_token_at_a_line_end_keeps_the_next_line(name, form):
    token, kind, _ = KNOWN[name]
    for after in ("Then we rotate it.", "abc1234 is the commit", "9f8e7d6c", "ok"):
        text = f"key {token}{BREAKS[form]}{after}"
        assert Redactor().text(text) == f"key [REDACTED:{kind}]{BREAKS[form]}{after}", text


#: Line ends a cut-token rule could misread: a short hex or prefixed word, then a new line.
ORDINARY_BREAKS = [
    "fixed in abc1234\nThe next commit reverts it",
    "HEAD is now at 9f8e7d6\nYour branch is up to date",
    "tokens start with ghp_\nfollowed by 36 characters",
    "GitHub token prefixes: ghp_ gho_ ghu_ ghs_ ghr_\nand github_pat_ for fine-grained ones",
    "npm_config_cache\nnpm_config_prefix",
    "set npm_\nconfig variables in .npmrc",
    "AKIA\nIDs are access key ids, ASIA\nIDs are temporary",
    "Regions: ASIA PACIFIC and EUROPE WEST",
    "region: ASIAPACIFIC\nSOUTHEAST",
    "Slovakia\nCzechia",
    "AIza prefixed keys are restricted by referrer",
    "xoxb-\ntokens are bot tokens",
    "AKIAIOSFODNN7\nEXAMPLE",
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxx\nxxxxxxxxxx",
    "sha 3f2a9c1e\nREADME updated",
    "abc123\ndef456",
]


@pytest.mark.parametrize("text", ORDINARY_BREAKS)
def test_ordinary_line_ends_are_left_alone(text):
    _left_alone(text)


def test_the_ordinary_corpus_with_its_lines_collapsed_is_left_alone():
    from tests.privacy.ordinary import corpus

    redactor = Redactor()
    texts = [" ".join(t.split()) for t in corpus()]
    assert [t for t in texts if redactor.text(t) != t] == []


WORDS = ["the", "fix", "Then", "commit", "ghp_", "AKIA", "npm_", "AIza", "xoxb-", "token", "key", "ok", "README"]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(alphabet="0123456789abcdef", min_size=1, max_size=12),
                          st.text(alphabet=string.ascii_letters + string.digits, min_size=1, max_size=12)),
                min_size=2, max_size=12),
       st.lists(st.sampled_from(sorted(BREAKS.values())), min_size=11, max_size=11))
def test_short_words_across_line_breaks_are_never_a_cut_token(words, breaks):
    """Words shorter than any known token's body, one per line or a summary's spaces apart."""
    text = words[0] + "".join(b + w for b, w in zip(breaks, words[1:]))
    assert Redactor().text(text) == text


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(KNOWN)), st.data(), st.sampled_from(sorted(BREAKS)))
def test_a_random_known_length_token_cut_anywhere_never_leaves_a_piece(name, data, form):
    token, kind, body = KNOWN[name]
    shape = {"akia": string.ascii_uppercase + string.digits, "asia": string.ascii_uppercase + string.digits}
    alphabet = shape.get(name, string.ascii_letters + string.digits)
    if name in ("ghp", "gho", "npm", "google", "akia", "asia"):
        random_body = data.draw(st.text(alphabet=alphabet, min_size=len(token) - body, max_size=len(token) - body)
                                .filter(lambda b: any(c.isdigit() for c in b) and len(set(b)) >= 8))  # (not docs' filler)
        token = token[:body] + random_body
    at = data.draw(st.integers(min_value=body, max_value=len(token) - 1))
    if token[at] in "-_" or token[at - 1] in "-_":
        at = body
    text = f"use {token[:at]}{BREAKS[form]}{token[at:]} now"
    assert Redactor().text(text) == f"use [REDACTED:{kind}] now", text


# --- the hooks and an old home ------------------------------------------------------------------

SWEEP = {
    "prompt": "always push with ghp_Zx8Kq2Lm9Np4Rs7Tv1Wy3Ab6Cd\n0Ef5Gh2Jk4 please",
    "command": "gh auth login --with-token <<< ghp_Zx8Kq2Lm9Np4Rs7T\\\nv1Wy3Ab6Cd0Ef5Gh2Jk4",
    "answer": ("Set it: export GITHUB_TOKEN=Qz8Kq2Lm9Np4Rs7Tv1Wy\\\n3Ab6Cd0Ef5Gh2Jk4 and curl -H 'Authorization: "
               "Bearer Pq8Kq2Lm9Np4Rs7Tv1Wy\\\n9Ab6Cd0Ef5Gh2Jk4' https://api.github.com/user, and the wrapped one: "
               "ghp_Rr8Kq2Lm9Np4Rs7Tv1Wy3Ab6Cd\n0Ef5Gh2Jk7"),
}
#: The second halves and the joined tokens: none may be under the home.
PIECES = ["0Ef5Gh2Jk4", "v1Wy3Ab6Cd0Ef5Gh2Jk4", "3Ab6Cd0Ef5Gh2Jk4", "9Ab6Cd0Ef5Gh2Jk4", "0Ef5Gh2Jk7",
          "Zx8Kq2Lm9Np4Rs7T", "Qz8Kq2Lm9Np4Rs7T", "Pq8Kq2Lm9Np4Rs7T", "Rr8Kq2Lm9Np4Rs7T"]


def test_the_sweeps_payloads_leave_no_piece_under_the_home(tmp_path, monkeypatch):
    home = through_hooks(tmp_path, monkeypatch, prompt=SWEEP["prompt"], command=SWEEP["command"],
                         output=SWEEP["answer"], answer=SWEEP["answer"])
    stored = home_text(home.root)
    assert "[REDACTED:github-token]" in stored and "[REDACTED:bearer]" in stored
    assert [piece for piece in PIECES if piece in stored] == []


def test_doctor_finds_the_stored_shapes_in_an_old_home_and_repair_takes_them(tmp_path):
    """The rows as the sweep found them stored (summaries collapse line breaks into spaces)."""
    import json

    from click.testing import CliRunner

    from carto_core.cli import cli
    from carto_core.logio.home import Home
    from carto_core.logio.jsonl import dumps_row

    home = Home(tmp_path / "home")
    home.root.mkdir()
    bash = "Ran: gh auth login --with-token <<< ghp_Zx8Kq2Lm9Np4Rs7T\\ v1Wy3Ab6Cd0Ef5Gh2Jk4 "
    home.log("prompts").write_bytes(dumps_row({"event_id": "p1", "timestamp": "2026-12-01T10:00:00Z",
                                              "summary": "always push with ghp_Zx8Kq2Lm9Np4Rs7Tv1Wy3Ab6Cd 0Ef5Gh2Jk4 please"}))
    home.log("tool-use").write_bytes(dumps_row({"event_id": "b1", "timestamp": "2026-12-01T10:00:01Z", "summary": bash}))
    home.log("changelog").write_bytes(dumps_row({"event_id": "b1", "timestamp": "2026-12-01T10:00:01Z", "summary": bash}))
    home.log("turns").write_bytes(dumps_row({
        "event_id": "turn-1", "timestamp": "2026-12-01T10:00:02Z",
        "summary": "Set it: export GITHUB_TOKEN=[REDACTED:secret-assignment]\\ 3Ab6Cd0Ef5Gh2Jk4 and curl -H "
                   "'Authorization: Bearer [REDACTED:bearer]\\ 9Ab6Cd0Ef5Gh2Jk4'"}))
    env = {"CARTO_HOME": str(home.root), "HOME": str(tmp_path)}
    runner = CliRunner()
    doctor = runner.invoke(cli, ["doctor", "--secrets", "--json"], env=env)
    report = json.loads(doctor.output)
    assert doctor.exit_code == 1 and report["secrets"] == 5, doctor.output
    assert all(piece not in doctor.output for piece in PIECES)
    assert runner.invoke(cli, ["repair", "redact", "--write"], env=env).exit_code == 0
    assert [piece for piece in PIECES if piece in home_text(home.root)] == []
    clean = runner.invoke(cli, ["doctor", "--secrets"], env=env)
    assert clean.exit_code == 0 and "no stored credentials found" in clean.output
