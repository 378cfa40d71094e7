"""A `.git-credentials` line (git-credential-store(1), "STORAGE FORMAT": one credential a line,
as a URL like `https://user:pass@example.com`, in `~/.git-credentials` or
`$XDG_CONFIG_HOME/git/credentials`). Git writes the password percent-encoded, but a file
written by hand, or a URL pasted into a remote, may hold the password's characters raw: a `#`,
a `/`, a `?` or a quote there is the password's, not a fragment, a path or a query. Ordinary
URLs (fragments, ports and paths holding an `@`, issue refs, comments) are left as written."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carto_core.privacy.redact import Redactor

REDACTOR = Redactor()
MARK = "[REDACTED:url-password]"


@pytest.mark.parametrize("text, expected", [
    # the held-out sweep case and the brief's shape
    ("https://alice:R4g7Kp#Uv2nc@git.acme.net\n", f"https://alice:{MARK}@git.acme.net\n"),
    ("https://user:pa#ss@github.com", f"https://user:{MARK}@github.com"),
    # a file of several lines, as `cat ~/.git-credentials` prints it
    ("https://alice:Zq8#wL2m@github.com\nhttps://bob:Tr0/ub4dor@gitlab.example.com\n"
     "https://ci:a#b/c?d9X@git.acme.net:8443\n",
     f"https://alice:{MARK}@github.com\nhttps://bob:{MARK}@gitlab.example.com\n"
     f"https://ci:{MARK}@git.acme.net:8443\n"),
    # credential.useHttpPath keeps the repository's path on the line
    ("https://alice:p#4ssW0rd@github.com/acme/api.git", f"https://alice:{MARK}@github.com/acme/api.git"),
    # a raw `@` and `#` together; the last `@` before the host ends the password
    ("https://alice:p@ss#w0rd@github.com", f"https://alice:{MARK}@github.com"),
    # a password beginning with `#` or `/`
    ("https://alice:#Hq83kfLz@github.com", f"https://alice:{MARK}@github.com"),
    ("https://alice:/Hq83k#fLz@github.com", f"https://alice:{MARK}@github.com"),
    # RFC 3986 lets a quote stand raw in userinfo: the line is not quoted, so it is the password's
    ("https://alice:it's#9Xq@github.com", f"https://alice:{MARK}@github.com"),
    ('https://alice:Gh"7#kq2@github.com', f"https://alice:{MARK}@github.com"),
    # a percent-encoded user (git writes `@` in a user name as %40)
    ("https://alice%40acme.net:Vb7#q2Lr@dev.azure.com", f"https://alice%40acme.net:{MARK}@dev.azure.com"),
    # as a transcript's JSON text stores it: the lines joined by escaped breaks
    ("https://alice:R4g7#Uv2nc@git.acme.net\\nhttps://bob:Tr0/ub4dor@gitlab.com\\n",
     f"https://alice:{MARK}@git.acme.net\\nhttps://bob:{MARK}@gitlab.com\\n"),
    # in a quoted string the quote ends the URL; the `#` inside is still the password's
    ('git remote set-url origin "https://alice:Zq8#wL2m@github.com/acme/api.git"',
     f'git remote set-url origin "https://alice:{MARK}@github.com/acme/api.git"'),
])
def test_a_raw_character_in_the_password_is_the_passwords(text, expected):
    assert REDACTOR.text(text) == expected


ORDINARY = [
    "https://github.com/acme/api#readme",
    "see acme/api#12 and https://github.com/acme/api/issues/12#issuecomment-1432",
    "https://example.com:8443/docs#install@v2",
    "https://mastodon.social:443/@Gargron",
    "http://localhost:3000/#/login?email=a@b.io",
    "http://localhost:3000#/login?email=a@b.io",
    "http://localhost:$PORT/users/@me",
    "http://localhost:${PORT}/api/@scope/pkg",
    "http://[::1]:8080/@scope/pkg",
    "https://registry.npmjs.org:443/@babel/core/-/core-7.24.0.tgz#sha512@x",
    "file://C:/Users/me/node_modules/@babel/core",
    "https://user@github.com/acme/api#12",
    "# push to https://git.acme.net:22/acme/api then ping @bob",
    "'https://example.com:8080/a','b@example.org'",
    "https://alice:alice@github.com",
    "postgres://postgres:postgres@localhost:5432/app",
]


@pytest.mark.parametrize("text", ORDINARY)
def test_ordinary_urls_are_left_alone(text):
    assert REDACTOR.text(text) == text


_ALNUM = "abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789"
#: What a hand-written password may hold raw that a URL reads as its own: a fragment's `#`, a
#: path's `/`, a query's `?`, a quote; and RFC 3986's sub-delimiters and `:`.
_RAW = "#/?'\"!$&()*+,;=:"
_HOSTS = ("github.com", "gitlab.com", "bitbucket.org", "git.acme.net", "dev.azure.com", "git.example.org:8443")

#: A letter first: a password that begins with up to five digits then `/`, `?` or `#` reads as
#: a port before a path (`localhost:3000/#/…`), which it is far more often. And no `://` inside:
#: a password ends before the next URL.
passwords = st.tuples(
    st.sampled_from(_ALNUM[:48]), st.text(_ALNUM, min_size=2, max_size=12), st.text(_RAW, min_size=1, max_size=3),
    st.text(_ALNUM, min_size=3, max_size=12), st.text(_RAW, max_size=2), st.integers(0, 9),
).map(lambda p: p[0] + p[1] + p[2] + str(p[5]) + p[3] + p[4]).filter(lambda p: "://" not in p)


@settings(max_examples=300, deadline=None)
@given(st.text("abcdefghijklmnopqrstuvwxyz0123456789._-", min_size=1, max_size=12), passwords,
       st.sampled_from(_HOSTS), st.sampled_from(("", "/acme/api.git", "/acme/api")), st.sampled_from(("", "\n", " done")))
def test_any_hand_written_credential_line_is_redacted(user, password, host, path, after):
    text = f"https://{user}:{password}@{host}{path}{after}"
    assert REDACTOR.text(text) == f"https://{user}:{MARK}@{host}{path}{after}"


_WORDS = ("see", "the", "fix", "in", "and", "then", "ping", "#", "# note:", "merged", "acme/api#12", "org/repo#3",
          "@bob", "a@b.io", "v2.1", "#section", "issue", "closes")
_SEGMENTS = ("docs", "api", "users", "@me", "@scope", "pkg", "issues", "12", "v2", "login", "core")


@st.composite
def urls(draw):
    host = draw(st.sampled_from(("github.com", "example.com", "localhost", "docs.acme.net", "127.0.0.1")))
    port = draw(st.sampled_from(("", ":80", ":443", ":3000", ":8443")))
    path = "".join("/" + s for s in draw(st.lists(st.sampled_from(_SEGMENTS), max_size=4)))
    query = draw(st.sampled_from(("", "?email=a@b.io", "?q=1&to=ops@acme.net", "?v=2")))
    fragment = draw(st.sampled_from(("", "#readme", "#/login@x", "#L10-L20", "#issuecomment-12", "#@v2")))
    return f"{draw(st.sampled_from(('http', 'https', 'git+https')))}://{host}{port}{path}{query}{fragment}"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(_WORDS), urls()), min_size=1, max_size=10), st.sampled_from((" ", "\n")))
def test_urls_with_fragments_ports_and_at_signs_are_left_alone(words, gap):
    text = gap.join(words)
    assert REDACTOR.text(text) == text
