"""The built-in credential rules `carto_core.privacy.redact` applies. Stdlib only (hook path).

Where the facts come from. The providers, prefixes, lengths and alphabets below were taken as
facts from published rule sets and vendor documentation, then written here as our own
regular expressions (no rule text was copied; NOTICE names the revisions read and the licences):

- gitleaks' default configuration `config/gitleaks.toml` (MIT licence, (c) Zachary Rice and
  contributors): AWS key-id prefixes, GitHub/GitLab/Slack/Stripe/Google/npm/PyPI/Shopify/
  Atlassian/Databricks/Linear/Sentry/Hugging Face/DigitalOcean/SendGrid/Twilio/Mailgun/Heroku/
  Vault/Grafana/Doppler/Postman/PlanetScale/CircleCI/Buildkite/... shapes, the PEM block shape, the JWT shape and
  the "generic key name" idea with its non-secret name lists (csrf token, token url, ...);
- Yelp's detect-secrets (Apache-2.0): the keyword plugin's idea of a secret-named context, the
  Azure storage key shape, and the Shannon-entropy threshold idea;
- secretlint's recommended preset (MIT): basic-auth URLs and connection strings;
- vendor pages: Vercel's prefixed formats (vcp_, vci_, vca_, vcr_, vck_: Vercel changelog
  "new token formats and secret scanning"), Supabase `sbp_`/`sb_secret_`, Docker Hub
  `dckr_pat_`, Google `ya29.`/`1//0`/`GOCSPX-`, RFC 7235 (every Authorization scheme has the
  form `scheme credentials`), RFC 3986 (userinfo ends at the last `@` of the authority).

A rule is (kind, pattern, needles, options). A `token` rule starts inside one of the text's
long whitespace-free runs: it is run over those runs joined (a small share of a long text) and
each hit matched again in place; `gate` is a pattern the runs must hold first. `needles` are
lower-case literals at least one of which every match contains: the redactor runs a rule only when one occurs in the lowered
text, which keeps the hook path cheap. `lower=True` rules are written in lower case and run on
the lowered text (about five times cheaper than `(?i)`); their spans map back to the original.
A rule replaces its `secret` group when it has one, else the whole match. `check` names a
function in `carto_core.privacy.redact` that accepts or refuses a match (placeholders, code, prose);
`start` one that finds, without a regex scan, where the first match can begin (the key-name
rules: a key word followed by a separator), so prose full of "token" costs a few `find`s, or
that none can (the rule is then not even compiled: the prefix-cut rule, whose pattern is a
function that builds it).
"""

from __future__ import annotations

import re
from collections.abc import Callable

# Characters a secret value cannot contain when it is not quoted: the separators of shell,
# query strings, JSON/YAML flow syntax and code. A quoted value runs to its closing quote.
UNQUOTED = r"[^\s\"'`\\&;,<>()\[\]{}|\x00-\x1f\x7f]"
QUOTED = r"[^\"'`\\\r\n]"
# An unquoted value may hold `&` inside it (`p&ssW0rd!`): not the shell's `&`, `&&` or a query
# string's `&name=`, which end it. A comma too (`pass: K4=NKYCf,JOa35dan`, `Password=a,b;`),
# when what follows is neither a space, a quote or a separator nor the next `name=` / `name:`.
_UNQUOTED_RUN = (r"(?:" + UNQUOTED + r"|&(?![&\s]|$|[A-Za-z_][\w.-]*=|amp;)"
                 r"|,(?![\s\"'`\\&;,<>()\[\]{}|]|$|[A-Za-z_][\w.-]*[=:]))")
_VALUE = (r"(?:\\?(?P<q>[\"'`]))?(?P<secret>(?(q)" + QUOTED + r"{1,4096}(?=\\?(?P=q)|$)|" + UNQUOTED + _UNQUOTED_RUN + r"{0,4095}))")

# Key names that make whatever is assigned to them a secret, lower case. `pass`, `pwd`, `auth`
# and `creds` are weak: they must stand as their own word (`db_pass`, `authToken`), never
# inside another (`compass`, `author`), and what they hold must look like a secret.
KEYWORDS = (
    r"(?:passwd|password|passphrase|pass(?![a-z])|pwd(?![a-z])|secret|token|credentials?|creds(?![a-z])|"
    r"api[_.-]?key|apikey|access[_.-]?key|private[_.-]?key|account[_.-]?key|"
    r"shared[_.-]?access[_.-]?key|signing[_.-]?key|encryption[_.-]?key|master[_.-]?key|"
    r"client[_.-]?key|auth(?![a-z]))"
)
# Compound names ending in `key` whose value is always a secret (`MIX_APP_KEY`, `HMAC_KEY`,
# `Ocp-Apim-Subscription-Key`, `x-functions-key`): matched from their `key` (a literal start,
# which the regex engine scans for fast) by the rules below, the first word checked after.
KEY_COMPOUNDS = (r"(?:app|hmac|subscription|functions?|session|license|licence|service|webhook|cookie|jwt|"
                 r"crypt|cipher|priv|db|database)")
# Any other name ending in key, salt or signature holds a secret only when the value looks
# machine-made (long, high entropy: detect-secrets' and gitleaks' generic rules score such
# values by Shannon entropy; `check_entropic_assignment`).
WEAK_STEMS = ("key", "salt", "signature")
KEY_NEEDLES = ("pass", "pwd", "secret", "token", "cred", "key", "auth")

# Spaces before the separator up to a column's width: `terraform fmt` and aligned constants
# line up their `=` (`db_password       = "..."`). A quoted name may close a subscript
# (`app.config["SECRET_KEY"] = "..."`).
SEP_SPACES = 40
# After the separator, gofmt's aligned struct fields (`Token:    "…"`) and Ruby's `||=` / JS's `??=`;
# an `@` before the quote opens Objective-C's string literal and C#'s verbatim one (`@"…"`).
_SEP = (r"(?:\\?[\"']\]?)?[ \t]{0,%d}(?P<sep>=>|:=|\|\|=|\?\?=|[:=]|%%3[ad])(?![=:/])[ \t]{0,16}(?:@(?=\\?[\"']))?" % SEP_SPACES)
# Not inside a longer run, or right after an escaped newline or tab (`\\n` of JSON text).
_START = r"(?:(?<![A-Za-z0-9])|(?<=\\[nrt]))"
# A token rule matches one run of token characters (no spaces): it runs only when one of its
# needles occurs in the text's long runs (`carto_core.privacy.redact.LONG_RUN`), a much shorter string.
T = {"token": True}
_END = r"(?![A-Za-z0-9])"

# A string literal in code, its quotes perhaps JSON-escaped.
_LITERAL = r"\\?[\"'][^\"'\n\\]{1,200}\\?[\"']"
# A shell word: quoted (to its closing quote) or bare (to a separator).
_WORD = r"(?:\\?(?P<q>[\"'])(?P<secret>[^\"'\\\r\n]{1,200})\\?(?P=q)|(?P<bare>[^\s\"'`;&|<>()]{1,200}))"
# What separates the lines of a PEM body: a newline, an escaped one (JSON), or a space (a
# summary's whitespace is collapsed).
_LINE_BREAK = r"(?:\r?\n|(?:\\r)?\\n|[ \t])"
# The rest of a command line, within one command (never past a pipe, `;`, `&` or a newline).
_SAME_COMMAND = r"[^\n|;&]*?"
#: A table's cell rule: Markdown's `|`, a box drawing's `│`, or `│` escaped as JSON writes it
#: when it keeps to ASCII.
_CELL_RULE = r"(?:[|\u2502]|\\u2502)"
#: A .netrc's space between words, written or JSON-escaped, and a word (an escaped backslash
#: `\\` is part of it; an escaped line break is not).
_NETRC_GAP = r"(?:\s|\\[nrt])+"
_NETRC_WORD = r"(?:[^\s\\]|\\[^nrt\s])+"

#: One line break inside a token: as written or JSON-escaped, once or twice (a transcript's
#: text quoted inside another's), the next line perhaps indented; or the space a one-line
#: summary turns it into, the next line's indentation after it (`flatten` keeps it).
LINE_CUT = r"(?:(?:\r|\\{1,2}r)?(?:\n|\\{1,2}n)[ \t]*|[ ][ \t]{0,8})"
#: The most pieces a wrapped token is joined from (a Fly token of 700 characters is 18 at 40 columns, 44 at 16).
CUT_PIECES = 64
#: A token cut more than once is a terminal's (or an editor's) hard wrap: every line between its
#: first and its last is a full line of the same width, at least this wide, the first and the
#: last no wider. Prose, a list of hashes one per line or words a summary joined with spaces
#: hardly ever give full lines of one width, no space in them, after a token's prefix.
CUT_WIDTH = 16
#: The widest line a wrapped token's piece is read from.
CUT_LINE = 300
#: The prefixed tokens joined across line breaks: (kind, start, piece, needles, shape, known).
#: `start` is the prefix, a literal first (the regex engine scans for it fast), the boundary
#: behind it checked after; `piece` the characters of the token's body (a line's piece is a run
#: of them); `shape` what the pieces joined must be. With `known`, the whole has one length
#: (the providers' documented formats; Slack's by their last part): one line break joins when
#: the pieces make exactly that shape with a digit in the body (`check_cut_token`). Without, the
#: token's length is open (Stripe's, OpenAI's, a JWT, Fly's macaroons): one break cannot be
#: told from the token's end, so only a wrap whose second line is a full line of the token's
#: characters is joined, each next line while the one before it was full (`check_cut_open`).
_B = r"(?:(?<![A-Za-z0-9]{0})|(?<=\\[nrt]{0}))"


def _cut_start(literal: str, rest: str = "") -> str:
    """`literal` (then `rest`), not inside a longer run unless right after an escaped break."""
    return re.escape(literal) + _B.format(re.escape(literal)) + rest


_ALNUM = "[A-Za-z0-9]"
_URLSAFE = r"[\w-]"
_HEX = "[a-f0-9]"
CUT_FAMILIES: tuple[tuple[str, str, str, tuple[str, ...], str, bool], ...] = (
    ("github-token", _cut_start("g", "(?:h[pousr]_|ithub_pat_)"), "[A-Za-z0-9_]",
     ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
     r"gh[pousr]_[A-Za-z0-9]{36}|github_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}", True),
    ("aws-access-key", _cut_start("A", "(?:KIA|SIA|BIA|CCA|3T)"), "[A-Z0-9]", ("akia", "asia", "abia", "acca", "a3t"),
     r"(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}", True),
    ("slack-token", _cut_start("xox", "[bp]-"), "[A-Za-z0-9-]", ("xoxb-", "xoxp-"),
     r"xoxb-\d{6,15}-\d{6,15}-[A-Za-z0-9]{24}|xoxp-\d{6,15}-\d{6,15}-\d{6,15}-[a-f0-9]{32}", True),
    ("npm-token", _cut_start("npm_"), _ALNUM, ("npm_",), r"npm_[A-Za-z0-9]{36}", True),
    ("google-api-key", _cut_start("AIza"), _URLSAFE, ("aiza",), r"AIza[\w-]{35}", True),
    ("anthropic-key", _cut_start("sk-ant-", "(?:api03|admin01)-"), _URLSAFE, ("sk-ant-",),
     r"sk-ant-(?:api03|admin01)-[\w-]{93}AA", True),
    ("netlify-token", _cut_start("nfp_"), _ALNUM, ("nfp_",), r"nfp_[A-Za-z0-9]{36}", True),
    ("databricks-token", _cut_start("dapi"), _HEX, ("dapi",), r"dapi[a-f0-9]{32}", True),
    ("shopify-token", _cut_start("shp", "(?:at|ca|pa|ss)_"), "[a-fA-F0-9]", ("shpat_", "shpca_", "shppa_", "shpss_"),
     r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}", True),
    ("alibaba-access-key", _cut_start("LTAI"), _ALNUM, ("ltai",), r"LTAI[A-Za-z0-9]{20}", True),
    ("infracost-token", _cut_start("ico-"), _ALNUM, ("ico-",), r"ico-[A-Za-z0-9]{32}", True),
    ("nostr-private-key", _cut_start("nsec1"), "[02-9ac-hj-np-z]", ("nsec1",), r"nsec1[02-9ac-hj-np-z]{58}", True),
    ("notion-token", _cut_start("ntn_"), _ALNUM, ("ntn_",), r"ntn_\d{11}[A-Za-z0-9]{35}", True),
    ("langsmith-key", _cut_start("lsv2_", "(?:pt|sk)_"), "[a-f0-9_]", ("lsv2_",), r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}", True),
    ("honeycomb-key", _cut_start("hc", "[xa]ik_"), "[a-z0-9]", ("hcxik_", "hcaik_"), r"hc[xa]ik_[a-z0-9]{58}", True),
    ("circleci-token", _cut_start("CCI", "(?:PAT|PRJ)_"), "[A-Za-z0-9_]", ("ccipat_", "cciprj_"),
     r"CCI(?:PAT|PRJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}", True),
    ("buildkite-token", _cut_start("bkua_"), _HEX, ("bkua_",), r"bkua_[a-f0-9]{40}", True),
    ("pulumi-token", _cut_start("pul-"), _HEX, ("pul-",), r"pul-[a-f0-9]{40}", True),
    ("easypost-key", _cut_start("EZ", "[AT]K"), "[0-9a-f]", ("ezak", "eztk"), r"EZ[AT]K[0-9a-f]{54}", True),
    ("rubygems-token", _cut_start("rubygems_"), _HEX, ("rubygems_",), r"rubygems_[a-f0-9]{48}", True),
    ("digitalocean-token", _cut_start("do", "[opr]_v1_"), _HEX, ("_v1_",), r"do[opr]_v1_[a-f0-9]{64}", True),
    ("supabase-key", _cut_start("sbp_"), _HEX, ("sbp_",), r"sbp_[a-f0-9]{40}", True),
    ("age-secret-key", _cut_start("AGE-SECRET-KEY-1"), "[0-9A-Z]", ("age-secret-key-1",), r"AGE-SECRET-KEY-1[0-9A-Z]{58}", True),
    ("fly-token", _cut_start("fo1_"), _URLSAFE, ("fo1_",), r"fo1_[\w-]{43}", True),
    ("contentful-token", _cut_start("CFPAT-"), _URLSAFE, ("cfpat-",), r"CFPAT-[\w-]{43}", True),
    ("postman-key", _cut_start("PMAK-"), "[a-f0-9-]", ("pmak-",), r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", True),
    ("dynatrace-token", _cut_start("dt0c01."), "[A-Z0-9.]", ("dt0c01.",), r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}", True),
    ("brevo-key", _cut_start("xkeysib-"), "[A-Za-z0-9-]", ("xkeysib-",), r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}", True),
    ("openshift-token", _cut_start("sha256~"), _URLSAFE, ("sha256~",), r"sha256~[\w-]{43}", True),
    # tokens of open length: joined only across a wrap's full lines
    ("anthropic-key", _cut_start("sk-ant-"), _URLSAFE, ("sk-ant-",), r"sk-ant-[\w-]{16,}", False),
    ("openai-key", _cut_start("sk-", "(?:proj|svcacct|admin)-"), _URLSAFE, ("sk-proj-", "sk-svcacct-", "sk-admin-"),
     r"sk-(?:proj|svcacct|admin)-[\w-]{20,}", False),
    ("stripe-key", r"[sr]k_(?:(?<![A-Za-z0-9][sr]k_)|(?<=\\[nrt][sr]k_))(?:live|test|prod)_", _ALNUM, ("k_live_", "k_test_", "k_prod_"),
     r"[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,}", False),
    ("gitlab-token", _cut_start("gl", "(?:pat|dt|rt|ptt|ft|imt|agent|oas|soat|ffct|cbt|wt)-"), r"[\w.-]",
     ("glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-", "glffct-", "glcbt-", "glwt-"),
     r"gl[a-z]{2,6}-[\w.-]{20,}", False),
    ("fly-token", _cut_start("fm", "[12][ar]?_"), "[A-Za-z0-9+/_=-]", ("fm1", "fm2"), r"fm[12][ar]?_[A-Za-z0-9+/_-]{100,}={0,3}", False),
    ("jwt", r"eyJ(?:(?<![\w-]eyJ)|(?<=\\[nrt]eyJ))", "[A-Za-z0-9_.-]", ("eyj",), r"eyJ[\w-]{8,}\.eyJ[\w-]{8,}(?:\.[\w-]*)?", False),
    ("slack-token", _cut_start("xox", "[abposre]-"), "[A-Za-z0-9-]", ("xox",), r"xox[abposre]-[A-Za-z0-9-]{10,}", False),
    ("huggingface-token", _cut_start("hf_"), _ALNUM, ("hf_",), r"hf_[A-Za-z0-9]{30,}", False),
    ("pypi-token", _cut_start("pypi-AgE"), _URLSAFE, ("pypi-age",), r"pypi-AgE[\w-]{50,}", False),
    ("vault-token", _cut_start("hv", r"[sbr]\."), _URLSAFE, ("hvs.", "hvb.", "hvr."), r"hv[sbr]\.[\w-]{90,}", False),
    ("atlassian-token", _cut_start("ATATT3"), "[A-Za-z0-9_=-]", ("atatt3",), r"ATATT3[A-Za-z0-9_=-]{50,}", False),
    ("dockerhub-token", _cut_start("dckr_", "(?:pat|oat)_"), _URLSAFE, ("dckr_",), r"dckr_(?:pat|oat)_[\w-]{20,}", False),
    ("onepassword-token", _cut_start("ops_eyJ"), "[A-Za-z0-9+/_=-]", ("ops_eyj",), r"ops_eyJ[A-Za-z0-9+/_-]{100,}={0,3}", False),
    ("sentry-token", _cut_start("sntry", "[su]_"), "[A-Za-z0-9+/=_-]", ("sntrys_", "sntryu_"), r"sntry[su]_[A-Za-z0-9+/=_-]{40,}", False),
    ("google-oauth-token", _cut_start("ya29."), r"[\w.-]", ("ya29.",), r"ya29\.[\w.-]{20,}", False),
)
#: The families' prefixes as written, for a line break that falls inside one (`sk_li` then
#: `ve_…`, `gh` then `p_…`): no rule above sees such a prefix whole, so the redactor looks for
#: a break with a prefix's head before it and its tail after (`check_prefix_cut`), and the
#: pieces joined must still make one of `CUT_FAMILIES`' shapes.
CUT_PREFIXES = (
    "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "AKIA", "ASIA", "ABIA", "ACCA", "xoxb-", "xoxp-",
    "xoxa-", "xoxo-", "xoxs-", "xoxr-", "xoxe-", "npm_", "AIza", "sk-ant-api03-", "sk-ant-admin01-", "sk-ant-oat01-", "sk-ant-",
    "nfp_", "dapi", "shpat_", "shpca_", "shppa_", "shpss_", "LTAI", "ico-", "nsec1", "ntn_", "lsv2_pt_",
    "lsv2_sk_", "hcxik_", "hcaik_", "CCIPAT_", "CCIPRJ_", "bkua_", "pul-", "EZAK", "EZTK", "rubygems_",
    "dop_v1_", "doo_v1_", "dor_v1_", "sbp_", "AGE-SECRET-KEY-1", "fo1_", "CFPAT-", "PMAK-", "dt0c01.",
    "xkeysib-", "sha256~", "sk-proj-", "sk-svcacct-", "sk-admin-", "sk_live_", "sk_test_", "sk_prod_",
    "rk_live_", "rk_test_", "rk_prod_", "glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glimt-", "glagent-",
    "gloas-", "glsoat-", "glffct-", "glcbt-", "glwt-", "fm1_", "fm2_", "fm1a_", "fm1r_", "fm2a_", "fm2r_",
    "eyJ", "hf_", "pypi-AgE", "hvs.", "hvb.", "hvr.", "ATATT3", "dckr_pat_", "dckr_oat_", "ops_eyJ",
    "sntrys_", "sntryu_", "ya29.",
)
def _trie(words: set[str]) -> str:
    """An alternation of `words` sharing their common starts (the regex engine tries one
    branch per character, not one per word)."""
    heads: dict[str, set[str]] = {}
    for word in words:
        heads.setdefault(word[:1], set()).add(word[1:])
    branches = []
    for first, rests in sorted(heads.items()):
        if not first:
            continue
        inner = _trie(rests - {""}) if rests - {""} else ""
        branches.append(re.escape(first) + (f"(?:{inner})" + ("?" if "" in rests else "") if inner else ""))
    return "|".join(branches)


#: `prefix_cut()`'s pattern, once built.
_PREFIX_CUT: str | None = None


def prefix_cut() -> str:
    """Where a break may fall inside a prefix: a prefix's head where a word starts, a break's
    first character after it (`check_prefix_cut` reads the break and the tail after it). The
    heads, not the tails, start the pattern: a tail is often a letter or two, a head rarely
    ends a word. (One lookbehind, cheaper to scan with than two: `n`, `r` and `t` may precede a
    head only as a JSON escape's, which the check reads.) Built on first use: the trie of its
    315 heads and its compiling cost a process what docs/performance.md says, and only a text that may hold such a cut
    asks for it (`carto_core.privacy.redact.start_prefix_cut`)."""
    global _PREFIX_CUT
    if _PREFIX_CUT is None:
        _PREFIX_CUT = (r"(?<![A-Za-mo-qsu-z0-9])(?:" + _trie({p[:at] for p in CUT_PREFIXES for at in range(1, len(p))})
                       + r")(?=[ \r\n\\])")
    return _PREFIX_CUT


#: The shapes a token cut by a line break must be once joined: of known length, and open.
CUT_SHAPES = tuple(shape for *_, shape, known in CUT_FAMILIES if known)
OPEN_SHAPES = tuple(shape for *_, shape, known in CUT_FAMILIES if not known)


def _cut_rule(kind: str, start: str, piece: str, needles: tuple[str, ...], known: bool) -> tuple[str, str, tuple[str, ...], dict]:
    """The rule of one family: its prefix and the piece up to a line break; every later piece
    (a line break, then a run of the token's characters ending where a word ends: hex then
    `ghost` is no piece) is read by a lookahead, so the match ends with the first line and the
    check says how far the token goes."""
    run = piece + "{1,%d}(?![A-Za-z0-9]|%s)" % (CUT_LINE, piece)
    return (kind, start + piece + "{0,%d}" % CUT_LINE + "(?=(?P<rest>(?:" + LINE_CUT + run + "){1,%d}))" % (CUT_PIECES - 1),
            needles, {"check": "cut_token" if known else "cut_open"})


CUT_RULES = tuple(_cut_rule(kind, start, piece, needles, known) for kind, start, piece, needles, _, known in CUT_FAMILIES)

# (kind, pattern, needles, options)
def _escaped(word: str) -> str:
    """`word` as a pattern matching it as typed or with its letters beyond ASCII as JSON's
    `\\uXXXX` escapes (lower-case hex, as `json.dumps` writes them)."""
    return "".join(re.escape(c) if c.isascii() else f"(?:{c}|\\\\u{ord(c):04x}{_upper_escape(c)})" for c in word)


def _upper_escape(letter: str) -> str:
    """The escape of `letter`'s capital, for rules matched on lower-cased text: lowering leaves
    `\\u041f` (П) as it is."""
    upper = letter.upper()
    return f"|\\\\u{ord(upper):04x}" if len(upper) == 1 and upper != letter else ""


#: Where a told value ends: a space, a closing bracket, a comma or semicolon before a space or
#: the end, a sentence's full stop (a comma inside, `BkHpzTqy,3hNVN^HH`, is the password's).
_TOLD_END = r"(?=[\s)]|[,;](?:\s|$)|[.!?](?:\s|$)|$)"
#: A password told in a script of its own: the word, and what links it to the value ("は",
#: "是", "είναι", "هي", "היא", "คือ", a colon), the value written in ASCII.
_TOLD_SCRIPT_WORDS = ("パスワード", "密码", "密碼", "비밀번호", "пароль", "κωδικός", "كلمة المرور", "הסיסמה", "סיסמה",
                      "รหัสผ่าน", "accesskey secret", "токен", "apiキー", "トークン", "पासवर्ड")
_TOLD_SCRIPT_SEPARATORS = ("は", "是", "为", "為", "는", "은", "είναι", "هي", "היא", "คือ", "है", ":", "：")
_TOLD_SCRIPT_NEEDLES = ("パスワード", "密码", "密碼", "비밀번호", "пароль", "κωδικός", "كلمة المرور", "סיסמה", "รหัสผ่าน",
                        "accesskey secret", "токен", "apiキー", "トークン", "\\u0442\\u043e\\u043a", "\\u30c8\\u30fc\\u30af",
                        "api\\u30ad", "\\u30d1\\u30b9", "\\u5bc6\\u7801", "\\u5bc6\\u78bc", "\\ube44\\ubc00",
                        "\\u043f\\u0430\\u0440", "\\u041f\\u0430\\u0440", "\\u03ba\\u03c9", "\\u039a\\u03c9",
                        "\\u0643\\u0644\\u0645\\u0629", "\\u05e1\\u05d9\\u05e1",
                        "\\u0e23\\u0e2b\\u0e31\\u0e2a", "पासवर्ड", "\\u092a\\u093e\\u0938")

#: A URL's host (and port), to where its authority ends.
_HOST = r"[^\s/?#@'\"`<>]+"
#: ... one that names a host (`localhost`, or dotted: `git.acme.net`, `10.0.0.5`, `db:5432`).
_HOST_NAME = r"(?:localhost|[^\s/?#@'\"`<>.:]*[.:]" + _HOST + ")"
#: A character of a URL's password: any but a space, `<`, `>` and `@`, no quote inside a URL a
#: quote opened (the rule's `oq`), and no `://`: a password runs to the next URL at most, so a
#: run of `xy://a:` pieces is scanned once, not once from each.
_USERINFO = r"(?:(?(oq)[^\s'\"`<>@:]|[^\s`<>@:])|:(?!//))"

# A rule's pattern may be a function that builds it (on the rule's first run).
RULES: tuple[tuple[str, str | Callable[[], str], tuple[str, ...], dict], ...] = (
    # --- key material --------------------------------------------------------------------
    ("private-key",
     r"-----BEGIN[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----(?:[\s\S]*?-----END[ A-Z0-9]*PRIVATE KEY"
     r"(?: BLOCK)?-----|[\s\S]*)", ("private key",), {"check": "pem_block"}),
    ("private-key", r"Private-Lines:[ \t]*\d+[\s\S]*?(?:Private-MAC:[ \t]*[0-9a-f]+|\Z)",
     ("private-lines:",), {}),
    ("age-secret-key", r"AGE-SECRET-KEY-1[0-9A-Z]{58}", ("age-secret-key-1",), T),
    # A PEM body whose BEGIN line was cut: the base64 run before an END line of a private key.
    # (Lines may be joined by newlines, escaped newlines, or the spaces a one-line summary has.)
    ("private-key", r"(?P<secret>[A-Za-z0-9+/=]{16,}(?:" + _LINE_BREAK + r"[A-Za-z0-9+/=]{4,})*)" + _LINE_BREAK
     + r"-----END[ A-Z0-9]*PRIVATE KEY(?: BLOCK)?-----", ("-----end",), {}),
    # ... or without any frame: a base64 run (across lines) that decodes to the start of a
    # private key's DER (a SEQUENCE whose first element is the INTEGER version 0 or 1: PKCS#1,
    # PKCS#8, SEC1; an encrypted PKCS#8's PBES2/PKCS#12 algorithm) or of an OpenSSH key.
    ("private-key", r"(?:(?<![A-Za-z0-9+/])|(?<=\\n))(?:M[A-Za-z0-9+/]{11}|b3BlbnNzaC1rZXktdjE)[A-Za-z0-9+/]{40,}={0,2}"
     r"(?:(?:\r?\n|(?:\\r)?\\n|\\?\",\s*\\?\")[A-Za-z0-9+/]{4,}={0,2}|[ \t][A-Za-z0-9+/]{16,}={0,2}(?![\w/+]))*", ("b3blbnnzac1rzxktdje", "mii", "mh", "mc4c", "mg"),
     {"token": True, "gate": r"[a-z0-9+/]{40}", "check": "der_private_key"}),
    # ... or neither its start nor its END line: two or more full PEM lines (64 base64
    # characters each), unless what follows says it is a certificate or a public key.
    ("private-key", r"(?:(?<![A-Za-z0-9+/])|(?<=\\n))[A-Za-z0-9+/]{64}(?:" + _LINE_BREAK + r"[A-Za-z0-9+/]{64}(?![A-Za-z0-9+/])){1,}"
     r"(?:" + _LINE_BREAK + r"[A-Za-z0-9+/]{1,63}={0,2}(?![A-Za-z0-9+/=]))?", ("+", "/"),
     {"token": True, "gate": r"[a-z0-9+/]{64}", "check": "pem_lines"}),
    # A PEM file, base64-encoded whole (a Kubernetes Secret's `data:`): "-----BEGIN" encodes to
    # LS0tLS1CRUdJTi; the rule decodes what follows to tell a key from a certificate.
    ("private-key", r"LS0tLS1CRUdJTi[A-Za-z0-9+/]{20,}={0,2}", ("ls0tls1crudjti",), {"token": True, "check": "pem_b64"}),
    # The private members of a JSON Web Key (RFC 7518: d, p, q, dp, dq, qi; k of a symmetric key).
    ("private-key", r"\\?\"(?:d|p|q|dp|dq|qi|k)\\?\"\s*:\s*\\?\"(?P<secret>[A-Za-z0-9_-]{16,}={0,2})\\?\"",
     ("\"kty\"", '\\"kty\\"'), {}),  # the needle is the context: only a text naming "kty"
    # A Kubernetes Secret's values (`data:` base64, `stringData:` text), YAML or JSON.
    ("kubernetes-secret", r"(?m)^(?P<indent>[ \t]+)[\w.-]+:[ \t]*[\"']?(?P<secret>[A-Za-z0-9+/]{8,}={0,2})[\"']?[ \t]*$",
     ("kind: secret", "kind: \"secret\"", '"kind": "secret"', '"kind":"secret"'), {"lower": False, "check": "k8s_secret"}),
    ("kubernetes-secret", r"\"[\w.-]+\"\s*:\s*\"(?P<secret>[A-Za-z0-9+/]{8,}={0,2})\"",
     ('"kind": "secret"', '"kind":"secret"'), {"check": "k8s_secret_json"}),
    # A break inside a token's prefix (`sk_li` then `ve_…`): first, so the token is taken whole
    # before a rule below takes its tail.
    # (The pattern is built when the rule first runs; `start` asks the text first.)
    ("cut-token", prefix_cut, ("\n", "\\n", " "), {"check": "prefix_cut", "start": "prefix_cut"}),
    # --- tokens of a known length cut by a line break -------------------------------------
    # A terminal, an editor or a chat wraps a long token; a summary then collapses that break
    # into one space. The piece before the break is too short for the token's own rule, or
    # long enough for it (GitHub's takes 30 and more) and then the rest stays in the clear: a
    # known prefix, a line break, and token characters that make the whole exactly the
    # provider's length (`CUT_SHAPES`, `check_cut_token`) are one token. These run before the
    # providers' own rules. Each starts with its literal (the regex engine scans for it fast),
    # the word boundary checked behind it.
    *CUT_RULES,
    # --- cloud providers -----------------------------------------------------------------
    # An AWS key id given with its secret by position: `NewStaticCredentialsProvider("AKIA…", "…", "")`,
    # Java's `new BasicAWSCredentials("AKIA…", "…")`
    ("aws-secret", r"(?<![A-Z0-9])(?:AKIA|ASIA)[A-Z0-9]{16}\\?[\"'](?:\s|\\[nrt])*,(?:\s|\\[nrt])*\\?[\"']"
                   r"(?P<secret>[A-Za-z0-9/+]{40})\\?[\"']", ("akia", "asia"), {}),
    ("aws-access-key", r"(?<![A-Z0-9])(?:AKIA|ASIA|ABIA|ACCA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Z0-9])",
     ("akia", "asia", "abia", "acca", "a3t"), {"token": True, "check": "not_example"}),
    ("aws-secret", r"secret[_.-]?access[_.-]?key\\?[\"']?[ \t]{0,3}(?:=>|:=|[:= \t])[ \t]{0,3}" + r"\\{0,7}[\"'`]?(?P<secret>[a-z0-9/+=]{40})(?![a-z0-9/+=])",
     ("secret",), {"lower": True, "check": "placeholder"}),
    ("google-api-key", _START + r"AIza[\w-]{35}" + r"(?![\w-])", ("aiza",), T),
    ("google-oauth-token", _START + r"ya29\.[\w.-]{20,}", ("ya29.",), T),
    ("google-oauth-token", r"(?<![\w/])1//0[\w-]{30,}", ("1//0",), T),
    ("google-client-secret", _START + r"GOCSPX-[\w-]{20,}", ("gocspx-",), T),
    ("azure-ad-secret", r"(?<![\w~.])[A-Za-z0-9_~.]{3}\dQ~[A-Za-z0-9_~.-]{31,34}(?![\w~.-])", ("q~",), T),
    ("url-signature",
     r"[?&](?:sig|x-amz-signature|x-goog-signature|x-amz-security-token)=(?P<secret>[a-z0-9%+/=._-]{16,})",
     ("sig=", "signature=", "security-token="), {"lower": True}),
    ("digitalocean-token", _START + r"do[opr]_v1_[a-f0-9]{64}", ("_v1_",), T),
    ("alibaba-access-key", _START + r"LTAI[A-Za-z0-9]{20}" + _END, ("ltai",), T),
    ("heroku-key", _START + r"HRKU-[\w-]{40,}", ("hrku-",), T),
    ("vercel-token", _START + r"vc[pirak]_[A-Za-z0-9_-]{20,}", ("vcp_", "vci_", "vca_", "vcr_", "vck_"), T),
    ("supabase-key", _START + r"(?:sbp_(?:oauth_)?[a-f0-9]{40}|sb_secret_[A-Za-z0-9_-]{20,})",
     ("sbp_", "sb_secret_"), T),
    ("databricks-token", _START + r"dapi[a-f0-9]{32}(?:-\d)?" + _END, ("dapi",), T),
    ("fly-token", _START + r"(?:fo1_[\w-]{43}|fm[12][ar]?_[A-Za-z0-9+/_-]{100,}={0,3})", ("fo1_", "fm1", "fm2"), T),
    ("infracost-token", _START + r"ico-[A-Za-z0-9]{32}" + _END, ("ico-",), T),
    ("nostr-private-key", _START + r"nsec1[02-9ac-hj-np-z]{58}" + _END, ("nsec1",), T),
    # Salesforce: an org id (00D...) and "!", then the session's token
    ("salesforce-token", _START + r"00D[A-Za-z0-9]{12,15}![A-Za-z0-9._]{60,}", ("00d",), T),
    ("cloudflare-origin-key", r"v1\.0-[a-f0-9]{24}-[a-f0-9]{146}", ("v1.0-",), T),
    ("openshift-token", r"sha256~[\w-]{43}", ("sha256~",), T),
    ("azure-function-key", r"[?&](?:code|key|api[_-]?key|apikey|appid|subscription-key|x-functions-key|clientsecret|client_secret)"
     r"=(?P<secret>[a-z0-9%_.~+/=-]{20,})", ("code=", "key=", "secret=", "appid="), {"lower": True, "check": "url_param"}),
    ("mapbox-token", r"(?<![\w.])[pst]k\.eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}", ("pk.eyj", "sk.eyj", "tk.eyj"), T),
    ("teams-webhook", r"(?:webhook\.office\.com/webhookb2|outlook\.office(?:365)?\.com/webhook(?:b2)?)/(?P<secret>[^\s\"'<>`]{20,})",
     ("webhook.office.com", "outlook.office.com/webhook", "outlook.office365.com/webhook"), {}),
    ("firebase-key", _START + r"AAAA[A-Za-z0-9_-]{7}:APA91b[A-Za-z0-9_-]{60,}", ("apa91b",), T),
    ("dropbox-token", _START + r"(?:sl\.(?:u\.)?[A-Za-z0-9_-]{120,}|[a-z0-9]{11}AAAAAAAAAA[A-Za-z0-9_=-]{43})",
     ("sl.", "aaaaaaaaaa"), T),
    ("airtable-token", _START + r"pat[A-Za-z0-9]{14}\.[a-f0-9]{64}" + _END, ("pat",), {"token": True, "words": True}),
    ("airtable-token", _START + r"key[A-Za-z0-9]{14}" + _END, ("key",), {"token": True, "words": True, "check": "airtable_key"}),
    # Discord bot tokens: the first part is the bot's numeric id in base64 (`check_discord`).
    ("discord-token", r"(?<![\w-])[MNO][A-Za-z0-9_-]{22,28}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,40}(?![\w-])",
     ("mt", "md", "mj", "mz", "nd", "nt", "nj", "nz", "od", "ot"), {"token": True, "words": True, "check": "discord"}),
    ("vault-token", r"(?<![\w.])[sbr]\.[A-Za-z0-9]{24}(?![\w.])", ("s.", "b.", "r."),
     {"token": True, "words": True, "check": "random_body"}),
    ("notion-token", _START + r"(?:ntn_\d{11}[A-Za-z0-9]{35}|secret_[A-Za-z0-9]{43})" + _END, ("ntn_", "secret_"), T),
    ("figma-token", _START + r"fig[dou]_[\w-]{40,}", ("figd_", "figo_", "figu_"), T),
    ("tailscale-key", _START + r"tskey-(?:api|auth|client|webhook|scim)-[\w-]{20,}", ("tskey-",), T),
    ("mailchimp-key", _START + r"[0-9a-f]{32}-us\d{1,2}" + _END, ("-us",), T),
    ("dynatrace-token", _START + r"dt0c01\.[A-Z0-9]{24}\.[A-Z0-9]{64}", ("dt0c01.",), T),
    ("netlify-token", _START + r"nfp_[A-Za-z0-9]{36}" + _END, ("nfp_",), T),
    ("contentful-token", _START + r"CFPAT-[\w-]{43}", ("cfpat-",), T),
    ("hubspot-token", _START + r"pat-(?:na|eu)\d-[0-9a-f]{8}-[0-9a-f-]{27}", ("pat-na", "pat-eu"), T),
    ("brevo-key", _START + r"xkeysib-[a-f0-9]{64}-[A-Za-z0-9]{16}", ("xkeysib-",), T),
    # --- code hosting, packages, CI ------------------------------------------------------
    ("github-token", _START + r"(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{22,255})" + _END,
     ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"), T),
    ("gitlab-token",
     _START + r"(?:gl(?:pat|dt|rt|ptt|ft|imt|agent|oas|soat|ffct|cbt|wt)-[\w.-]{20,}|GR1348941[\w-]{20,})",
     ("glpat-", "gldt-", "glrt-", "glptt-", "glft-", "glimt-", "glagent-", "gloas-", "glsoat-",
      "glffct-", "glcbt-", "glwt-", "gr1348941"), T),
    ("atlassian-token", _START + r"(?:ATATT3[A-Za-z0-9_=-]{50,}|ATBB[A-Za-z0-9_=.-]{28,})", ("atatt3", "atbb"), T),
    ("npm-token", _START + r"npm_[A-Za-z0-9]{36}" + _END, ("npm_",), T),
    ("pypi-token", _START + r"pypi-AgE[A-Za-z0-9_-]{50,}", ("pypi-age",), T),
    ("dockerhub-token", _START + r"dckr_(?:pat|oat)_[A-Za-z0-9_-]{20,}", ("dckr_",), T),
    ("rubygems-token", _START + r"rubygems_[a-f0-9]{48}", ("rubygems_",), T),
    ("pulumi-token", _START + r"pul-[a-f0-9]{40}" + _END, ("pul-",), T),
    ("circleci-token", _START + r"CCI(?:PAT|PRJ)_[A-Za-z0-9]{22}_[a-f0-9]{40}" + _END,
     ("ccipat_", "cciprj_"), T),
    ("buildkite-token", _START + r"bkua_[a-f0-9]{40}" + _END, ("bkua_",), T),
    ("terraform-token", r"[A-Za-z0-9]{14}\.atlasv1\.[\w=-]{60,}", ("atlasv1",), T),
    ("vault-token", _START + r"hv[sbr]\.[\w-]{90,}", ("hvs.", "hvb.", "hvr."), T),
    # a service token may name its config ("dp.st.dev.<40-44>"; Doppler's auth token formats)
    ("doppler-token", _START + r"dp\.(?:pt|st|sa|said|ct|scim|audit)\.(?:[a-z0-9_-]{2,35}\.)?[A-Za-z0-9]{40,}",
     ("dp.",), T),
    ("postman-key", _START + r"PMAK-[a-f0-9]{24}-[a-f0-9]{34}", ("pmak-",), T),
    ("planetscale-token", _START + r"pscale_(?:tkn|oauth|pw)_[\w.=-]{32,}", ("pscale_",), T),
    ("grafana-token", _START + r"(?:glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|glc_[A-Za-z0-9+/_-]{32,}={0,3})",
     ("glsa_", "glc_"), T),
    ("newrelic-key", _START + r"NR(?:AK|II|JS)-[A-Za-z0-9]{19,}", ("nrak-", "nrii-", "nrjs-"), T),
    ("sentry-token", _START + r"sntry[su]_[A-Za-z0-9+/=_-]{40,}", ("sntrys_", "sntryu_"), T),
    ("linear-key", _START + r"lin_(?:api|oauth)_[A-Za-z0-9]{32,}", ("lin_api_", "lin_oauth_"), T),
    ("onepassword-token", _START + r"ops_eyJ[A-Za-z0-9+/_-]{100,}={0,3}", ("ops_eyj",), T),
    ("easypost-key", _START + r"EZ[AT]K[0-9a-f]{54}" + _END, ("ezak", "eztk"), T),
    ("modal-token", _START + r"a[ks]-[A-Za-z0-9]{22}" + _END, ("ak-", "as-"), T),
    ("zoho-token", r"(?<![\w.])1000\.[0-9a-f]{32}\.[0-9a-f]{32}(?![\w.])", ("1000.",), T),
    ("asana-token", r"(?<![\w/])[0-2]/\d{10,20}(?:/\d{10,20})?:[0-9a-f]{32}(?![0-9a-f])", ("0/", "1/", "2/"), T),
    ("zapier-webhook", r"hooks\.zapier\.com/hooks/catch/\d+/(?P<secret>[A-Za-z0-9]{5,})", ("hooks.zapier.com",), {}),
    # --- AI providers --------------------------------------------------------------------
    ("anthropic-key", _START + r"sk-ant-[A-Za-z0-9_-]{16,}", ("sk-ant-",), T),
    ("openai-key", _START + r"(?:sk-(?:proj|svcacct|admin)-[A-Za-z0-9_-]{20,}|sk-[A-Za-z0-9]{20}T3BlbkFJ[A-Za-z0-9]{20})",
     ("sk-",), T),
    ("api-key", _START + r"sk-[A-Za-z0-9_-]{20,}", ("sk-",), {"check": "has_digit", "token": True}),
    # "T3BlbkFJ" (base64 of "OpenAI") sits inside every OpenAI key: a run holding it is a key,
    # or its second half when the key was split across quotes ('sk-proj-...''T3BlbkFJ...').
    ("openai-key", _START + r"[A-Za-z0-9_-]{0,200}T3BlbkFJ[A-Za-z0-9_-]{10,200}", ("t3blbkfj",), T),
    ("huggingface-token", _START + r"(?:hf_|api_org_)[A-Za-z0-9]{30,}" + _END, ("hf_", "api_org_"), T),
    ("perplexity-key", _START + r"pplx-[A-Za-z0-9]{40,}", ("pplx-",), T),
    ("groq-key", _START + r"gsk_[A-Za-z0-9]{40,}", ("gsk_",), T),
    ("xai-key", _START + r"xai-[A-Za-z0-9]{60,}", ("xai-",), T),
    ("replicate-token", _START + r"r8_[A-Za-z0-9]{30,}", ("r8_",), T),
    ("langsmith-key", _START + r"lsv2_(?:pt|sk)_[a-f0-9]{32}_[a-f0-9]{10}" + _END, ("lsv2_",), T),
    ("mailersend-token", _START + r"mlsn\.[A-Za-z0-9]{60,}" + _END, ("mlsn.",), T),
    ("honeycomb-key", _START + r"hc[xa]ik_[a-z0-9]{58}" + _END, ("hcxik_", "hcaik_"), T),
    # Yarn's `npmAuthIdent: "user:password"`
    ("password", r"\bnpmauthident\\?[\"']?[ \t]*:[ \t]*\\?[\"']?[^:\s\"']+:(?P<secret>[^\s\"']+)",
     ("npmauthident",), {"lower": True, "check": "placeholder"}),
    ("launchdarkly-key", _START + r"(?:sdk|mob)-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" + _END,
     ("sdk-", "mob-"), T),
    ("configcat-key", _START + r"configcat-sdk-1/[A-Za-z0-9_-]{22}/[A-Za-z0-9_-]{22}", ("configcat-sdk-",), T),
    # Twilio's auth token is 32 hex with no prefix: the one given beside its account SID
    ("twilio-key", r"AC[0-9a-f]{32}\\?[\"']\s*,\s*\\?[\"'](?P<secret>[0-9a-f]{32})\\?[\"']", ("ac",),
     {"check": "placeholder"}),
    # Keys of 32 hex or a bare random string, told apart from a digest only by the call or the
    # setting they are given to: Rollbar's `rollbar.init('...')`, PagerDuty's routing and
    # integration keys, Ably's `appId.keyId:secret`, Resend's `re_<8>_<24>`, Codecov's `-t`.
    ("rollbar-token", r"\brollbar\.init\(\s*\\?[\"'](?P<secret>[0-9a-f]{32})\\?[\"']", ("rollbar.init(",), {"lower": True}),
    ("pagerduty-key", r"\b(?:routing|service|integration)[_-]?key\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?(?P<secret>[0-9a-f]{32})(?![0-9a-f])",
     ("pagerduty",), {"lower": True}),
    ("ably-key", r"(?<![\w.-])[A-Za-z0-9_-]{5,8}\.[A-Za-z0-9_-]{5,8}:(?P<secret>[A-Za-z0-9_-]{30,50})(?![\w-])", ("ably",), {}),
    ("resend-key", _START + r"re_[A-Za-z0-9]{8}_[A-Za-z0-9]{24}" + _END, ("re_",), {"token": True, "check": "random_body"}),
    ("codecov-token", r"\bcodecov\b[^\n|;&]*?[ \t](?:-t|--token)[ \t=]+\\?[\"']?(?P<secret>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})",
     ("codecov",), {"lower": True}),
    # A personal access token in a variable named for one (`AZURE_DEVOPS_EXT_PAT`, `GH_PAT`)
    ("secret-assignment", r"_PAT(?<=[A-Z0-9]_PAT)\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?(?P<secret>[A-Za-z0-9_]{20,200})(?![\w-])",
     ("_pat",), {"check": "entropic", "start": "pat"}),
    # --- messaging, payments, mail -------------------------------------------------------
    ("slack-token",
     _START + r"(?:xox[abposre]-[A-Za-z0-9-]{10,}|xoxe\.xox[bp]-\d-[A-Za-z0-9]{60,}|xapp-\d-[A-Za-z0-9-]{10,})",
     ("xox", "xapp-"), T),
    ("slack-webhook", r"hooks\.slack\.com/(?:services|workflows|triggers)/(?P<secret>[A-Za-z0-9+/_-]{20,})",
     ("hooks.slack.com",), T),
    ("discord-webhook", r"discord(?:app)?\.com/api/webhooks/\d+/(?P<secret>[\w-]{40,})", ("/api/webhooks/",), T),
    ("telegram-bot-token", r"(?<![\d:])\d{8,10}:AA[\w-]{33}(?![\w-])", (":aa",), {}),
    ("plaid-token", _START + r"access-(?:sandbox|development|production)-[0-9a-f]{8}-[0-9a-f]{4}-"
     r"[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}" + _END, ("access-sandbox-", "access-development-",
                                                        "access-production-"), T),
    ("facebook-token", _START + r"EAA[A-Za-z0-9]{100,}" + _END, ("eaa",), T),
    ("stripe-key", _START + r"(?:[sr]k_(?:live|test|prod)_[A-Za-z0-9]{10,}|whsec_[A-Za-z0-9+/=]{20,})",
     ("k_live_", "k_test_", "k_prod_", "whsec_"), {"token": True, "check": "not_example"}),
    ("square-token", _START + r"sq0(?:atp|csp)-[\w-]{22,}", ("sq0atp-", "sq0csp-"), T),
    ("shopify-token", _START + r"shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}" + _END, ("shpat_", "shpca_", "shppa_", "shpss_"), T),
    ("sendgrid-key", _START + r"SG\.[A-Za-z0-9_-]{16,}\.[A-Za-z0-9_-]{16,}", ("sg.",), T),
    ("twilio-key", _START + r"SK[0-9a-f]{32}" + _END, ("sk",), T),
    # `key-<32 hex>` alone is any hash with a prefix: a Mailgun key only where Mailgun is named.
    ("mailgun-key", r"(?<![\w-])key-[0-9a-f]{32}(?![0-9a-f])", ("key-",), {"token": True, "check": "mailgun"}),
    # Any vendor's prefixed token (`figd_...`, `nfp_...`, `tskey-api-...`): a short lower-case
    # prefix, then a long body that is random by every measure (`check_prefixed_random`).
    ("api-token", r"(?<![\w./-])[a-z][a-z0-9]{1,9}[_-](?:[a-z0-9]{2,8}[_-])?(?P<body>[A-Za-z0-9]{28,120})(?![\w/=%-]|\+(?!\}))",
     ("_", "-"), {"token": True, "words": True, "gate": r"[a-z0-9]{28}", "check": "prefixed_random"}),
    # A key handed to an SDK's client, or to a function named for one, by position
    # (`cohere.Client("<40 random>")`, `Auth.api_key("...")`): only a literal random by every
    # measure.
    ("api-key", r"\b[A-Za-z_][\w.]{0,60}(?:[Cc]lient(?:V\d)?|api_key|apikey|api_token|[Tt]oken)\(\s*\\?[\"']"
                r"(?P<body>[A-Za-z0-9_-]{32,200})\\?[\"']",
     ("client(", "clientv", "api_key(", "apikey(", "api_token(", "token("), {"check": "client_literal"}),
    # --- generic shapes ------------------------------------------------------------------
    # The signature is optional: an unsigned token, or one cut short, still carries its claims.
    ("jwt", r"(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}(?:\.[A-Za-z0-9_-]*)?", ("eyj",), {"token": True, "check": "not_example"}),
    # A URL's password (RFC 3986 userinfo). One written by hand (a `.git-credentials` line, a
    # remote pasted with its password) may hold `#`, `/`, `?` or a quote raw: the password runs
    # to the last `@` before the host, an `@` followed by a host name (dotted, or localhost)
    # and then `/`, `?` or `#` being where the authority ends. What follows `host:` is no
    # password when it is a port (up to five digits, `$PORT`) before a path, a query or a
    # fragment (`http://localhost:3000/#/login?to=a@b.io`, `https://mastodon.social:443/@Gargron`),
    # nor after a drive letter (`file://C:/Users/…/@babel`); refused here, not by the check, so a
    # later URL in the same text is still matched. A quote opening the URL ends it (the
    # password then holds no quote).
    ("url-password",
     r"(?:(?P<oq>[\"'`])|(?<![\"'`])\b|(?<=\\[nrt]))[a-z][a-z0-9+.-]{1,20}://[^\s/?#@:'\"`<>\[\]]*:"
     r"(?!\d{1,5}[/?#]|\$\{?\w+\}?[/?#]|/(?<=://[a-z]:/))(?P<secret>" + _USERINFO + r"+(?:@(?!" + _HOST_NAME + r"[/?#])"
     + _USERINFO + r"*)*)"
     r"@(?=" + _HOST + r"(?:[/?#\s'\"`<>]|$))",
     ("://",), {"lower": True, "check": "url_password"}),
    ("url-token", r"\b[a-z][a-z0-9+.-]{1,20}://(?P<secret>[a-z0-9_-]{20,})@", ("://",),
     {"lower": True, "check": "entropic"}),
    ("authorization",
     r"\b(?:proxy-)?authorization\\?[\"']?[ \t]{0,3}[:=][ \t]{0,3}\\?[\"']?(?:(?P<scheme>[a-z][\w.-]*)[ \t]+)?"
     r"(?P<secret>[^\s\"'\\,;]+)", ("authorization",), {"lower": True, "check": "authorization"}),
    # RFC 6750's characters and "%": a token pasted URL-encoded (an X/Twitter app-only token
    # is "AAAA...%2B...%3D...") must not be cut at its first escape, leaving the rest in clear
    ("bearer", r"\bbearer[ \t]+(?P<secret>[a-z0-9._~+/%-]{8,}=*)", ("bearer",), {"lower": True, "check": "bearer"}),
    ("basic-auth", r"\bbasic[ \t]+(?P<secret>[a-z0-9+/]{8,}={0,2})(?![a-z0-9+/=])", ("basic",),
     {"lower": True, "check": "basic"}),
    # --- command lines -------------------------------------------------------------------
    ("password",
     r"(?<=-)(?P<kw>" + KEYWORDS + r")(?P<suffix>[\w-]{0,30}?)(?:=|[ \t]+)" + _VALUE,
     KEY_NEEDLES, {"lower": True, "check": "flag", "start": "flag"}),
    ("password", r"\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b[^\n|;&]*?[ \t]-p"
                 r"(?:(?P<q>[\"'])(?P<quoted>[^\"'\n]{1,200})(?P=q)|(?P<secret>[^\s\"'`]+))",
     ("mysql", "mariadb"), {"check": "attached"}),
    ("password", r"\b(?:sshpass[ \t]+-p|redis-cli\b[^\n|;&]*?[ \t]-a|docker[ \t]+login\b[^\n|;&]*?[ \t]-p"
                 r"|mongo(?:sh|dump|restore)?\b[^\n|;&]*?[ \t]-p)[ \t]*\\?[\"']?(?P<secret>[^\s\"'`-][^\s\"'`]*)",
     ("sshpass", "redis-cli", "login", "mongo"), {"check": "placeholder"}),
    # A passphrase given to ssh-keygen (`-N` new, `-P` old; `-N ''` is none), and a password
    # echoed into a command that reads it from stdin (`echo X | docker login … --password-stdin`)
    ("password", r"-(?<![\w-]-)[NP][ \t]*" + _WORD, ("-n", "-p"), {"check": "tool:ssh-keygen"}),
    ("password", r"\b(?:echo(?:[ \t]+-n)?|printf(?:[ \t]+\\?[\"']%s\\?[\"'])?)[ \t]+\\?[\"']?(?P<secret>[^\s\"'`|\\]{4,200})\\?[\"']?[ \t]*\|"
                 r"[^\n|;&]*--password-stdin", ("--password-stdin",), {"check": "placeholder"}),
    ("basic-auth", r"(?:-u|--user|--http-user)[ =]\\?[\"']?[^\s:\"']*:(?:\\?(?P<q>[\"'])(?P<quoted>[^\"'\n\\]{1,200})\\?(?P=q)|(?P<secret>[^\s\"'\\]+))",
     ("-u", "--user", "--http-user"), {"check": "curl_user"}),
    # Options of common CLIs that take a password, whatever their spelling: a compound flag
    # ending in a password word (`-storepass`, `-deststorepass`, `--ks-pass`, `-passout`, with a
    # `pass:` prefix as openssl and apksigner write it), and the short options that mean a
    # password to one family of tools (sqlcmd/bcp `-P`, the ldap tools' `-w`, zip `-P`).
    ("password", r"(?<![\w-])-{1,2}(?:(?:src|dest|new|old)?(?:store|key|ks|keystore|truststore|trust|bind|admin|root|master|db|in|out)[-_]?)?"
                 r"pass(?:word|wd|phrase|in|out)?(?::(?!env|file|fd|stdin)[a-z]+)?(?:=|[ \t]+)(?:pass:)?" + _WORD,
     ("pass",), {"check": "cli_password"}),
    # (The flag comes first in each pattern, a literal start the regex engine scans for fast; the
    # tool is looked for on the command line only where a flag is found: `tool_check`.)
    ("password", r"-(?<![\w-]-)(?:P|p(?=[^\s-]))[ \t]*" + _WORD, ("-p",),
     {"check": "tool:sqlcmd|bcp|osql|isql|zip|unzip|zipcloak|7z|7za"}),
    ("password", r"-(?<![\w-]-)w[ \t]*" + _WORD, ("-w",),
     {"check": "tool:ldap(?:search|modify|add|delete|passwd|whoami|compare|modrdn|exop|url|vc)"}),
    ("password", r"-(?<![\w-]-)(?:p|-password)(?:=|[ \t]+)" + _WORD, ("-p", "--password"),
     {"check": "tool:(?:docker|podman|buildah|skopeo|helm|oc|az|nerdctl|crane|oras|regctl|cf|heroku)\\b[^|;&]*\\b(?:login|auth|add)"}),
    # Samba's `user%password` (smbclient, rpcclient, net, mount.cifs and the tools built on it).
    ("password", r"-(?:U[ \t]*|-user(?:name)?(?:=|[ \t]+))\\?[\"']?[\w.\\/@$-]+%(?P<secret>[^\s\"'`]+)",
     ("-u", "--user"), {"check": "samba"}),
    ("password", r"\bhtpasswd\b(?=(?P<args>[^\n|;&>`]*))", ("htpasswd",), {"check": "htpasswd"}),
    ("basic-auth", r"-(?<![\w-]-)(?:a|-auth)(?:=|[ \t]+)\\?[\"']?[^\s:\"']+:(?P<secret>[^\s\"'\\]+)", ("-a", "--auth"),
     {"check": "tool:http|https|xh|xhs|httpie"}),
    # Oracle's `user/password@database` (sqlplus, rman, Data Pump, `userid=`, JDBC thin URLs).
    ("password", r"(?:\b(?:sqlplus|sqlldr|rman|expdp|impdp|exp|imp|dgmgrl|orapki)\b[^\n|;&]{0,200}?"
                 r"[ \t]|\buserid=|\bconn(?:ect)?[ \t]+|jdbc:oracle:\w+:)[\"']?[\w$#.]+/(?P<secret>[^\s/@\"']+)@",
     ("sqlplus", "sqlldr", "rman ", "expdp", "impdp", "exp ", "imp ", "dgmgrl", "orapki", "userid=", "conn ",
      "connect ", "jdbc:oracle"), {"lower": True, "check": "placeholder"}),
    # Go's MySQL DSN, `user:password@tcp(host:3306)/db`: not a URL, so the URL rule cannot see it.
    ("password", r"[\w.-]{1,60}:(?P<secret>(?!%[sdvq]@)[^\s\"'`@/:]{1,200})@(?:tcp|udp|unix)\(", ("@tcp(", "@udp(", "@unix("),
     {"check": "placeholder"}),
    # ODBC and ADO.NET quote a value holding `;` in braces: `Pwd={p;ss}`.
    ("password", r"\b(?:pwd|password)[ \t]*=[ \t]*\{(?P<secret>[^{}\n]{1,400})\}(?!\})", ("pwd", "password"),
     {"lower": True, "check": "placeholder"}),
    # What a command prints on the next line: the secret AWS keeps for a profile, a Secret's
    # field read through a jsonpath or Go template (base64, or decoded).
    ("aws-secret", r"\baws[ \t]+configure[ \t]+get[ \t]+(?:aws_secret_access_key|aws_session_token)"
                   r"(?:[ \t]+--?[\w-]+(?:[ \t=]+[\w.-]+)?)*(?:\s|\\r|\\n)+(?:\$[ \t]+)?(?P<secret>[a-z0-9/+=]{20,})(?![\w/+=])",
     ("configure",), {"lower": True, "check": "placeholder"}),
    ("kubernetes-secret", r"\bkubectl\b[^\n|;&]*?[ \t]get[ \t]+secrets?\b[^\n|;&]*?-o[ \t=]*(?:jsonpath|go-template)=?"
                          r"[ \t]*\\?(?P<jq>[\"']?)\{[^}\n]*\}+\\?(?P=jq)(?:[ \t]*\|[ \t]*base64[ \t]+(?:-d|--decode|-D))?(?:[ \t]*;[ \t]*echo)?"
                          r"(?:\s|\\r|\\n)+(?P<secret>[^\s\"'`$|-][^\s\"'`]{7,})",
     ("kubectl",), {"check": "placeholder"}),
    # `vault kv get`/`vault read`: a Key/Value table whose secret rows are named for a secret.
    ("secret-assignment", _START + r"Key(?:[ \t]+|\\t)Value(?:\s|\\r|\\n)+-{3}(?:[ \t]+|\\t)-{5}(?P<body>(?:(?:\s|\\r|\\n)+(?!Key\b|={3})[^\s\\]+(?:[ \t]+|\\t)[^\s\\]+){1,60})",
     ("-----",), {"check": "key_value_table"}),
    # A CSV export or a bordered table whose header names a column for a password: its cells
    # in the rows below (`username,email,password`, `| user | password |`).
    ("password", r"(?<![\w-])(?P<name>password|passwd|pwd|pass)\\?\"?[ \t]*(?=[,;\t|]|\r?\n|(?:\\r)?\\n)",
     ("password", "passwd", "pwd", "pass"), {"lower": True, "check": "delimited_table"}),
    # A database driver's connect call whose password is its third argument, by position:
    # `new mysqli(host, user, "pw", db)`, `mysqli_connect(...)`, `pymssql.connect(server, user, "pw")`,
    # JDBC's `DriverManager.getConnection(url, user, "pw")`, `new PDO(dsn, user, "pw")`, Perl's
    # `DBI->connect(dsn, user, "pw")`; its arguments on lines of their own, written or escaped.
    ("password", r"\b(?:new[ \t]+mysqli|mysqli_connect|mysql_connect|pymssql\.connect|_mssql\.connect"
                 r"|drivermanager\.getconnection|new[ \t]+pdo|dbi->connect)\((?:\s|\\[nrt])*"
                 r"(?:(?:\\?(?P<q1>[\"'])[^\"'\n\\]*\\?(?P=q1)|\$?[a-z_][\w.$>\[\]-]{0,80})(?:\s|\\[nrt])*,(?:\s|\\[nrt])*){2}"
                 r"\\?(?P<q>[\"'])(?P<secret>[^\"'\n\\]{4,200})\\?(?P=q)",
     ("mysqli", "mysql_connect", "pymssql.connect", "_mssql.connect", "getconnection", "new pdo", "dbi->connect"),
     {"lower": True, "check": "placeholder"}),
    # A SQL INSERT with its column list: the values of a column named for a secret
    ("password", r"\binsert[ \t]+into[ \t]+[\w.`\"\[\]]+[ \t]*\((?P<cols>[^()]{1,2000})\)(?:\s|\\[nrt])*values(?:\s|\\[nrt])*"
                 r"(?P<body>\([\s\S]{1,20000}?\))[ \t]*(?:;|\\?\"|$)", ("insert into",), {"lower": True, "check": "sql_insert"}),
    # psql's aligned output: a column named for a password, its cells in every row.
    ("password", r"(?P<header>[^\n|]{0,200}\|[^\n]{0,2000}?)(?:\s|\\n)+(?P<rule>-{2,}(?:\+-{2,})+)(?P<rows>[\s\S]{1,20000}?)(?:\(\d+ rows?\)|\Z)",
     ("-+-",), {"check": "psql_table"}),
    # Bundler's credentials for a gem server: `BUNDLE_GEMS__CONTRIBSYS__COM=user:pass`, or set
    # with `bundle config set --global gems.contribsys.com user:pass`.
    ("password", r"\bbundle_[a-z0-9_]*__[a-z0-9_]+\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?[^\s:\"']+:(?P<secret>[^\s\"'@]{4,200})",
     ("bundle_",), {"lower": True, "check": "placeholder"}),
    ("password", r"\bbundle[ \t]+config(?:[ \t]+set)?(?:[ \t]+--(?:global|local))?[ \t]+[\w.-]+\.[a-z]{2,}[ \t]+[^\s:\"']+:(?P<secret>[^\s\"'@]{4,200})",
     ("bundle config",), {"lower": True, "check": "placeholder"}),
    # MySQL's native password hash: `*` and 40 upper-case hex (`mysql.user`, `IDENTIFIED BY PASSWORD`)
    ("password-hash", r"(?<![\w*])\*[0-9A-F]{40}(?![0-9A-Za-z])", ("mysql", "authentication_string", "by password"), {}),
    # A Terraform variable's default under a secret's name: `variable "db_password" { default = "..." }`
    ("secret-assignment", r"variable(?<!\wvariable)[ \t]+\\?\"(?P<name>[\w-]{3,80})\\?\"[ \t]*\{[^{}]{0,400}?\bdefault[ \t]*=[ \t]*"
                          r"\\?\"(?P<secret>[^\"\\\n]{1,400})\\?\"", ("variable",), {"check": "named_literal"}),
    # A default behind a secret's variable: `${DB_PASSWORD:pw}` (Spring, shell's `:-`),
    # `process.env.API_SECRET || 'pw'`, `env::var("X").unwrap_or(...("pw"))` (`os.getenv("API_TOKEN", "pw")`
    # is the named literal's, below).
    ("secret-assignment", r"\$\{(?P<name>[A-Za-z_][\w.-]{2,80}):-?(?P<secret>(?![?+=])[^}\s${#]{6,400})\}", ("${",), {"check": "named_literal"}),
    *(("secret-assignment", opening + r"(?P<name>[A-Za-z_]\w{2,80})" + between + r"\\?[\"'](?P<secret>[^\"'\n\\]{6,400})\\?[\"']",
        (needle,), {"check": "named_literal"}) for opening, between, needle in (
        (r"process\.env\.", r"\s*(?:\|\||\?\?)\s*", "process.env."),
        (r"env::var\(\s*\\?\"", r"\\?\"\)\.unwrap_or(?:_else)?\([^\"'\n]{0,20}", "env::var("))),
    # fish's `set -gx NAME value`
    ("secret-assignment", r"\bset[ \t]+-[gxUul]{1,4}[ \t]+(?P<name>[A-Za-z_]\w{2,80})[ \t]+\\?[\"']?(?P<secret>[^\s\"';]{6,400})",
     ("set -",), {"check": "named_literal"}),
    # `gh secret set NAME --body "..."`, Apache's `RequestHeader set X-Api-Key "..."`, Honeycomb's team key header
    ("secret-assignment", r"\bgh[ \t]+secret[ \t]+set[ \t]+(?P<name>[\w-]+)\b[^\n|;&]*?(?:--body|-b)[ \t=]+\\?[\"']?(?P<secret>[^\s\"']{8,400})",
     ("gh secret set",), {"check": "placeholder"}),
    ("secret-assignment", r"\bRequestHeader[ \t]+(?:set|add|append)[ \t]+(?P<name>[\w-]{3,80})[ \t]+\\?\"(?P<secret>[^\"\n\\]{8,400})\\?\"",
     ("requestheader",), {"check": "named_literal"}),
    # (a header, or OTEL_EXPORTER_OTLP_HEADERS' `x-honeycomb-team=…`)
    ("honeycomb-key", r"x-honeycomb-team\\?[\"']?[ \t]*[:=][ \t]*(?P<secret>[a-z0-9]{16,64})", ("x-honeycomb-team",), {"lower": True}),
    # Redis: `requirepass` and `masterauth` in redis.conf, and `CONFIG GET requirepass`'s answer
    ("password", _START + r"(?<!#[ \t])(?:requirepass|masterauth)(?:[ \t]+|\\?\"[ \t]*(?:\r?\n|\\n)?[ \t]*2\)[ \t]*)\\?[\"']?(?P<secret>[^\s\"'\\]{6,400})",
     ("requirepass", "masterauth"), {"lower": True, "check": "placeholder"}),
    # Wi-Fi: wpa_supplicant's `psk="..."` (the passphrase)
    ("password", r"\bpsk[ \t]*=[ \t]*\\?\"(?P<secret>[^\"\n\\]{8,63})\\?\"", ("psk=", "psk ="), {"lower": True, "check": "placeholder"}),
    # Gradle's signing config: `storePassword "..."`, `keyPassword "..."` (no `=` in Groovy)
    ("password", r"\b(?:store|key)Password[ \t]+\\?[\"'](?P<secret>[^\"'\n\\]{4,400})\\?[\"']", ("storepassword", "keypassword"),
     {"check": "placeholder"}),
    # PowerShell: `ConvertTo-SecureString "..." -AsPlainText`
    ("password", r"ConvertTo-SecureString[ \t]+(?:-String[ \t]+)?\\?[\"'](?P<secret>[^\"'\n\\]{4,400})\\?[\"'][^\n|;]*?-AsPlainText",
     ("convertto-securestring",), {"check": "placeholder"}),
    # A secret-reading command and what it prints: the value alone on the next line
    # (`gcloud secrets versions access`, `bw get password`, `pass show`, `op read`,
    # `vault kv get -field=`, macOS `security find-generic-password -w`), or its JSON field
    # (`aws ssm get-parameter --with-decryption`'s "Value", `aws secretsmanager get-secret-value`'s
    # "SecretString", `az keyvault secret show`'s "value").
    ("secret-assignment", r"\b(?:(?:gcloud[ \t]+secrets[ \t]+versions[ \t]+access|bw[ \t]+get[ \t]+password|pass[ \t]+show|op[ \t]+read"
                          r"|lpass[ \t]+show[ \t]+--password|vault[ \t]+(?:kv[ \t]+)?(?:get|read)[ \t]+-field=[^\s\\]+)[ \t]+"
                          # the item: quoted, spaces and all (`bw get password 'AWS root'`), or one word
                          r"(?:\\?'[^'\n\\]*\\?'|\\?\"[^\"\n\\]*\\?\"|[^\s|;&>\\'\"-](?:[^\s\\]|\\(?![rn]))*)"
                          r"(?:[ \t]+--?[\w-]+(?:=[^\s|;&>\\]+)?)*"
                          r"|security[ \t]+find-generic-password\b[^\n|;&]*?[ \t]-w"
                          r"|op[ \t]+item[ \t]+get\b[^\n|;&]*?--reveal|openssl[ \t]+rand[ \t]+-(?:base64|hex)[ \t]+\d+"
                          r"|(?:bin/)?(?:rails|rake)[ \t]+secret|cat[ \t]+[^\s\\]*master\.key|bitcoin-cli\b[^\n|;&]*?[ \t]dumpprivkey[ \t]+[^\s\\]+)"
                          r"(?:\s|\\r|\\n)+(?:\$[ \t]+)?(?P<secret>[^\s\\]{6,400})",
     ("secrets versions access", "bw get password", "pass show", "lpass show", "op read", "-field=", "find-generic-password",
      "--reveal", "openssl rand", "rails secret", "rake secret", "master.key", "dumpprivkey"),
     {"check": "placeholder"}),
    ("secret-assignment", r"\b(?:aws[ \t]+ssm[ \t]+get-parameters?\b[^\n]*?--with-decryption|aws[ \t]+secretsmanager[ \t]+get-secret-value"
                          r"|az[ \t]+keyvault[ \t]+secret[ \t]+show)[\s\S]{0,2000}?\\?\"(?:Value|SecretString|value)\\?\"[ \t]*:[ \t]*"
                          r"\\?\"(?P<secret>[^\"\\\n]{6,4000})\\?\"",
     ("--with-decryption", "get-secret-value", "keyvault secret show"), {"check": "placeholder"}),
    # SNMP: a v1/v2c community (`snmpwalk -c X`), a v3 auth or privacy passphrase (`-A`, `-X`),
    # and a device's `snmp-server community X` ("public" and "private" are the defaults)
    *(("password", r"\bsnmp(?:walk|bulkwalk|get|bulkget|getnext|set|table|trap|status|df|netstat)\b[^\n|;&]*?[ \t]-" + flag
       + r"[ \t]*\\?[\"']?(?P<secret>[^\s\"'\\-][^\s\"'\\]{3,200})", ("snmp",), {"check": "snmp_community"}) for flag in ("[cA]", "X")),
    ("password", r"\bsnmp-server[ \t]+community[ \t]+(?P<secret>\S{4,200})", ("snmp-server",), {"check": "snmp_community"}),
    # Cisco IOS: `username u password 7 <hex>` (type 7, a reversible encoding: two decimal digits
    # then hex pairs; "set the password 7 times" is prose), and type 0's clear text only where a
    # configuration says it (`enable secret 0 X`, `username u [privilege 15] secret 0 X`, a
    # line's own `password 0 X` under `line vty`); on a `username` line, whatever type 7 holds.
    ("password", r"\b(?:password|secret)[ \t]+7[ \t]+(?P<secret>\d\d(?:[0-9A-Fa-f]{2}){2,100})(?![\w$])",
     ("secret 7", "password 7"), {}),
    # (a line may start after a JSON-escaped break: a tool's output kept as JSON text, "...\\nenable secret 0 X")
    ("password", r"(?:(?:\b|(?<=\\[nrt]))enable[ \t]+(?:secret|password)|(?:\b|(?<=\\[nrt]))username[ \t]+\S+[ \t]+(?:privilege[ \t]+\d+[ \t]+)?(?:password|secret)"
                 r"|(?:(?m:^)|(?<=\\n))[ \t]*(?:password|secret))[ \t]+0[ \t]+(?P<secret>\S{4,200})"
                 r"|(?:\b|(?<=\\[nrt]))username[ \t]+\S+[ \t]+(?:privilege[ \t]+\d+[ \t]+)?(?:password|secret)[ \t]+7[ \t]+(?P<word>\S{4,200})",
     ("secret 0", "password 0", "secret 7", "password 7"), {"check": "cisco"}),
    # ... and its type 8 (PBKDF2) and 9 (scrypt) hashes: `secret 9 $9$salt$hash`
    ("password-hash", r"\b(?:password|secret)[ \t]+[89][ \t]+(?P<secret>\$[89]\$[./A-Za-z0-9$]{20,200})",
     ("secret 8", "secret 9", "password 8", "password 9"), {}),
    # strongSwan's ipsec.secrets: `left right : PSK "X"`
    ("password", r":[ \t]*(?:PSK|EAP|XAUTH)[ \t]+\\?[\"'](?P<secret>[^\"'\n\\]{4,400})\\?[\"']", (": psk", ":psk", ": eap", ": xauth"),
     {"check": "placeholder"}),
    # A user's password given to a server's own tool: `rabbitmqctl add_user u X`,
    # `mosquitto_pub -P X`, `poetry config http-basic.repo user X`
    ("password", r"\b(?:rabbitmqctl[ \t]+(?:add_user|change_password)|poetry[ \t]+config[ \t]+http-basic\.\S+)[ \t]+\S+[ \t]+"
                 r"\\?[\"']?(?P<secret>[^\s\"'\\]{4,200})", ("rabbitmqctl", "http-basic."), {"check": "placeholder"}),
    ("password", r"\bmosquitto_(?:pub|sub|rr)\b[^\n|;&]*?[ \t]-P[ \t]+\\?[\"']?(?P<secret>[^\s\"'\\]{4,200})", ("mosquitto_",),
     {"check": "placeholder"}),
    # InfluxDB's CLI: `influx ... -t <token>`
    ("secret-assignment", r"\binflux\b[^\n|;&]*?[ \t](?:-t|--token)(?:[ \t]+|=)\\?[\"']?(?P<secret>[^\s\"'\\-][^\s\"'\\]{19,400})",
     ("influx",), {"check": "placeholder"}),
    # `elasticsearch-reset-password` prints the new password after "New value:"
    ("password", r"\belasticsearch-reset-password\b[\s\S]{0,800}?New value:[ \t]*(?P<secret>\S{6,400})",
     ("elasticsearch-reset-password",), {"check": "placeholder"}),
    # A Cloudflare tunnel's token: `cloudflared service install <token>`, `tunnel run --token <token>`
    ("cloudflare-tunnel-token", r"\bcloudflared\b[^\n|;&]*?(?:service[ \t]+install|--token)[ \t=]+(?P<secret>[A-Za-z0-9+/=_-]{40,})",
     ("cloudflared",), {}),
    # A table row whose first cell names a secret and whose next cell holds one word: a
    # Markdown table of variables (`| `AWS_SECRET_ACCESS_KEY` | `…` |`), a secrets manager's
    # box-drawn listing (`│ DB_PASSWORD │ … │`), judged as a value under that name would be.
    ("secret-assignment", _CELL_RULE + r"[ \t]*`?(?P<name>[A-Za-z_][\w.-]{2,80})`?[ \t]*" + _CELL_RULE + r"[ \t]*"
                          r"`?(?P<secret>(?:(?!\\u2502)[^\s`|\u2502]){4,400})`?[ \t]*" + _CELL_RULE, ("|", "\u2502", "\\u2502"),
     {"lower": True, "check": "named_literal", "start": "table_row"}),
    # A Kubernetes bootstrap token (`kubeadm join … --token abcdef.0123456789abcdef`)
    ("kubernetes-bootstrap-token", r"(?<![\w.])[a-z0-9]{6}\.[a-z0-9]{16}(?![\w.])", ("kubeadm", "bootstrap"),
     {"check": "has_digit"}),
    # Hadoop's S3A secret in a properties or spark-defaults line (`fs.s3a.secret.key   <40>`)
    ("aws-secret", r"\bfs\.s3a\.secret\.key\\?[\"']?(?:[ \t]*[=:][ \t]*|[ \t]+)\\?[\"']?(?P<secret>[A-Za-z0-9/+=]{40})(?![A-Za-z0-9/+=])",
     ("s3a.secret.key",), {}),
    # A minisign secret key: its comment line, then the key's base64 (`RW…`)
    ("private-key", r"minisign (?:encrypted )?secret key(?:\s|\\[nrt])+(?P<secret>RW[A-Za-z0-9+/]{50,}={0,2})",
     ("minisign",), {"lower": False}),
    # Mattermost's incoming webhook: `https://chat.example/hooks/<26 characters>`
    ("mattermost-webhook", r"https?://[^\s/\\\"']+/hooks/(?P<secret>[a-z0-9]{26})(?![\w-])", ("/hooks/",), {"check": "has_digit"}),
    # JFrog Artifactory's API key (`AKCp` and 69 more)
    ("jfrog-key", _START + r"AKCp[A-Za-z0-9]{69}" + _END, ("akcp",), T),
    # What a CLI is given to keep: `ngrok config add-authtoken <t>`, `b2 account authorize <id> <key>`
    ("ngrok-token", r"\bngrok\b[^\n|;&]*?\b(?:add-authtoken|authtoken)[ \t=]+(?P<secret>[A-Za-z0-9_]{30,})",
     ("authtoken",), {}),
    ("backblaze-key", r"\bb2\b[^\n|;&]*?\b(?:authorize-account|account[ \t]+authorize)[ \t]+[0-9a-f]{12,25}[ \t]+"
                      r"(?P<secret>K\d{3}[A-Za-z0-9+/]{27,})", ("authorize-account", "account authorize"), {}),
    # An Ethereum account's private key in a Hardhat/Truffle config: `accounts: ["0x<64 hex>"]`
    ("private-key", r"\baccounts[ \t]*:[ \t]*\[(?:\s|\\[nrt])*\\?[\"'](?P<secret>0x[0-9a-fA-F]{64})\\?[\"']",
     ("accounts",), {}),
    # kaggle.json: `{"username":"…","key":"<32 hex>"}`
    ("kaggle-key", r"\\?\"username\\?\"[ \t]*:[ \t]*\\?\"[^\"\\\n]{1,80}\\?\"[ \t]*,[ \t]*\\?\"key\\?\"[ \t]*:[ \t]*"
                   r"\\?\"(?P<secret>[0-9a-f]{32})\\?\"", ('"username',), {}),
    # A name and its value as two members of one object: an ECS task's environment
    # (`{"name": "DB_PASSWORD", "value": "…"}`), CloudFormation's ParameterKey/ParameterValue
    ("secret-assignment", r"\\?\"(?:name|Name|key|Key|ParameterKey)\\?\"[ \t]*:[ \t]*\\?\"(?P<name>[\w.-]{3,80})\\?\"[ \t]*,"
                          r"(?:\s|\\[nrt])*\\?\"(?:value|Value|ParameterValue)\\?\"[ \t]*:[ \t]*\\?\"(?P<secret>[^\"\\\n]{4,400})\\?\"",
     ("value\"", "value\\\""), {"check": "named_literal"}),
    # A CLI that stores a secret given on its own line: `eas secret:create --name N --value V`,
    # `az keyvault secret set --value V`, `circleci context store-secret … N <<< "V"`,
    # `travis env set NAME V`
    ("secret-assignment", r"\b(?:[\w.-]*secret[\w:.-]*[^\n|;&]*?[ \t](?:--value|--secret-string|--secret-value)(?:=|[ \t]+)"
                          r"|[\w.-]*secret[\w:.-]*[^\n|;&]*?<<<[ \t]*|travis[ \t]+env[ \t]+set[ \t]+[\w.-]+[ \t]+)"
                          r"\\?[\"']?(?P<secret>[^\s\"'\\]{8,400})",
     ("--value", "--secret-string", "--secret-value", "<<<", "travis env set"), {"lower": True, "check": "placeholder"}),
    # A two-column MySQL table (`+---+---+`) whose row is named for a secret: `| smtp/password | ... |`
    ("password", r"\+-{3,}\+-{3,}\+(?P<body>[\s\S]{1,20000}?)(?:\+-{3,}\+-{3,}\+(?:\s|\\n)*(?:\d+ rows? in set|$)|\Z)",
     ("+---",), {"check": "mysql_pairs"}),
    # WordPress's keys and salts in wp-config.php
    ("secret-assignment", r"\bdefine\(\s*\\?'(?:AUTH|SECURE_AUTH|LOGGED_IN|NONCE)_(?:KEY|SALT)\\?'\s*,\s*\\?'(?P<secret>[^'\n]{16,400})\\?'",
     ("_key'", "_salt'"), {"check": "placeholder"}),
    # Terraform state: a random_password's result
    ("password", r"\\?\"result\\?\"[ \t]*:[ \t]*\\?\"(?P<secret>[^\"\\\n]{8,400})\\?\"", ("random_password",), {"check": "placeholder"}),
    # OpenVPN's static key (tls-auth, tls-crypt)
    ("private-key", r"-----BEGIN OpenVPN Static key V1-----[\s\S]*?(?:-----END OpenVPN Static key V1-----|\Z)",
     ("openvpn static key",), {}),
    ("crates-io-token", _START + r"cio[A-Za-z0-9]{32}" + _END, ("cio",), {"token": True, "check": "random_body"}),
    # A .pgpass line: host:port:database:user:password.
    ("password", r"(?:^|(?<=\n)|(?<=\\n)|(?<=[\s\"'`]))(?:[\w.*-]+|\[[0-9a-f:]+\]):(?:\d{1,5}|\*):[^:\s\"']+:[^:\s\"']+:"
                 # five fields: a colon in the password is escaped (a line of /etc/shadow has nine)
                 # (in escaped text its line ends at `\n`: no part of the password)
                 r"(?P<secret>(?:[^\s\"'`:\\]|\\[^nrt])+)(?=[\s\"'`]|\\[nrt]|$)",
     (":*:", ":5432:", ":5433:", ":5434:", ":6432:", ":15432:", ".pgpass"),
     {"check": "placeholder"}),
    # A password told in a sentence: "the staging db password is m94PLb7E3Oz!S5". Only a value
    # that looks chosen (a digit or a symbol beside letters): "the password is wrong" is prose.
    # (also as JSON escapes them: a turn's text is redacted in its stored form too)
    ("password", r"\b(?:password|passphrase|passwd|passwort|kennwort|mot de passe|contrase(?:ñ|n|\\u00f1)a|senha|"
                 r"wachtwoord|has(?:ł|l|\\u0142)o|l(?:ö|o|\\u00f6)senord(?:et)?|salasana|kata sandi|m(?:ậ|\\u1ead)t kh(?:ẩ|\\u1ea9)u|"
                 r"heslo|jelsz(?:ó|o|\\u00f3)|adgangskode(?:n)?|passord(?:et)?|nenosiri|lozinka|geslo|parola|"
                 # chat's shorthand: "staging pw: X", "pass is X", "my api key is X"
                 r"pw|(?:pass|api[ -]?key)(?=[ \t]+(?:is|was)[ \t]))"
                 r"(?:(?:[ \t]+[^\s]{1,30}){0,8}?[ \t]+"
                 r"(?:is|was|will be|should be|would be|est|es|ist|lautet|è|é|\\u00e8|\\u00e9|e|era|war|är|\\u00e4r|on|jest|to|adalah|l(?:à|\\u00e0)"
                 r"|je|er|ni|ay|este):?|(?:[ \t]+[^\s:]{1,30}){1,8}?[ \t]?:|(?<!password)(?<!passwd)(?<!passphrase)[ \t]?:)[ \t]+"
                 r"(?:[\"'`]|(?:«|\\u00ab)[ \t]?)?(?P<secret>[^\s\"'`«»]{6,200}?)(?:[\"'`]|[ \t]?(?:»|\\u00bb))?" + _TOLD_END,
     ("password", "passphrase", "passwd", "passwort", "kennwort", "mot de passe", "contrase", "senha",
      "wachtwoord", "hasło", "haslo", "has\\u0142o", "lösenord", "losenord", "l\\u00f6senord", "salasana", "kata sandi", "mật khẩu", "m\\u1eadt kh",
      "heslo", "jelszó", "jelszo", "jelsz\\u00f3", "adgangskode", "passord", "nenosiri", "lozinka", "geslo", "parola",
      "pw", "pass ", "api key", "api-key", "apikey"),
     {"lower": True, "check": "told"}),
    # A password told with no verb nor colon: "connect with password Xk9#mQ2vL7pR", "pw
    # Summer2024!". Only a value shaped as one (three classes of characters, not words): "the
    # password reset flow", "a password manager" and "password123" as an example stay prose.
    ("password", r"\b(?:password|passwd|passphrase|pwd|pw)[ \t]+[\"'`]?(?P<secret>[^\s\"'`\\]{8,200})[\"'`]?"
                 r"(?=[\s\\]|$)",
     ("password", "passwd", "passphrase", "pw"), {"lower": True, "check": "told_bare"}),
    # Turkish puts no verb between the word and the password: "sunucunun şifresi X".
    ("password", r"(?<!\w)(?:" + "|".join(map(_escaped, ("şifre", "sifre", "parola"))) + r")(?:si|sı|\\u0131|m|miz)?:?[ \t]+"
                 r"[\"'`]?(?P<secret>[^\s\"'`]{6,200}?)[\"'`]?" + _TOLD_END,
     ("şifre", "sifre", "\\u015fifre", "parola"), {"lower": True, "check": "told"}),
    # German and Indonesian may too: "Benutzer admin, Kennwort X", "kata sandinya X ya".
    ("password", r"\b(?:kennwort|passwort|kata[ \t]+sandi(?:nya)?):?[ \t]+"
                 r"[\"'`]?(?P<secret>[^\s\"'`]{6,200}?)[\"'`]?" + _TOLD_END,
     ("kennwort", "passwort", "kata sandi"), {"lower": True, "check": "told"}),
    # A key or token told after a colon: "the api key for the sandbox account: X", "token de la
    # API de producción: X", "der API-Schlüssel für das Monitoring: X".
    ("secret-assignment", r"\b(?:api[ -]?key|(?:api|access|auth|webhook|bot|deploy|refresh|session)[ -]?token|secret[ -]?(?:access[ -]?)?key|token de|"
                          r"token f(?:ü|ue|\\u00fc)r|clave|chiave|(?:api-)?schl(?:ü|ue|\\u00fc)ssel)(?:[ \t]+[^\s:]{1,30}){0,8}?:[ \t]+"
                          r"[\"'`]?(?P<secret>[^\s\"'`]{12,200}?)[\"'`]?" + _TOLD_END,
     ("api key", "api-key", "api token", "api-token", "access token", "access-token", "auth token", "auth-token",
      "secret key", "secret-key", "secret access key", "webhook token", "bot token", "deploy token", "refresh token",
      "session token", "webhook-token", "bot-token", "deploy-token", "refresh-token", "session-token",
      "token de", "token f", "clave", "chiave", "schlüssel",
      "schluessel", "schl\\u00fcssel"), {"lower": True, "check": "told_key"}),
    # The same told with a verb in a commit or a chat: "Key is 99niu1mKUZ…, revoke it after".
    ("secret-assignment", r"(?:key(?<![\w]key)|token(?<![\w]token))[ \t]+(?:is|was)[ \t]+[\"'`]?(?P<secret>[^\s\"'`]{12,200}?)[\"'`]?" + _TOLD_END,
     ("key is", "key was", "token is", "token was"), {"lower": True, "check": "told_key", "start": "told_key"}),
    # `snyk auth <token>`: the CLI stores the token given on its command line
    ("api-token", r"\bsnyk[ \t]+auth[ \t]+(?P<secret>[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})(?![0-9a-f])",
     ("snyk auth",), {"lower": True}),
    # An app password as Google shows it, four groups of four: "the app password … is `abcd efgh ijkl mnop`"
    ("password", r"\bapp[ -]?passwords?\b[^\n]{0,80}?[\"'`]?(?P<secret>(?<![\w-])[a-z0-9]{4}(?:[ \t][a-z0-9]{4}){3})(?![\w-])",
     ("app password", "app-password", "apppassword"), {"lower": True}),
    # A wallet's recovery phrase: 12 to 24 short lower-case words after its name
    ("seed-phrase", r"(?:mnemonic|seed[ _-]?phrase|recovery[ _-]?phrase|secret[ _-]?phrase|seed[ _-]?words|backup[ _-]?phrase)"
                    r"[^\n]{0,60}?(?P<secret>(?<![a-z])(?<![a-z][ \t])[a-z]{3,8}(?:[ \t]+[a-z]{3,8}){11,23})(?![ \t]*[a-z])",
     ("mnemonic", "seed phrase", "seed_phrase", "seed-phrase", "seedphrase", "recovery phrase", "recovery_phrase",
      "recovery-phrase", "secret phrase", "seed words", "seed_words", "backup phrase"), {"lower": True, "check": "seed_phrase"}),
    # A login told as "user / password" ("the sftp login is deploy / Zr!A55dM!FBM3", "log in
    # to the router with admin / I19.^B-X"): spaces around the slash (a path has none)
    ("password", r"\b(?:log[ -]?in|credentials?|creds)\b[^\n/]{0,40}?[\w.@+-]{2,60}[ \t]+/[ \t]+"
                 r"(?P<secret>[^\s/,;\"'`]{6,200}?)(?=[\s,;)\"'`]|[.!?](?:\s|$)|$)",
     ("login", "log in", "log-in", "credential", "creds"), {"lower": True, "check": "told_pair"}),
    # A password told in a script without spaces between words, or after a colon: "本番DBの
    # パスワードは X です", "服务器 root 密码是 X", "пароль от сервера: X", "비밀번호는 X"
    # (also as JSON escapes them, `\u5bc6\u7801`: a turn's text is redacted in its stored form too)
    ("password", "(?:" + "|".join(map(_escaped, _TOLD_SCRIPT_WORDS)) + ")"
                 r"(?:(?!\n)[^:：]){0,150}?(?:" + "|".join(map(_escaped, _TOLD_SCRIPT_SEPARATORS)) + ")[ \t]*"
                 r"[\"'`«]?[ \t]*(?P<secret>(?:(?![\"'`\\«»])[\x21-\x7e]){6,200})(?=[\\\"'`]|[^\x21-\x7e]|$)",
     _TOLD_SCRIPT_NEEDLES, {"lower": True, "check": "told_ascii"}),
    # Hindi puts the verb after the password: "सर्वर का पासवर्ड X है".
    ("password", _escaped("पासवर्ड") + r"[ \t]+(?P<secret>(?:(?![\"'`\\])[\x21-\x7e]){6,200})[ \t]+" + _escaped("है"),
     ("पासवर्ड", "\\u092a\\u093e\\u0938"), {"lower": True, "check": "told_ascii"}),
    # Persian too, with a few words between: "رمز عبور سرور تست X است".
    ("password", _escaped("رمز عبور") + r"(?:[ \t]+(?:[^\x00-\x7f\s]|\\u[0-9a-f]{4})+){0,4}[ \t]+(?P<secret>(?:(?![\"'`\\])[\x21-\x7e]){6,200})[ \t]+"
     + _escaped("است"), ("رمز عبور", "\\u0631\\u0645\\u0632"), {"lower": True, "check": "told_ascii"}),
    # A SQL statement's password: `ALTER ROLE x WITH LOGIN PASSWORD '...'`, `CREATE USER x
    # IDENTIFIED BY '...'` (a dump, a migration, a psql history)
    ("password", r"\b(?:password|identified[ \t]+by)(?:[ \t]+|[ \t]*=[ \t]*[nN]?)\\?(?P<q>['\"])(?P<secret>[^'\"\n\\]{1,400})\\?(?P=q)",
     ("password", "identified"), {"lower": True, "check": "placeholder"}),
    # `terraform output -json` and the like: a value marked sensitive
    ("secret-assignment", r"\{[^{}]{0,200}\\?\"sensitive\\?\":[ \t]*true[^{}]{0,200}\\?\"value\\?\":[ \t]*"
                          r"\\?\"(?P<secret>[^\"\n\\]{1,400})\\?\"",
     ("sensitive",), {"lower": True, "check": "placeholder"}),
    # Password hashes: crypt(3)'s $1$/$2b$/$5$/$6$/$y$, argon2, PostgreSQL's SCRAM verifier
    ("password-hash", r"\$(?:1|2[abxy]?|5|6|y|gy|7|apr1)\$[./A-Za-z0-9$]{20,200}|\$argon2(?:id|i|d)\$[\w=$,+/.-]{20,200}"
                      r"|SCRAM-SHA-256\$\d+:[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+",
     ("$1$", "$2$", "$2a$", "$2b$", "$2x$", "$2y$", "$5$", "$6$", "$y$", "$gy$", "$7$", "$apr1$", "$argon2",
      "scram-sha-256$"), {}),
    # A PKCS#12 bundle (a certificate and its private key) as base64: DER's SEQUENCE, version 3
    ("private-key", r"MII[A-Za-z0-9+/]{3}IBAzCC[A-Za-z0-9+/=\n\r]{60,}", ("ibazcc",), {}),
    # A .netrc entry; in a transcript's escaped text its line breaks are `\n` and end a word
    # (a greedy `\S+` took `X\nmachine` for the password and the next entry lost its start).
    ("password", r"\bmachine" + _NETRC_GAP + _NETRC_WORD + _NETRC_GAP + r"(?:login" + _NETRC_GAP + _NETRC_WORD
     + _NETRC_GAP + r")?password" + _NETRC_GAP + r"(?P<secret>" + _NETRC_WORD + r")",
     ("machine",), {"lower": True, "check": "placeholder"}),
    # --- code -----------------------------------------------------------------------------
    # A pair whose second member is a literal: `auth=("user", "pw")`, `HTTPBasicAuth("u", "p")`,
    # `smtp.login(user, "pw")`, `SetBasicAuth("u", "p")`, `NetworkCredential("u", "p")`, Rust's
    # `Credentials::new("u".to_owned(), "p".to_owned())`, Algolia's `algoliasearch(appId, "key")`.
    ("password", r"(?:auth|login|credentials?|passw(?:or)?d|algoliasearch)\w*(?:::new)?\s*(?:=\s*[(\[]|\()(?:\s|\\[nrt])*"
                 r"(?:\w[\w.]*|\\?(?P<q1>[\"'])[^\"'\n\\]{0,200}\\?(?P=q1))(?:\.\w+\(\))?"
                 r"(?:\s|\\[nrt])*,(?:\s|\\[nrt])*\\?(?P<q>[\"'])(?P<secret>[^\"'\n\\]{1,200})\\?(?P=q)(?:\.\w+\(\))?(?:\s|\\[nrt])*[)\],]",
     ("auth", "login", "credential", "passw", "algoliasearch"),
     {"lower": True, "check": "literal"}),
    # A secret's name as a literal, then its value: `define('DB_PASSWORD', 'pw')`,
    # `setenv("API_TOKEN", "x")`, `("client_secret", "x")`.
    ("secret-assignment", r"\(\s*\\?(?P<q1>[\"'])(?P<name>[\w.-]{3,80})\\?(?P=q1)\s*,\s*"
                          r"\\?(?P<q>[\"'])(?P<secret>[^\"'\n\\]{1,400})\\?(?P=q)", KEY_NEEDLES, {"lower": True, "check": "named_literal"}),
    # ... and as a pair of a list, a header named for a secret: Sentry's `[["X-Api-Key", "…"]]`
    # (not a list of names: `"middlewares": ["auth", "strip-prefix"]`).
    ("secret-assignment", r"\[\s*\\?(?P<q1>[\"'])(?P<name>[\w.-]{0,40}(?:key|token|secret|password|authorization)[\w.-]{0,40})\\?(?P=q1)\s*,\s*"
                          r"\\?(?P<q>[\"'])(?P<secret>[^\"'\n\\]{1,400})\\?(?P=q)\s*\]", ("key", "token", "secret", "password", "authorization"),
     {"lower": True, "check": "named_literal"}),
    # A setter or builder given the secret alone: `.password("…")`, `.withSMTPServerPassword("…")`,
    # reqwest's `.bearer_auth("…")`, OpenResty's `red:auth("…")` (a getter names, it does not set).
    ("password", r"[.:](?!get)(?:(?:with|set)?_?\w{0,40}?(?:password|passwd|secret|api_?key|bearer_?auth|basic_?auth)|auth)"
                 r"\((?:\s|\\[nrt])*\\?(?P<q>[\"'])(?P<secret>[^\"'\n\\]{4,400})\\?(?P=q)(?:\s|\\[nrt])*\)",
     ("password(", "passwd(", "secret(", "key(", "auth("), {"lower": True, "check": "literal"}),
    # C's `#define WIFI_PASS "…"`, an Erlang or Elixir pair `{db_password, "…"}`: the name, then
    # its literal.
    ("secret-assignment", r"#[ \t]*define[ \t]+(?P<name>[A-Za-z_]\w{2,80})[ \t]+\\?\"(?P<secret>[^\"\\\n]{4,400})\\?\"",
     ("define",), {"check": "named_literal"}),
    ("secret-assignment", r"\{[ \t]*:?(?P<name>[a-z_]\w{2,80})[ \t]*,[ \t]*\\?\"(?P<secret>[^\"\\\n]{4,400})\\?\"[ \t]*\}",
     KEY_NEEDLES, {"lower": True, "check": "named_literal"}),
    # An Ethereum private key handed to a wallet: `new ethers.Wallet("0x<64 hex>")`
    ("private-key", r"(?:new[ \t]+(?:ethers\.)?wallet|privatekeytoaccount|fromprivatekey|account\.from_key)\((?:\s|\\[nrt])*"
                    r"\\?[\"'](?P<secret>(?:0x)?[0-9a-f]{64})\\?[\"']",
     ("wallet(", "privatekeytoaccount(", "fromprivatekey(", "from_key("), {"lower": True}),
    # Cookies: a Cookie header (or curl's -b) holding a long random value; a session cookie by name.
    ("cookie", r"\b(?:set-)?cookie\\?[\"']?[ \t]*[:=][ \t]*\\?[\"']?(?P<secret>[^\r\n\"'\\]{8,2000})", ("cookie",),
     {"lower": True, "check": "cookie"}),
    ("cookie", r"(?<![\w.-])(?:j?sessionid|phpsessid|asp\.net_sessionid|connect\.sid|[a-z]{2,20}_session|session[_-]?token|sessiontoken)"
               r"=(?P<secret>[a-z0-9%_.~+/=-]{16,})", ("sessionid=", "sessid=", ".sid=", "_session=", "session_token=",
                                                      "session-token=", "sessiontoken="),
     {"lower": True, "check": "entropic_value"}),
    # --- markup and config files ---------------------------------------------------------
    # A name and its value as attributes or children of one element: Spring's `<property
    # name="password" value="…"/>`, Android's `<string name="api_secret">…</string>`, a plist's
    # `<key>PlaidSecret</key><string>…</string>`, Terraform's `set { name = "adminPassword"
    # value = "…" }` (as `terraform plan` prints it too; the last rule reads Spring's attributes).
    ("secret-assignment", r"<(?P<tag>[\w:.-]+)[ \t]+name=\\?\"(?P<name>[\w.-]{3,80})\\?\"[ \t]*>(?P<secret>[^<\n\\]{1,400})</(?P=tag)>",
     ("name=",), {"lower": True, "check": "named_literal"}),
    ("secret-assignment", r"<key>(?P<name>[\w.-]{3,80})</key>(?:\s|\\[nrt])*<string>(?P<secret>[^<\n\\]{1,400})</string>",
     ("<key>",), {"lower": True, "check": "named_literal"}),
    ("secret-assignment", r"name(?<!\wname)[ \t]*=[ \t]*\\?\"(?P<name>[\w.-]{3,80})\\?\"(?:\s|\\[nrt]|[+~-](?=[ \t]))*value[ \t]*=[ \t]*"
                          r"\\?\"(?P<secret>[^\"\\\n]{1,400})\\?\"", ("value",), {"lower": True, "check": "named_literal",
                                                                         "start": "name_value"}),
    # HAProxy's `user admin insecure-password …` and `stats auth user:…`
    ("password", r"\b(?:insecure-password[ \t]+|stats[ \t]+auth[ \t]+[^\s:\\]+:)(?P<secret>[^\s\"'\\]{4,400})",
     ("insecure-password", "stats auth"), {"lower": True, "check": "placeholder"}),
    ("secret-assignment",
     r"<(?P<tag>[\w:.-]*" + KEYWORDS + r"[\w:.-]*)>(?P<secret>[^<\n]{1,400})</(?P=tag)>",
     KEY_NEEDLES, {"lower": True, "check": "tag", "start": "tag"}),
    ("password",
     r"key=\\?[\"'][^\"'\\]*(?:password|passwd|secret|token|apikey|api_key)[^\"'\\]*\\?[\"'][ \t]+value=\\?[\"'](?P<secret>[^\"'\\]+)",
     ("key=",), {"lower": True, "check": "placeholder"}),
    # A YAML block scalar under a secret's name (`api_key: >-` then the value indented below).
    ("secret-assignment", r"(?P<kw>" + KEYWORDS + r")(?P<suffix>[\w.-]{0,40}?)\\?[\"']?[ \t]*:[ \t]*[|>][-+]?\d?"
                          r"(?:\s|\\r|\\n)+(?P<secret>[^\s\\]{8,400})", KEY_NEEDLES,
     {"lower": True, "check": "block_scalar", "start": "block"}),
    # A literal cut into pieces joined by `+` or by adjacency (`"sk_live_" +\n "..."`,
    # `("ghp_" "...")`), or given a type (`const KEY: &str = "..."`, `val token: String = "..."`):
    # judged whole, as the value the code builds, when the name before it is a secret's. The
    # pattern starts at the `=` or the type's `:` (a literal the regex engine scans for fast).
    ("secret-assignment", r"=[ \t]*\(?(?P<secret>(?:\s|\\n)*" + _LITERAL + r"(?:(?:\s|\\n)*\+?(?:\s|\\n)*" + _LITERAL + r"){1,7})",
     ("=",), {"check": "joined_literal"}),
    ("secret-assignment", r":[ \t]*&?(?:'static[ \t]+)?(?:str|string)[ \t]*=[ \t]*(?P<secret>" + _LITERAL + r")(?![ \t]*\+)",
     (": &str", ": &'static", ": str", ": string"), {"lower": True, "check": "joined_literal"}),
    # Android's `buildConfigField("String", "API_KEY", "\"...\"")`: the name, then the value in escaped quotes.
    ("secret-assignment", r"buildconfigfield\(\s*\\?\"string\\?\"\s*,\s*\\?\"(?P<name>[\w.-]{3,80})\\?\"\s*,\s*\\?\"\\+\"(?P<secret>[^\"\\\n]{1,400})\\+\"",
     ("buildconfigfield",), {"lower": True, "check": "named_literal"}),
    ("secret-assignment", r"(?P<kw>" + KEYWORDS + r")(?P<suffix>[\w.-]{0,40}?)" + _SEP + _VALUE,
     KEY_NEEDLES, {"lower": True, "check": "assignment", "start": "assignment"}),
    *(("secret-assignment", r"(?P<kw>" + stem + r")(?P<suffix>[\w.-]{0,40}?)" + _SEP + _VALUE,
        (stem,), {"lower": True, "check": "entropic_assignment"}) for stem in WEAK_STEMS),
    *(("secret-assignment", r"(?P<kw>" + stem + r")(?<=-" + stem + r")(?P<suffix>[\w-]{0,30}?)(?:=|[ \t]+)" + _VALUE,
        (stem,), {"lower": True, "check": "entropic_flag"}) for stem in ("key", "salt")),
)
