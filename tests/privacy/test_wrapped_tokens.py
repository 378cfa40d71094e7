"""Prefixed tokens a terminal wrapped over two, three or more lines (a 108-character Anthropic key
at 50 columns, a 164-character OpenAI key at 60, a JWT or a Fly token), pasted into a prompt or
printed in a tool's output, in every form a writer or an old home holds them: as written (LF,
CRLF, the next line indented), JSON-escaped as a stored row has them, and as the spaces a
one-line summary collapses the breaks into. Ordinary text wrapped the same way is left alone."""

from __future__ import annotations

import hashlib
import json
import re
import string

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.privacy.redact import Redactor
from carto_core.privacy.rules import KEYWORDS, RULES

from tests.privacy.hooked import home_text, through_hooks
from tests.privacy.shapes import cut_tokens

TOKENS = cut_tokens()
KNOWN = sorted(name for name, (*_, known) in TOKENS.items() if known)
OPEN = sorted(name for name, (*_, known) in TOKENS.items() if not known)
ALL = {token for token, *_ in TOKENS.values()}
REDACTOR = Redactor()  # (one: a new one builds its needle index again)

#: One line break as written, as JSON escapes it, and as a one-line summary collapses it.
BREAKS = {"lf": "\n", "crlf": "\r\n", "indented": "\n  ", "json": "\\n", "json-crlf": "\\r\\n", "collapsed": " ",
          "collapsed-indented": "   "}
#: Terminal widths a token is wrapped at (a narrow pane, a phone, 80 columns, a wide window).
WIDTHS = (16, 20, 25, 32, 40, 50, 60, 80, 100, 120)


def wrapped(token: str, breaks: int, width: int, prefix: int = 0) -> list[str] | None:
    """`token` as a terminal `width` columns wide shows it over `breaks + 1` lines, starting in
    the middle of its first line, its first `prefix` characters on that line; None when it
    cannot be (too short or too long for that)."""
    prefix = prefix or next(v[2] for v in TOKENS.values() if v[0] == token) if token in ALL else prefix
    middle = (breaks - 1) * width
    for last in (width // 2 or 1, *range(width, 0, -1)):
        first = len(token) - middle - last
        if max(prefix, 1) <= first <= width and 1 <= last <= width:
            return [token[:first]] + [token[first + i * width:first + (i + 1) * width] for i in range(breaks - 1)] + [token[-last:]]
    return None


def cases(names: list[str], counts: tuple[int, ...]):
    for name in names:
        for breaks in counts:
            widths = [w for w in WIDTHS if wrapped(TOKENS[name][0], breaks, w) is not None]
            if widths:
                yield pytest.param(name, breaks, widths, id=f"{name}-{breaks}")


@pytest.mark.parametrize("form", BREAKS)
@pytest.mark.parametrize("name, breaks, widths", list(cases(KNOWN, (1, 2, 3))) + list(cases(OPEN, (2, 3))))
def test_a_wrapped_token_is_redacted_whole(name, breaks, widths, form):
    token, kind, _, _ = TOKENS[name]
    for width in widths:
        text = "the key: " + BREAKS[form].join(wrapped(token, breaks, width)) + ", done"
        assert REDACTOR.text(text) == f"the key: [REDACTED:{kind}], done", (width, text)


def terminal(token: str, column: int, width: int) -> list[str]:
    """`token` as a terminal `width` columns wide wraps it when it starts at `column`."""
    first = width - column
    return [token[:first]] + [token[i:i + width] for i in range(first, len(token), width)]


@pytest.mark.parametrize("form", BREAKS)
@pytest.mark.parametrize("name", KNOWN + OPEN)
def test_a_token_over_as_many_lines_as_the_width_gives_is_redacted_whole(name, form):
    """Each family at every width from 16 columns, starting in the middle of its first line:
    a long token (a JWT, a Fly token) over as many as 18 lines, a short one over one or two."""
    token, kind, body, known = TOKENS[name]
    lines_seen = set()
    for width in WIDTHS:
        for column in {width - body - 1, width // 2, width - len(token) // 3}:
            if not 0 <= column < width - body:
                continue
            lines = terminal(token, column, width)
            if len(lines) < 2 or not known and len(lines) < 3 or len(lines[-1]) == 0:
                continue
            lines_seen.add(len(lines))
            text = "the key: " + BREAKS[form].join(lines) + ", done"
            assert REDACTOR.text(text) == f"the key: [REDACTED:{kind}], done", (width, column, text)
    assert lines_seen, name  # (no family drops out for want of a width)


@pytest.mark.parametrize("name", sorted(n for n in KNOWN + OPEN if len(TOKENS[n][0]) >= 60))
def test_the_stored_row_of_a_wrapped_token_keeps_no_piece(name):
    """A prompt or a tool's output stored as a JSON row (the breaks `\\n`), and that row quoted
    inside another's text (`\\\\n`): read as the unparsed line `carto repair redact` reads."""
    token, kind, _, _ = TOKENS[name]
    for width in (20, 40, 60):
        lines = wrapped(token, 2, width) or wrapped(token, 3, width)
        if lines is None:
            continue
        row = json.dumps({"prompt": "use " + "\n".join(lines) + " for the deploy"})
        for stored in (row, json.dumps({"text": row})):
            out = REDACTOR.text(stored)
            assert all(piece not in out for piece in lines if len(piece) >= 5), (width, out)
            assert f"[REDACTED:{kind}]" in out


def test_a_known_token_whole_at_a_line_end_keeps_the_next_lines():
    """A wrap's full lines after a whole token are not the token's: its length is known."""
    token, kind, _, _ = TOKENS["github_pat"]
    for form in BREAKS.values():
        text = f"key {token}{form}Zx8Kq2Lm9Np4Rs7Tv1Wy{form}ok"
        assert REDACTOR.text(text) == f"key [REDACTED:{kind}]{form}Zx8Kq2Lm9Np4Rs7Tv1Wy{form}ok", text


def test_an_open_token_at_one_break_is_not_joined_to_what_follows():
    """One break cannot be told from an open token's end: the next line stays as it was (its
    first piece is redacted by the family's own rule when long enough)."""
    token, kind, _, _ = TOKENS["stripe"]
    text = f"STRIPE={token}\nnpm test"
    assert REDACTOR.text(text) == f"STRIPE=[REDACTED:{kind}]\nnpm test"
    text = f"key {token}\nZx8Kq2Lm9Np4Rs7\nok"
    assert REDACTOR.text(text) == f"key [REDACTED:{kind}]\nZx8Kq2Lm9Np4Rs7\nok"


def test_pieces_that_are_no_wrap_are_not_joined():
    """Lines after a prefix that a terminal's wrap cannot have made: narrower than 16 columns (a
    list of 8-character ids), middle lines of different widths, a first line wider than the
    next, a last one wider than the full lines, a piece running on into a longer word."""
    texts = [
        "dapi\n1a2b3c4d\n5e6f7a8b\n9c0d1e2f\n3a4b5c6d",
        "AIza9Kq2\nLm9Np4Rs7Tv1Wy3A\nb6Cd0Ef5\nGh2Jk4Q",
        "AIza9Kq2Lm9Np4Rs7T\nv1Wy3Ab6Cd0Ef5Gh\n2Jk4Q",
        "nfp_9Kq\nNp4Rs7Tv1Wy3Ab6C\nd0Ef5Gh2Jk4Qw3Er5",
        "dapi1a2b3c4d5e6f\n7a8b9c0d1e2f3a4b\n5c6dghost",
    ]
    for text in texts:
        for form in BREAKS.values():
            assert REDACTOR.text(text.replace("\n", form)) == text.replace("\n", form), (form, text)


def test_an_open_token_wrapped_with_lines_of_one_case_is_not_joined():
    """A full line of a mixed-case token has capitals and small letters; a hash has not."""
    token = TOKENS["stripe"][0]
    text = f"key {token[:30]}\n{'3f2a9c1e' * 4}\n{'a1b2c3d4' * 2}\nok"
    assert REDACTOR.text(text) == f"key [REDACTED:stripe-key]\n{'3f2a9c1e' * 4}\n{'a1b2c3d4' * 2}\nok"


@pytest.mark.parametrize("form", BREAKS)
def test_the_wrapped_rest_after_a_stored_marker_is_that_secrets(form):
    """An older home: the token's first line was redacted, its full lines and last line were not."""
    form = BREAKS[form]
    lines = terminal(TOKENS["openai"][0], 20, 60)
    out, kinds = REDACTOR.scan("key [REDACTED:openai-key]" + form + form.join(lines[1:]) + form + "Done.")
    assert (out, kinds) == ("key [REDACTED:openai-key]" + form + "Done.", ["openai-key"])


@pytest.mark.parametrize("after", ["Then we rotate it", "3f2a9c1e4b3f2a9c1e4b3f2a9c1e4b3f2a9c1e4b", "ok",
                                   "MIGRATION_TIMEOUT_SECONDS=30", "src/carto_core/privacy/redact.py"])
def test_a_marker_keeps_an_ordinary_next_line(after):
    for form in BREAKS.values():
        text = f"key [REDACTED:github-token]{form}{after}{form}done"
        assert REDACTOR.text(text) == text


# --- ordinary text wrapped ------------------------------------------------------------------

PROSE = ("the fix for the flaky upload test was to wait for the bucket before reading it back and then "
         "retry once with a longer timeout so the integration suite stops failing on slow runners").split()
#: Digests as tools print them, of random input (a run of one digit is no digest) and each
#: once: the same sha256 on two lines, then a line opening with one letter before a colon,
#: reads as a PEM body's lines to the PEM rule (a finding of its own, left to that rule).
DIGEST = st.binary(min_size=1, max_size=16)
#: The words a rule looks for before it reads a text.
RULE_WORDS = frozenset(word.lower() for _, _, words, _ in RULES for word in words if word.isalpha())
WORD = st.one_of(
    st.sampled_from(PROSE),
    DIGEST.map(lambda b: hashlib.sha1(b).hexdigest()[:7]), DIGEST.map(lambda b: hashlib.sha1(b).hexdigest()),
    DIGEST.map(lambda b: hashlib.sha256(b).hexdigest()), st.uuids().map(str),
    st.sampled_from(["src/carto_core/privacy/redact.py", "/home/dev/.cache/pip/wheels", "C:\\Users\\dana\\AppData"]),
    # a random word that names a secret ("bearer", "token", "passwd", a rule's own word such as
    # redis's "requirepass") before a digest is a credential's shape, not ordinary text
    st.text(alphabet=string.ascii_lowercase, min_size=1, max_size=20).filter(
        lambda word: re.fullmatch(f"{KEYWORDS}|bearer|basic", word) is None and word not in RULE_WORDS),
)


def hard_wrap(text: str, width: int, brk: str) -> str:
    """`text` as a terminal shows it: each line cut at `width` characters, words or not."""
    out = []
    for line in text.split("\n"):
        out.extend(line[i:i + width] for i in range(0, max(len(line), 1), width))
    return brk.join(out)


@settings(max_examples=400, deadline=None)
@given(st.lists(WORD, min_size=3, max_size=40, unique=True), st.sampled_from([" ", "\n"]), st.sampled_from(WIDTHS + (72, 79)),
       st.sampled_from(sorted(BREAKS)))
def test_wrapped_ordinary_text_is_left_alone(words, joiner, width, form):
    """Prose, git's short and long hashes, sha256 digests, uuids, paths, a sha list one per
    line: wrapped at a terminal's width in every form a writer keeps, nothing is a token."""
    text = hard_wrap(joiner.join(words), width, BREAKS[form])
    assert REDACTOR.text(text) == text


def test_a_sha_list_and_a_wrapped_paragraph_are_left_alone():
    shas = "\n".join(hashlib.sha1(str(i).encode()).hexdigest() for i in range(40))
    paragraph = hard_wrap(" ".join(PROSE * 4), 80, "\n")
    digests = "\n".join(hashlib.sha256(str(i).encode()).hexdigest() for i in range(3)) + "\nC:\\Users\\dana\\AppData"
    for text in (shas, paragraph, hard_wrap(shas.replace("\n", ""), 40, "\n"), hard_wrap(shas.replace("\n", ""), 60, "\r\n"),
                 digests):
        assert REDACTOR.text(text) == text
        assert REDACTOR.text(" ".join(text.split())) == " ".join(text.split())


# --- the hooks and an old home ---------------------------------------------------------------

def _pieces(name: str, width: int) -> list[str]:
    return wrapped(TOKENS[name][0], 2, width) or wrapped(TOKENS[name][0], 3, width)


def test_the_hooks_store_no_piece_of_a_wrapped_token(tmp_path, monkeypatch):
    anthropic, pat = terminal(TOKENS["anthropic"][0], 30, 50), terminal(TOKENS["github_pat"][0], 14, 40)
    jwt, fly = terminal(TOKENS["jwt"][0], 7, 80), terminal(TOKENS["fly"][0], 5, 60)
    prompt = "set ANTHROPIC_API_KEY to\n" + "\n".join(anthropic) + "\nand push with " + "\n".join(pat)
    output = "token:\n" + "\n".join(jwt) + "\nfly: " + "\n".join(fly) + "\ndone"
    home = through_hooks(tmp_path, monkeypatch, prompt=prompt,
                         command="vault read -field=token secret/ci", output=output,
                         answer=prompt + "\n" + output)
    stored = home_text(home.root)
    assert "[REDACTED:anthropic-key]" in stored and "[REDACTED:jwt]" in stored
    assert [p for p in anthropic + pat + jwt + fly if len(p) >= 8 and p in stored] == []


def test_doctor_finds_the_stored_forms_and_repair_takes_them(tmp_path):
    """An old home: the wrapped tokens as rows hold them (a summary's spaces, the next line's
    indentation after them, the breaks themselves, a transcript's text quoted in another's)."""
    from click.testing import CliRunner

    from carto_core.cli import cli
    from carto_core.logio.home import Home
    from carto_core.logio.jsonl import dumps_row

    home = Home(tmp_path / "home")
    home.root.mkdir()
    anthropic, pat, openai, shop = (_pieces("anthropic", 50), _pieces("github_pat", 40), _pieces("openai", 60),
                                    wrapped(TOKENS["databricks"][0], 2, 16))
    home.log("prompts").write_bytes(
        dumps_row({"event_id": "p1", "timestamp": "2026-12-01T10:00:00Z", "summary": "use " + " ".join(anthropic) + " ok"})
        + dumps_row({"event_id": "p2", "timestamp": "2026-12-01T10:00:01Z", "prompt": "push " + "\r\n".join(pat)}))
    home.log("turns").write_bytes(dumps_row({
        "event_id": "turn-1", "timestamp": "2026-12-01T10:00:02Z",
        "summary": "Ran it: export OPENAI_API_KEY=\\n  " + "\\n  ".join(openai) + "   then " + "   ".join(shop)}))
    # what an older carto stored: the first line redacted by the family's own rule, the rest not
    older = terminal(TOKENS["anthropic-oat"][0], 30, 50)
    home.log("changelog").write_bytes(dumps_row({
        "event_id": "turn-2", "timestamp": "2026-12-01T10:00:03Z",
        "summary": "Your key is set: [REDACTED:anthropic-key] " + " ".join(older[1:]) + " Done."}))
    env = {"CARTO_HOME": str(home.root), "HOME": str(tmp_path)}
    runner = CliRunner()
    doctor = runner.invoke(cli, ["doctor", "--secrets", "--json"], env=env)
    report = json.loads(doctor.output)
    assert doctor.exit_code == 1 and report["secrets"] == 5, doctor.output
    pieces = [p for p in anthropic + pat + openai + shop + older[1:] if len(p) >= 8]
    assert all(piece not in doctor.output for piece in pieces)
    assert runner.invoke(cli, ["repair", "redact", "--write"], env=env).exit_code == 0
    stored = "".join(p.read_text("utf-8", "replace") for p in sorted(home.root.rglob("*")) if p.is_file())
    assert [piece for piece in pieces if piece in stored] == []
    clean = runner.invoke(cli, ["doctor", "--secrets"], env=env)
    assert clean.exit_code == 0 and "no stored credentials found" in clean.output
