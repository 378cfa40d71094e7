"""Redaction of credential shapes before anything is stored. Stdlib only (hook path).

Every string a writer stores passes through one redactor: row values and dict keys at every
depth, and hook.log lines. A match is replaced by `[REDACTED:<kind>]` (`[REDACTED:aws-secret]`),
so a reader, and search, still sees that a credential of that kind was there, never its value.
A dict value under a secret-named key (`{"password": "hunter2"}`, `{"env": {"API_TOKEN": ...}}`)
is redacted whole, since the string alone carries no context.

The built-in rules live in `carto_core.privacy.rules` (with where their facts come from). Plugins
declare patterns as data under the `carto.redact` entry point group (`carto_core.plugin.redaction`:
read from the plugin table, so `carto hook` applies them too), and users with
`[redact] patterns = [...]` in the config file; those run on every string.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Iterable

from carto_core.util.lazyre import Lazy
from carto_core.privacy.rules import (CUT_FAMILIES, CUT_PIECES, CUT_PREFIXES, CUT_SHAPES, CUT_WIDTH, KEY_COMPOUNDS, KEYWORDS, LINE_CUT, RULES,
                                      SEP_SPACES)

MARKER = "[REDACTED:"
_MARKER_SPAN = Lazy(r"\[REDACTED:[\w.-]+\]")

# Short strings are memoized (up to this many characters, this many entries).
_MEMO_LENGTH = 256
_MEMO_SIZE = 8192
# Strings shorter than this hold no complete credential shape (`pwd=ab12c9` is 10); secrets in
# shorter dict values are caught through their key.
_MIN_TEXT = 8

# --- what a value must not be --------------------------------------------------------------

_RESERVED = frozenset("""
true false null none nil undefined yes no on off y n required optional empty unset default
str string int integer bool boolean bytes number float any object dict list array char text
secretstr secretbytes redacted hidden masked omitted removed unknown void self this env
wrong invalid incorrect changeme change-me change_me changeit
await async new yield typeof function lambda require import not and or return
""".split())
_PLACEHOLDER = Lazy(
    r"^(?:\$\d+|\$[A-Za-z_]\w*|\$\{[^}]*\}|\$\([^)]*\)?|%[A-Za-z_]\w*%|%\(\w+\)s|\{\{.*\}\}|\{\w*\}|<[^>]*>"
    r"|\*+|x+|X+|\.+|…+|#+|-+|_+|\?+|#[0-9a-fA-F]{3,8}|(?:your|insert|enter|replace)[\w-]*|[\w-]*_here|[\w-]*-here"
    r"|[\w-]*(?:\.\.\.|…)|[a-z]{1,12}[_-](?:[a-z0-9]{1,12}[_-])?(?:x{6,}|X{6,}|\*{6,})|\$env:\w+"
    # AWS's documentation pair, in every tutorial (`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`)
    r"|(?-i:[A-Za-z0-9/+]{8,}EXAMPLEKEY)"
    r"|password|passwd|pass|pwd|secret|token|(?-i:[A-Z0-9_]*(?:SECRET|TOKEN|PASSWORD)[A-Z0-9_]*)"
    # shown masked or already taken out: `sk_live_••••4242`, `***redacted***`, `[FILTERED]`
    r"|[\w.-]{0,16}[*\u2022\u25cf]{4,}[\w.-]{0,8}"
    r"|\*{0,3}\[?(?:redacted|filtered|masked|hidden|removed)\]?\*{0,3})$",
    re.IGNORECASE,
)
_SCHEMA_TYPES = frozenset(("String", "Int", "Float", "Boolean", "ID"))
_SOURCE_FILE = Lazy(r"\.(?:java|kt|scala|groovy|py|rb|go|js|ts|cs|cpp|cc|c|h|swift|php|rs)$")
_DOTTED_IDENTIFIER = Lazy(r"^[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+$")
_TYPE_NAME = Lazy(r"^[A-Z][a-z]+(?:[A-Z][a-z]*)*$")
_SYMBOLS = frozenset("!@#$%^&*+=/~?:._-")

# Name parts around a secret keyword that say the value is not the secret itself (after
# gitleaks' allow-list of generic key names): `token_url`, `password_file`, `max_tokens`.
_SUFFIX_REJECT = frozenset("""
file files path paths dir url uri urls endpoint endpoints name names id ids type types kind length
len size count counts limit limits max min env var vars field fields label prompt policy policies
format expiry expires expiration ttl lifetime timeout hint reset changed required enabled
disabled strength rules rule regex pattern header headers mode store manager helper source provider
cmd command usage budget estimate counter index class stdin prompted input output required
audience scope scopes issuer algorithm alg position pos offset start end color colour style
hdr match matches matcher span spans rate rates ratio percent pct threshold version versions ver
method methods status state level score strategy scheme flow backend plugin plugins used stats
stat total age created updated date time window days hours minutes seconds retries attempts
success fail failed failure failures ok check checks test tests criteria location ref refs
rotation rotated bits bucket capacity hit hits miss misses alias aliases
realm username usernames user users email group groups namespace role roles
title subtitle description desc placeholder tooltip help message msg caption heading regenerate
button btn link error warning
""".split())
_PREFIX_REJECT = frozenset("""
csrf xsrf page next prev previous continuation pagination cursor sort cancellation cancel lexer
parser parse max min num total input output prompt completion cached cache reasoning bos eos pad
unk sep cls mask special stop start end forgot reset show hide toggle has is no use with without
require requires validate verify check sync count need needs idempotency dedup dedupe partition
sort primary foreign public publishable row object hash hashed lookup map registry translation i18n unique composite
natural surrogate shard routing group order list index dict entry item node sign
""".split())
_WEAK_KEYWORDS = ("pass", "pwd", "auth", "creds")
_WORD_SPLIT = Lazy(r"[_.\-\s]+|(?<=[a-z0-9])(?=[A-Z])")

_KNOWN_SCHEMES = frozenset("""
basic bearer digest token apikey api-key api_key ssws negotiate ntlm oauth hoba mutual vapid dpop gnap
aws4-hmac-sha256 goog4-hmac-sha256 signature sharedkey sharedkeylite sas key jwt pat bot hawk
splunk sso-key scram-sha-1 scram-sha-256 privatetoken eg1-hmac-sha256 klaviyo-api-key
""".split())
_PARAM_SCHEMES = frozenset("digest oauth signature aws4-hmac-sha256 goog4-hmac-sha256 hoba mutual "
                           "vapid hawk eg1-hmac-sha256 scram-sha-1 scram-sha-256".split())


def entropy(text: str) -> float:
    """Shannon entropy in bits per character."""
    if not text:
        return 0.0
    counts = Counter(text)
    total = len(text)
    return -sum(n / total * math.log2(n / total) for n in counts.values())


def _secretish(value: str, minimum: int = 6) -> bool:
    """Looks machine-made or chosen as a password: digits, mixed case or symbols, not a word."""
    if len(value) < minimum:
        return False
    has_digit = any(c.isdigit() for c in value)
    has_upper = any(c.isupper() for c in value)
    has_lower = any(c.islower() for c in value)
    has_symbol = any(c in _SYMBOLS for c in value)
    return has_digit or (has_upper and has_lower) or (has_symbol and (has_upper or has_lower))


#: A token's prefix, then nothing but runs of x's, zeros or stars (`ghp_xxxxxxxx…`,
#: `sk_live_********`, Slack's `T00000000/B00000000/XXXXXXXX`): what docs write in its place.
_FILLER = Lazy(r"(?:[A-Za-z0-9]{1,12}[_-]){0,3}(?:[A-Za-z]?[xX0*]{4,}[/_.-]?)+")
#: An HMAC's digest as a signature header carries it (`X-Hub-Signature-256: sha256=<hex>`):
#: a payload's signature, not the key that made it.
_SIGNATURE_DIGEST = Lazy(r"(?:sha1|sha256|sha512|md5)=[0-9a-f]{32,128}")


def _machine_made(value: str) -> bool:
    """Twelve characters or more holding a digit, a capital and a small letter: no name a
    person gives a variable (`Zq8Wm2Lx9Rv4Tn7Pk3Hs`, not `userPassword` or `token2`)."""
    return len(value) >= 12 and any(c.isdigit() for c in value) \
        and any(c.isupper() for c in value) and any(c.islower() for c in value)


def _placeholder(value: str) -> bool:
    stripped = value.strip().strip("`")
    for prefix in ("pass:", "base64:"):
        if stripped[:len(prefix)].lower() == prefix:
            stripped = stripped[len(prefix):]  # `-passout pass:<the password>`, `APP_KEY=base64:<key>`
    # prose ends a sentence after a placeholder ("send `Authorization: Bearer <token>`."): the
    # stop is the sentence's, not the value's
    # ("sk_test_..." ends as a placeholder itself: both are asked)
    bare = stripped.rstrip(".,;:!?") or stripped
    return (not stripped or MARKER in stripped
            or any(form.lower() in _RESERVED or _PLACEHOLDER.match(form) is not None
                   for form in {stripped, bare}))


def _words(name: str) -> list[str]:
    return [w.lower() for w in _WORD_SPLIT.split(name) if w]


# --- checks: accept (True or a kind), refuse (None/False), or move the span ---------------

Check = Callable[[re.Match, str], object]


def _group(match: re.Match, text: str, name: str) -> str:
    start, end = match.span(name)
    return text[start:end] if start >= 0 else ""


def check_placeholder(match, text):
    return not _placeholder(_group(match, text, "secret"))


def check_has_digit(match, text):
    token = match.group(0)
    return any(c.isdigit() for c in token) and any(c.isalpha() for c in token[3:])


def check_entropic(match, text):
    value = _group(match, text, "secret")
    return any(c.isdigit() for c in value) and entropy(value) >= 3.0


def check_bearer(match, text):
    value = _group(match, text, "secret")
    if _placeholder(value):
        return False
    return any(c.isdigit() for c in value) or (len(value) >= 24 and _secretish(value))


def check_basic(match, text):
    import base64
    import binascii

    value = _group(match, text, "secret")
    try:
        decoded = base64.b64decode(value + "=" * (-len(value) % 4), validate=True)
    except (binascii.Error, ValueError):
        return False
    return b":" in decoded


def check_authorization(match, text):
    scheme = _group(match, text, "scheme").lower()
    value = _group(match, text, "secret")
    kind = {"basic": "basic-auth", "bearer": "bearer"}.get(scheme, "authorization")
    if scheme in _PARAM_SCHEMES and not value.startswith(MARKER):
        # `Digest username="a", response="..."`: the credentials are every parameter, to the
        # end of the header line (a literal `\n` ends it inside JSON-encoded text).
        start = match.start("secret")
        end = len(text)
        for stop in ("\n", "\r", "\\n", "\\r"):
            found = text.find(stop, start)
            if found >= 0:
                end = min(end, found)
        return kind, start, end
    if _placeholder(value) or value.lower() in _KNOWN_SCHEMES or re.search(r"[()\[\]]", value) \
            or _DOTTED_IDENTIFIER.match(value) or _IDENTIFIER.match(value) and not scheme:
        return False  # `authorization = self.headers.get(...)`: code
    if scheme and scheme not in _KNOWN_SCHEMES and not (len(value) >= 12 and _secretish(value)):
        return False  # prose: "authorization: the user must ..."
    if not scheme and not _secretish(value, 8):
        return False
    return kind


def _key_around(match: re.Match, text: str) -> tuple[str, int]:
    """The whole identifier the keyword sits in (`AWS_SECRET_ACCESS_KEY`) and where it starts."""
    start = match.start("kw")
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_.-") \
            and not (text[start - 1] in "nrt" and text[start - 2:start - 1] == "\\"):
        start -= 1  # a JSON-escaped line break or tab ends the name (`\\npass: X`)
    while start < match.start("kw") and text[start] in "-.":
        start += 1  # `--password`: the dashes are the flag's, not the name's
    return text[start:match.end("suffix")], start


def _key_refused(keyword: str, keyword_start: int, key: str, key_start: int, text: str, suffix: str) -> bool:
    """True when the key name is not a secret's name (`compass`, `tokenizer`, `max_tokens`)."""
    lowered = keyword.lower()
    weak = lowered in _WEAK_KEYWORDS
    before = text[keyword_start - 1] if keyword_start > key_start else ""
    if weak and before.isalpha() and not (before.islower() and keyword[:1].isupper()) \
            and not (before.isupper() and keyword.isupper()):
        return True  # `compass`, `bypass`, but `dbPass`, `DBPASS`
    if suffix.lower() in ("s", "es"):
        return True  # `tokens: 1500`, `secrets:`
    if suffix:
        first = suffix[0]
        if first.isalpha() and (weak or not (first.isupper() and (keyword[-1:].islower() or keyword.isupper()))):
            return True  # `secretary`, `tokenizer`, `GIT_AUTHOR`; `secretKey`, `TOKEN_ID` pass
    tail_words = _words(suffix)
    if tail_words and tail_words[0] in _SUFFIX_REJECT:
        return True
    head_words = _words(key[: keyword_start - key_start])
    if bool(head_words) and head_words[-1] in _PREFIX_REJECT:
        return True
    # a public key and what names it (`PublicKeyToken=30ad…`, `NEXT_PUBLIC_MAPS_KEY`, wg's
    # `public key: …`) are published by design
    return any(w in ("public", "publishable") for w in head_words) \
        or re.search(r"\bpublic[ \t]+$", text[max(0, key_start - 12):key_start], re.IGNORECASE) is not None


#: A format string's field. A printf field ends where the word does ("token_%s", "%s:%s"): a
#: generated password holds "%" before a letter as often as not ("XUJ4%scHOf").
_FORMAT_FIELD = Lazy(r"\{\d*\}|\{[a-z_]+\}|%[sdr](?![A-Za-z0-9])|%\(\w+\)")
_IDENTIFIER = Lazy(r"^[A-Za-z_]\w*$")
_SECRET_WORDS = ("pass", "pwd", "token", "secret", "key", "cred", "auth")
_SETTING_NAME = Lazy(r"^[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+$")
_PATH_VALUE = Lazy(r"^(?:(?:/|\./|\.\./|~/)[^\s]*|[\w.-]+(?:/[\w.-]+)+\.[A-Za-z]{1,5})$")
#: A resource's name (`ca-secret`, `redis-credentials`, `same-origin`, `root-ca5`): lower-case
#: words joined by dashes, at most two digits at the end; under a name that is no password's,
#: the name of a secret, not one.
_RESOURCE_NAME = Lazy(r"^[a-z]+(?:-[a-z]+)+\d{0,2}$")
_CAMEL_IDENTIFIER = Lazy(r"^[a-z]+(?:[A-Z][a-z]+)+$")
#: Interface text: capitalised words and spaces, no digit or symbol ("Enter your password",
#: "Copy token to clipboard"); a passphrase of words is written in lower case.
_UI_TEXT = Lazy(r"^[A-Z][A-Za-z]*(?: [A-Za-z]+)+[.!?…]?$")
_VERSION = Lazy(r"^[~^<>=v]{0,2}\d+(?:\.\d+){1,3}(?:[-+][\w.]+)?$")
_CMDLET = Lazy(r"^[A-Z][a-z]+-[A-Z][A-Za-z]+$")
_IN_URN = Lazy(r"\burn:[\w.:-]*:$", re.IGNORECASE)
#: Words that follow a flag named in prose ("Using --password via the CLI is insecure"),
#: never the flag's value.
_PROSE_AFTER_FLAG = frozenset("""
via is was are and or with to for from flag flags option options argument arguments parameter
instead on in of when if only which that as because but not so then
""".split())


def _variable_name(value: str) -> bool:
    """`password_mgr`, `apiKey`: a name made of words, one of them a secret word."""
    lowered = value.lower()
    if not any(w in lowered for w in _SECRET_WORDS) or sum(c.isdigit() for c in value) > 2:
        return False
    return "_" in value.strip("_") or re.search(r"[a-z][A-Z]", value) is not None


def _value_refused(value: str, key: str, quoted: bool, following: str, in_url: bool = False) -> bool:
    """True when `value` is not a stored secret: a placeholder, code, a path, a URL.

    `following` is the text right after the value (after its closing quote when quoted);
    `in_url`: where no code is: the key is a URL's query parameter (`?access_token=a.b`) or a
    shell's or .env's upper-case name (`DB_PASSWORD=a.b`)."""
    if _placeholder(value) or _FORMAT_FIELD.search(value) or _SIGNATURE_DIGEST.fullmatch(value):
        return True
    after = following.lstrip(" \t")
    if after[:1] in ("+", "%", "*") and after[1:2] in (" ", "\t", "") or (quoted and after[:1] == "."):
        return True  # `secret = "ghp_" + "b" * 36`, `Token = Ignore + Plain`: an expression
    if value.lower() in (key.lower(), key.lower().lstrip("-_."), key.lower().rsplit(".", 1)[-1]):
        return True  # `password=password`, `self.token = token`
    if value.lower().startswith(("http://", "https://", "file://")):
        return True  # a URL's credentials are the URL rule's business
    if value.startswith("op://"):
        return True  # a 1Password secret reference (`op run` reads the value from it)
    if value.strip("[]!") in _SCHEMA_TYPES and value.endswith("!"):
        return True  # GraphQL: `$password: String!`, `password: String!`
    if value.isdigit() and _SOURCE_FILE.search(key):
        return True  # a stack frame's `PasswordEncoder.java:289`: a file and its line
    if _SETTING_NAME.match(value) and any(w in value.lower() for w in _SECRET_WORDS):
        return True  # `SECRET_KEY_SETTING = "SECRET_KEY"`: a setting's name, not its value
    if value.lower().startswith(("urn:", "arn:")):
        return True  # `password: urn:k8s:secret:redis:password`: where the secret is
    if quoted and (len(value.split()) >= 7 or _prose_of_a_script(value) or _UI_TEXT.match(value)):
        return True  # `"invalidEncryptionKey": "Encryption key must be of 22 characters. ..."`, in any script
    if _PATH_VALUE.match(value):
        return True  # `"NOMAD_CLIENT_KEY": "/etc/ssl/private/client-key.pem"`: where it is kept
    if _VERSION.match(value) or _CMDLET.match(value):
        return True  # `"basic-auth": "~2.0.1"` (a dependency), `Credentials = New-Object ...`
    if value.startswith("LS0tLS1CRUdJTi") and not _pem_material(_b64decode(value[:400]).decode("latin-1")):
        return True  # `tls.key: <base64 of a BEGIN line alone>`: a fixture's empty key
    if not quoted:
        if value.isalpha() and (value.islower() or value[1:].islower()) and re.match(r"[ \t]+[A-Za-z]", following):
            return True  # `password: see vault path ...`, `PASSWORD_MISMATCH=Passwords do not match`
        if following[:1] in ("(", ".", "[") or _DOTTED_IDENTIFIER.match(value) \
                and not ((in_url and not any(w in value.lower() for w in _SECRET_WORDS)) or _machine_part(value)):
            return True  # code: `token = get_token()`, `password=form.password.data`
        if _IDENTIFIER.match(value) and (_variable_name(value) or after[:1] == "="
                                         or after[:1] == "," and not _machine_made(value)):
            return True  # `self.passwd = password_mgr`, `a, b = user, password`, `x = y = z`
        if value.startswith(("/", "./", "../", "~/")) or re.match(r"^[A-Za-z]:\\", value):
            return True  # a path to a secret, not the secret
        if value[:1] in (":", "=", "?", "+", "!"):
            return True  # `Token::new`, `==`, `${X:?err}`, a YAML tag (`!vault app/token`)
    return False


def _prose_of_a_script(value: str) -> bool:
    """Words of a script with no spaces between them (a message in Japanese, Bengali): mostly
    letters beyond ASCII, few ASCII letters or digits."""
    ascii_alnum = sum(c.isascii() and c.isalnum() for c in value)
    return sum(c.isalpha() and not c.isascii() for c in value) >= 4 and ascii_alnum * 4 < len(value)


def _assignment_kind(key: str) -> str:
    squashed = re.sub(r"[_.\-]", "", key.lower())
    if "pass" in squashed or "pwd" in squashed:
        return "password"
    if "accountkey" in squashed or "sharedaccesskey" in squashed:
        return "azure-key"
    return "secret-assignment"


def _later_keyword(text: str, match, key: str, key_start: int) -> tuple[str, int, str] | None:
    """A secret's word later in the same name, when the first one is refused: in
    `secrets.dbPassword` the regex's keyword is "secret" (refused: "secrets"), and the name's
    own word, "Password", would never get a match of its own (the value is already consumed)."""
    end = match.end("suffix")
    for later in _KEY_NAME.finditer(text, match.end("kw"), end):
        suffix = text[later.end():end]
        if not _key_refused(later.group(0), later.start(), key, key_start, text, suffix):
            return later.group(0), later.start(), suffix
    return None


def _check_keyed(match, text, *, flag: bool):
    keyword = _group(match, text, "kw")
    keyword_start = match.start("kw")
    suffix = _group(match, text, "suffix")
    key, key_start = _key_around(match, text)
    if _key_refused(keyword, keyword_start, key, key_start, text, suffix):
        later = _later_keyword(text, match, key, key_start)
        if later is None:
            return False
        keyword, keyword_start, suffix = later
    value = _group(match, text, "secret")
    quoted = match.start("q") >= 0
    end = match.end("secret") + (1 if quoted else 0)
    following = text[end:end + 3]
    # where no code is: a URL's query (`?access_token=a.b`), or a shell's or .env's
    # `NAME=value` (`export POETRY_HTTP_BASIC_ACME_PASSWORD=CO_oV6M.hS2Sz4uTF`)
    no_code = text[key_start - 1:key_start] in ("?", "&") or (
        not flag and key.isupper() and match.group("sep") == "="
        and not text[match.start("sep") - 1:match.start("sep")].isspace())
    if _value_refused(value, key, quoted, following, no_code) \
            or (flag and value.startswith("-")):
        return False
    opening = text[key_start - 1:key_start]
    q_at = match.start("q")
    if quoted and opening in ("'", '"', "`") and text[q_at] == opening \
            and opening not in text[match.end("suffix"):q_at] \
            and (text[q_at - 1:q_at] == "\\") == (text[key_start - 2:key_start - 1] == "\\"):
        return False  # `prompt='Password: ', x=1`: that quote closes the string the key is in
    if keyword.lower() == "key" and re.search(r"\bcache\b[^\n]{0,30}$", text[max(0, key_start - 40):key_start], re.IGNORECASE):
        return False  # CI's "Cache restored from key: Linux-node-<hash>": a cache's name
    if re.search(r"\bpam_\w+\($", text[max(0, key_start - 24):key_start]):
        return False  # syslog's `pam_unix(passwd:chauthtok)`: a PAM service and its step
    if not flag:
        sep_at = match.start("sep")
        opened = match.start("q") if quoted else match.start("secret")
        if opened - match.end("sep") > 3 and not _machine_made(value):
            return False  # gofmt's aligned `Token:            "MyToken"`: a column of a test's names
        if text[match.end("suffix"):match.end("suffix") + 2] in ('"]', "']") and not _secretish(value):
            return False  # `digest["password"] = "test"`: a test's word put under that key
        if quoted and text[sep_at - 1:sep_at + 1] == " :" and match.start("q") == sep_at + 1 \
                and re.fullmatch(r"[A-Za-z_]\w*", value):
            return False  # psql's `PASSWORD :'app_password'`: a variable interpolated, not a value
    if text[max(0, key_start - 2):key_start] == "${" or (quoted and value[:1].isspace()):
        return False  # `${API_KEY:?missing}`; `'Password: ' VAR` (a quote that closes, not opens)
    lowered_key = key.lower()
    password_key = "pass" in lowered_key or "pwd" in lowered_key
    if text[max(0, key_start - 3):key_start] == "://" or text[key_start - 1:key_start] == "/" \
            or _IN_URN.search(text, max(0, key_start - 80), key_start):
        return False  # `http://auth-service:8080`, `github.com/x/go-http-auth =>`, `urn:k8s:secret:x:key`
    named = re.search(r"(?:key|name|ref)$", lowered_key) is not None  # `adminPasswordKey: postgres-password`
    if (not password_key or named) and (_RESOURCE_NAME.match(value) or (not quoted and _CAMEL_IDENTIFIER.match(value))):
        return False  # `secret: ca-secret`, `credentials: "same-origin"`, `CAFiles = caCerts`
    if not quoted and value.isdigit() and not password_key:
        return False  # `token_limit: 4096`
    if not quoted and not password_key and not _secretish(value) and len(value) < 16:
        return False  # `all_token_matches=matches`, `TOKEN_ENDS = TSPECIALS`: names, not secrets
    weak = keyword.lower() in _WEAK_KEYWORDS
    if flag:
        if (weak and not _secretish(value)) or value.lower() in _PROSE_AFTER_FLAG \
                or not any(c.isalnum() for c in value):
            return False  # `" --access-key ",`: the flag named in a list, its value elsewhere
        return _assignment_kind(key)
    if weak and (_TYPE_NAME.match(value) or value.startswith("-")):
        return False  # `auth="Container"`, "pass: `-e version=x` to the playbook": no secret
    sep = match.group("sep")
    if not quoted and sep == ":" and _TYPE_NAME.match(value):
        return False  # `token: Token`, `password: SecretStr`
    bare = not suffix and key_start == keyword_start
    if weak or (sep == ":" and not quoted and bare and not _at_line_start(text, key_start)):
        # "invalid token: expired" is prose; "my password: hunter2" is not.
        if not _secretish(value):
            return False
    elif len(value) < 3:
        return False
    return _assignment_kind(key)


def check_assignment(match, text):
    return _check_keyed(match, text, flag=False)


def check_flag(match, text):
    # The keyword follows a `-`; the flag is the run of name characters around it, and it must
    # start with one or two dashes after a space or quote (`--db-password x`, not `re-token x`).
    start = match.start("kw")
    while start > 0 and (text[start - 1].isalnum() or text[start - 1] in "_-"):
        start -= 1
    dashes = len(text[start:match.start("kw")]) - len(text[start:match.start("kw")].lstrip("-"))
    if dashes not in (1, 2):
        return False
    return _check_keyed(match, text, flag=True)


def check_attached(match, text):
    """`-pX` or `-p'a passphrase with spaces'`: the value alone, when it is no placeholder."""
    group = "quoted" if match.start("quoted") >= 0 else "secret"
    if _placeholder(_group(match, text, group)):
        return False
    start, end = match.span(group)
    return "password", start, end


#: Words of English prose that no wallet's word list (BIP-39) holds.
_PROSE_WORDS = frozenset("""
the and you your for with that this are was were have has had will would should could where
when what which who whom them they their there then than from not but any can our its his her
she him into been being did does done how why yes
""".split())


def check_seed_phrase(match, text):
    """A wallet's words come in 12, 15, 18, 21 or 24 and hold none of prose's small words; a
    sentence after "mnemonic" ("never store your words where anyone could find them") does."""
    words = _group(match, text, "secret").lower().split()
    return len(words) in (12, 15, 18, 21, 24) and _PROSE_WORDS.isdisjoint(words)


def check_told_ascii(match, text):
    """A password told in a script of its own is written in ASCII: "8文字以上にしてください"
    after "パスワードは" is the sentence going on."""
    return _group(match, text, "secret").isascii() and check_told(match, text)


def check_told_pair(match, text):
    """A password after "user / ": a symbol, or digits beside both cases ("Summer2024"), not
    a word of a menu path ("login page / settings2")."""
    value = _told_value(match, text)
    return bool(value) and (any(c in _CHOSEN_SYMBOLS for c in value)
                            or (any(c.isdigit() for c in value) and value.lower() != value
                                and value.upper() != value))


def check_url_password(match, text):
    """A URL's password, `?` and `&` typed raw included (`https://u:Sv?mv&@host`); not a
    placeholder, nor the user's own name (a port before a query holding an address,
    `http://localhost:3000?to=a@b.io`, the rule refuses itself)."""
    value = _group(match, text, "secret")
    user = re.search(r"://([^\s/?#@:'\"`<>]*):", match.group(0))
    if user and user.group(1).lower() == value.lower():
        return False  # `postgres://postgres:postgres@localhost`: a local default, as in every doc
    return not _placeholder(value)


#: The signature of jwt.io's sample token (John Doe, "your-256-bit-secret"), in every JWT tutorial.
_JWT_IO_SIGNATURE = "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"


def check_not_example(match, text):
    """A token that is no documentation's example: AWS's own end in EXAMPLE
    (`AKIAIOSFODNN7EXAMPLE`), jwt.io's sample, a prefix then x's (`sk_test_xxxxxxxx`)."""
    token = match.group(0)
    return not token.endswith(("EXAMPLE", _JWT_IO_SIGNATURE)) and not re.fullmatch(r"[\w-]*?_(?:x{6,}|X{6,})", token)


_CUT_SHAPE = Lazy("|".join(CUT_SHAPES))
#: Each family's shape in a group of its own, the kind of a joined token by the group it fills.
_CUT_KINDS = tuple(kind for kind, *_, known in CUT_FAMILIES if known)
_CUT_FAMILY = Lazy("|".join(f"({shape})" for *_, shape, known in CUT_FAMILIES if known))
_OPEN_KINDS = tuple(kind for kind, *_, known in CUT_FAMILIES if not known)
_OPEN_FAMILY = Lazy("|".join(f"({shape})" for *_, shape, known in CUT_FAMILIES if not known))
_LINE_CUT = Lazy(LINE_CUT)


def _cut_pieces(match) -> list[tuple[str, int]]:
    """A cut rule's match as the token's pieces, each with where it ends in the text: the first
    line's piece (the match), then each one the rule's lookahead read after a line break."""
    rest, base = match.group("rest"), match.start("rest")
    pieces = [(match.group(0), match.end())]
    breaks = list(_LINE_CUT.finditer(rest))
    for index, found in enumerate(breaks):
        end = breaks[index + 1].start() if index + 1 < len(breaks) else len(rest)
        pieces.append((rest[found.end():end], base + end))
    return pieces


def _wrapped(lengths: list[int]) -> bool:
    """Pieces a hard wrap makes: every one between the first and the last a full line of one
    width, at least `CUT_WIDTH`; the first (the token starts inside its line) and the last no
    wider."""
    width = lengths[1]
    return (width >= CUT_WIDTH and lengths[0] <= width and lengths[-1] <= width
            and all(length == width for length in lengths[1:-1]))


def _plain(joined: str) -> bool:
    """A token with a digit in its body (a random body of these lengths lacks one once in 180,
    AWS's 16, to once in 550, 36: capitals that happen to fit, `ASIAPACIFIC` then `SOUTHEAST`,
    have none), and no documentation's example or filler."""
    return any(c.isdigit() for c in joined[4:]) and not joined.endswith("EXAMPLE") and _FILLER.fullmatch(joined) is None


def check_cut_token(match, text):
    """A token of known length cut by line breaks: the first pieces that joined are exactly its
    provider's shape. One break joins any two pieces (a terminal's, an editor's or a chat's
    wrap); more than one only a wrap's full lines (`_wrapped`)."""
    pieces = _cut_pieces(match)
    joined = pieces[0][0]
    for count in range(1, len(pieces)):
        joined += pieces[count][0]
        if len(joined) > 200:
            return False
        found = _CUT_FAMILY.fullmatch(joined)
        if found is None:
            continue
        if count > 1 and not _wrapped([len(piece) for piece, _ in pieces[:count + 1]]):
            return False
        if not _plain(joined):
            return False
        return _CUT_KINDS[found.lastindex - 1], match.start(), pieces[count][1]
    return False


#: A marker, then the lines a terminal wrapped the rest of its token over: what a home holds
#: where a token's first line alone was redacted (`[REDACTED:anthropic-key]⏎<50>⏎<8>`).
_MARKER_WRAP = Lazy(r"\[REDACTED:([\w.-]+)\](?=(?P<rest>(?:" + LINE_CUT
                    + r"[A-Za-z0-9_.~+/=-]{1,300}(?![A-Za-z0-9_.~+/=-])){1,63}))")


def _wrapped_rests(value: str, sink: list[str] | None) -> tuple[str, list[str]]:
    """`value` without the wrapped rest after each marker, and the markers' kinds (one each).
    The rest's first line is a full line of a random token (16 or more, capitals, small letters
    and a digit); each next line is the token's while the one before it was as wide."""
    pieces: list[str] = []
    kinds: list[str] = []
    last = 0
    for found in _MARKER_WRAP.finditer(value):
        rest = _cut_pieces(found)[1:]
        width = len(rest[0][0])
        if (found.start() < last or width < CUT_WIDTH or not _random_line(rest[0][0])
                or not any(c.isdigit() for c in rest[0][0])):
            continue
        count = 1
        while (count < len(rest) and len(rest[count - 1][0]) == width and _random_line(rest[count - 1][0])
               and len(rest[count][0]) <= width):
            count += 1
        pieces.append(value[last:found.end()])
        kinds.append(found.group(1))
        if sink is not None:
            sink.extend(piece for piece, _ in rest[:count])
        last = rest[count - 1][1]
    if not kinds:
        return value, kinds
    pieces.append(value[last:])
    return "".join(pieces), kinds


def _random_line(piece: str) -> bool:
    """A full line of a random token of mixed case: capitals and small letters both (a line of
    16 from 62 characters lacks one of them once in 6,000; a hash or a word in one case has not)."""
    return any(c.isupper() for c in piece) and any(c.islower() for c in piece)


def check_cut_open(match, text):
    """A token of open length wrapped across lines: its second line a full line of the token's
    characters (at least `CUT_WIDTH`, capitals and small letters), the first no wider; each next
    line joins while the one before it was as wide (a line that is not full is the token's
    last). One break alone cannot be told from the token's end: not joined."""
    pieces = _cut_pieces(match)
    if len(pieces) < 3:
        return False
    width = len(pieces[1][0])
    if width < CUT_WIDTH or len(pieces[0][0]) > width:
        return False
    last = 1
    while (last + 1 < len(pieces) and len(pieces[last][0]) == width and _random_line(pieces[last][0])
           and len(pieces[last + 1][0]) <= width):
        last += 1
    if last < 2:
        return False
    joined = "".join(piece for piece, _ in pieces[:last + 1])
    found = _OPEN_FAMILY.fullmatch(joined)
    if found is None or _FILLER.fullmatch(joined) is not None or joined.endswith(_JWT_IO_SIGNATURE):
        return False
    return _OPEN_KINDS[found.lastindex - 1], match.start(), pieces[last][1]


#: A prefix's tails, keyed by its head as it ends a line (`"sk_li"`: `"ve_"`); built with the
#: rule's pattern, on its first run.
_PREFIX_TAILS: dict[str, tuple[str, ...]] = {}


def _prefix_tails() -> dict[str, tuple[str, ...]]:
    if not _PREFIX_TAILS:
        for prefix in CUT_PREFIXES:
            for at in range(1, len(prefix)):
                _PREFIX_TAILS[prefix[:at]] = (*_PREFIX_TAILS.get(prefix[:at], ()), prefix[at:])
    return _PREFIX_TAILS


def _by_last(prefixes) -> tuple[tuple[str, tuple[str, ...]], ...]:
    grouped: dict[str, list[str]] = {}
    for prefix in prefixes:
        grouped.setdefault(prefix[-1], []).append(prefix)
    return tuple((last, tuple(group)) for last, group in grouped.items())


#: The prefixes by their last character (13 of them: `_`, `-`, `.`, `A`, ...): a text lacking
#: one skips its prefixes.
_CUT_PREFIX_GROUPS = _by_last(CUT_PREFIXES)
#: ... as a text whose escaped breaks (`\\n`, `\\r`) were taken out holds them: the prefixes
#: that start with neither `n` nor `r`, counted; and the rest of those that do, only looked for
#: (the letter may be lost to a backslash before it, `\\nsec1…` read as `\\n` then `sec1…`, or
#: an escape's letter pass for it, `n\\nfp_…` holding `nfp_`).
_ESCAPED_PREFIX_GROUPS = _by_last(prefix for prefix in CUT_PREFIXES if prefix[0] not in "nr")
_ESCAPED_PREFIX_RESTS = _by_last(prefix[1:] for prefix in CUT_PREFIXES if prefix[0] in "nr")


def _occurrences(text: str, word: str) -> int:
    count = at = 0
    while (at := text.find(word, at)) >= 0:
        count, at = count + 1, at + 1
    return count


def _joins(joined: str, groups, text: str | None = None) -> bool:
    """Whether `joined` (a text with break characters taken out) holds a prefix; with `text`,
    more often than `text` itself does (counted overlapping: `AK⏎IAKIA…`), so one the taking
    out joined."""
    for last, prefixes in groups:
        if last in joined:
            for prefix in prefixes:
                if prefix in joined and (text is None or _occurrences(joined, prefix) > _occurrences(text, prefix)):
                    return True
    return False


def start_prefix_cut(text: str) -> int:
    """0 when `text` may hold a token whose prefix a break cuts, else -1: taking the break out
    makes the prefix whole, so more often than in the text itself. A break as written
    (whitespace) once whitespace and backslashes are taken out; an escaped one (`\\n`, `\\r`)
    once those are taken out first. A few `in` tests, where the heads' pattern is costly to
    build and compile (docs/performance.md) and its scan stops, in prose, at every `A`, `do` and `and `."""
    if _joins("".join(text.split()).replace("\\", ""), _CUT_PREFIX_GROUPS, text):
        return 0
    if "\\" in text:
        unescaped = "".join(text.replace("\\r", "").replace("\\n", "").split()).replace("\\", "")
        if _joins(unescaped, _ESCAPED_PREFIX_GROUPS, text) or _joins(unescaped, _ESCAPED_PREFIX_RESTS):
            return 0
    return -1


#: A piece of a token after a break: its characters, a dot only inside it (a sentence's full
#: stop after a token is not the token's).
_CUT_PIECE = Lazy(r"(?:[A-Za-z0-9_~+/=-]|\.(?=[A-Za-z0-9_-]))+")


def _after_cut(text: str, at: int, first: int, cut: str) -> list[tuple[str, int]]:
    """The pieces from `at` (right after the break `cut`): the run there, then each run after
    a further break written as that one (a wrap's breaks are alike: a line break then a space
    is prose), each with where it ends; `first` is the least length of the first."""
    pieces: list[tuple[str, int]] = []
    cut = cut.rstrip(" \t") or " "
    while len(pieces) < CUT_PIECES - 1:
        run = _CUT_PIECE.match(text, at)
        if run is None or len(run.group()) < (first if not pieces else 1):
            break
        pieces.append((run.group(), run.end()))
        found = _LINE_CUT.match(text, run.end())
        if found is None or (found.group().rstrip(" \t") or " ") != cut:
            break
        at = found.end()
    return pieces


def _random_end(piece: str) -> bool:
    """A wrapped token's last line, not a word after it: a digit, or a capital past its first
    letter (`done`, `Thanks` and `The` are words)."""
    return any(c.isdigit() or c.isupper() for c in piece[1:]) or piece[:1].isdigit()


def _joined_cut(pieces: list[tuple[str, int]]) -> tuple[str, int] | None:
    """A token from its pieces, the first ending at a break inside its prefix: of a known
    length when the first pieces joined are exactly its shape (a wrap's full lines when more
    than two, as `check_cut_token`); else of open length, the pieces to the first line that is
    not a full line of a random token (as `check_cut_open`, the second line counting alone:
    the prefix itself says the token goes on; a last line shorter than the full ones only when
    it looks random too)."""
    lengths = [len(piece) for piece, _ in pieces]
    joined = pieces[0][0]
    for count in range(1, len(pieces)):
        joined += pieces[count][0]
        if len(joined) > 200:
            break
        found = _CUT_FAMILY.fullmatch(joined)
        if found is not None:
            if (count == 1 or _wrapped(lengths[:count + 1])) and _plain(joined):
                return _CUT_KINDS[found.lastindex - 1], pieces[count][1]
            break
    width, last = lengths[1], 1
    while (last + 1 < len(pieces) and width >= CUT_WIDTH and lengths[0] <= width and lengths[last] == width
           and _random_line(pieces[last][0]) and lengths[last + 1] <= width
           and (lengths[last + 1] == width or _random_end(pieces[last + 1][0]))):
        last += 1
    joined = "".join(piece for piece, _ in pieces[:last + 1])
    found = _OPEN_FAMILY.fullmatch(joined)
    if found is None or _FILLER.fullmatch(joined) is not None or joined.endswith(_JWT_IO_SIGNATURE):
        return None
    return _OPEN_KINDS[found.lastindex - 1], pieces[last][1]


def check_prefix_cut(match, text):
    """A break inside a token's prefix (`sk_li` then `ve_…`): the match is the prefix's head
    where a word starts, a break after it, then the prefix's tail and the token's body. The
    pieces joined must make a token of `CUT_FAMILIES` (`_joined_cut`)."""
    head = match.group()
    if text[match.start() - 1:match.start()] in ("n", "r", "t") and text[match.start() - 2:match.start() - 1] != "\\":
        return False  # inside a word (`n`, `r` and `t` before it are a JSON escape's only after a backslash)
    cut = _LINE_CUT.match(text, match.end())
    if cut is None:
        return False
    for tail in _prefix_tails().get(head, ()):
        if not text.startswith(tail, cut.end()):
            continue
        pieces = _after_cut(text, cut.end(), len(tail) + 1, cut.group())
        if pieces:
            found = _joined_cut([(head, match.end())] + pieces)
            if found is not None:
                return found[0], match.start(), found[1]
    return False


#: Symbols a chosen password holds and words do not ("user-defined", "auto_generated" are prose).
_CHOSEN_SYMBOLS = "!@#$%^&*+=~?"


def _told_value(match, text) -> str:
    """The value a sentence told, without the sentence's own punctuation ("is needed: --flag",
    "is required."); "" when it is too short or a placeholder."""
    value = _group(match, text, "secret").rstrip(".,;:!?)")
    return "" if len(value) < 6 or _placeholder(value) else value


def check_told(match, text):
    value = _told_value(match, text)
    return (bool(value) and any(c.isalpha() for c in value)
            and any(c.isdigit() or c in _CHOSEN_SYMBOLS for c in value))


def check_told_bare(match, text):
    """A value told after the bare word ("with password X"): eight characters or more of three
    classes of small letters, capitals, digits and a password's symbols, not a path, a URL or
    words joined without such a symbol ("PasswordHasherV2"; "Summer2024!" is a password)."""
    start, end = match.span("secret")
    value = text[start:end].rstrip(".,;:)")  # a sentence's own; a password's `!` is its own
    end = start + len(value)
    core = value.rstrip("!?")  # "password Password?" is a question, "Summer2024!" a password
    if _HASH_SCHEME.match(value) or value.lower().startswith("scram-sha-"):
        return False  # a stored hash (`PASSWORD SCRAM-SHA-256$4096:...`): password-hash's to judge
    if len(core) < 8 or _placeholder(value) or "/" in value or (
            _word_share(value) >= 0.42 and not any(c in _CHOSEN_SYMBOLS for c in value)):
        return False
    classes = (any(c.islower() for c in core), any(c.isupper() for c in core),
               any(c.isdigit() for c in core), any(c in _CHOSEN_SYMBOLS for c in core))
    return sum(classes) >= 3 and ("password", start, end)


def check_curl_user(match, text):
    line_start = _command_start(text, match.start())
    line = text[line_start:match.start()].lower()
    if not re.search(r"\b(?:curl|wget|http|https|xh)\b", line):
        return False  # `git push -u origin x:y`, `docker run -u 1000:1000`
    group = "quoted" if match.start("quoted") >= 0 else "secret"  # `-u admin:'p%*ss'`
    if _placeholder(_group(match, text, group)):
        return False
    start, end = match.span(group)
    return "basic-auth", start, end


def _command_start(text: str, position: int) -> int:
    """Where the command holding `position` starts: its line, and the lines it continues
    (`curl ... \\` then `-u user:token` on the next line), as typed or JSON-escaped."""
    while True:
        raw, escaped = text.rfind("\n", 0, position), text.rfind("\\n", 0, position)
        if raw < 0 and escaped < 0:
            return 0
        if raw > escaped:
            if text[max(0, raw - 1):raw] != "\\":
                return raw + 1
            position = raw - 1
        else:
            if text[max(0, escaped - 2):escaped] != "\\\\":
                return escaped + 2
            position = escaped - 2


def check_tag(match, text):
    tag = _group(match, text, "tag")
    value = _group(match, text, "secret")
    words = _words(tag.split(":")[-1])
    if words and (words[-1] in _SUFFIX_REJECT or words[0] in _PREFIX_REJECT):
        return False
    if _placeholder(value):
        return False  # (`true`, `false` are reserved words: placeholders)
    return "password" if "pass" in tag.lower() else "secret-assignment"


def _at_line_start(text: str, position: int) -> bool:
    before = text[max(0, position - 200):position].rstrip(" \t\"'\\")
    return not before or before[-1] in "\n\r{[,;(-#" or before.endswith(("\\n", "\\r"))


# --- the rule families' checks ----------------------------------------------------------------


def _span_of_word(match) -> tuple[int, int]:
    """The span of a `_WORD` group: the quoted text inside its quotes, or the bare word."""
    if match.start("secret") >= 0:
        return match.span("secret")
    return match.span("bare")


def check_cli_password(match, text):
    start, end = _span_of_word(match)
    value = text[start:end]
    if value.lower().startswith("pass:"):
        start += 5
        value = value[5:]
    if not value or value.startswith("-") or _placeholder(value) or value.lower() in ("stdin", "prompt") \
            or not value.strip("`.…,;:") or value.lower() in _PROSE_AFTER_FLAG \
            or text.startswith("$(", start):  # `-p $(ACR_PASSWORD)`: a pipeline's variable
        return False  # "Using --password via the CLI is insecure": the flag named in prose
    if value.lower().startswith(("env:", "file:", "fd:")) or value.startswith(("/", "./", "~/")):
        return False  # openssl's `-passin env:VAR`, a file holding the password
    return "password", start, end


def _shell_words(args: str, offset: int) -> list[tuple[str, int, int]]:
    """(word, start, end) of a command's arguments: quotes removed from the span they enclose."""
    words = []
    for found in re.finditer(r"\\?([\"'])(.*?)\\?\1|[^\s\"']+", args):
        if found.group(1):
            words.append((found.group(2), offset + found.start(2), offset + found.end(2)))
        else:
            words.append((found.group(0), offset + found.start(), offset + found.end()))
    return words


def _command_line(text: str, position: int) -> str:
    """The command `position` is in: from the start of its line (a newline, an escaped one, or
    a shell separator) to `position`, lower-cased."""
    escaped = text.rfind("\\n", 0, position)
    start = max(0, escaped + 2 if escaped >= 0 else 0,
                *(text.rfind(c, 0, position) + 1 for c in "\n|;&"))
    return text[start:position].lower()


def tool_check(tools: str, then: Check | None = None) -> Check:
    """A check that the match sits in a command of one of `tools` (a regex alternation), then
    `then`: the flag comes first in the pattern (a literal start is a fast scan), the tool is
    looked for only when a flag is found."""
    named = Lazy(r"(?:^|[\s/\"'`(])(?:" + tools + r")(?:\.exe|\.py)?\b")

    def check(match, text):
        if named.search(_command_line(text, match.start())) is None:
            return False
        return then(match, text) if then is not None else True

    return check


def check_not_a_word(match, text):
    """Not a placeholder, nor the word a doc writes for it (`user:pass`, `-U user%password`)."""
    return check_placeholder(match, text) and _group(match, text, "secret").lower().strip("`.:,;") not in _CODE_WORDS


def check_samba(match, text):
    # `-U user%pass`: a flag of its own (after a space or quote), not `--no-U`, not a value.
    before = text[match.start() - 1:match.start()]
    if before and (before.isalnum() or before in "_-"):
        return False
    return check_not_a_word(match, text)


def check_htpasswd(match, text):
    # htpasswd [-cmBdpsDv] [-C cost] [-r rounds] -b[n] [passwordfile] username password
    words = _shell_words(_group(match, text, "args"), match.start("args"))
    flags, positional = "", []
    index = 0
    while index < len(words):
        word = words[index][0]
        if word.startswith("-") and not positional:
            if not re.fullmatch(r"-[A-Za-z]+|-[Cr]", word):
                return False  # not a command line htpasswd parses (`htpasswd -b[n]` in prose)
            flags += word[1:]
            if word in ("-C", "-r"):
                index += 1  # the option's number
        else:
            positional.append(words[index])
        index += 1
    if "b" not in flags:
        return False
    wanted = 2 if "n" in flags else 3
    if len(positional) < wanted:
        return False
    value, start, end = positional[wanted - 1]
    return False if _placeholder(value) else ("password", start, end)


_CODE_WORDS = frozenset("password passwd pass pw pwd secret token user username none null".split())


def check_literal(match, text):
    """`auth=("user", "pw")`: the second member, unless it is a word, a path or a placeholder,
    or the name says the pair is something else (`authResponseHeaders = ["X-User-Role", ...]`)."""
    value = _group(match, text, "secret")
    name = re.match(r"[A-Za-z_]\w*", text[match.start():match.start() + 80])
    if name and set(_words(name.group(0))) & _SUFFIX_REJECT:
        return False
    if _placeholder(value) or value.lower() in _CODE_WORDS or any(c.isspace() for c in value):
        return False
    if value.startswith(("/", "http://", "https://", "{", "%")) or not _secretish(value, 4):
        return False
    return "password"


def check_named_literal(match, text):
    """`define('DB_PASSWORD', 'pw')`: judged as a dict value under that key would be."""
    value = _group(match, text, "secret")
    if value.lower() in _CODE_WORDS or not _secretish(value, 4) or re.fullmatch(r"[A-Z][A-Z0-9]*_[A-Z0-9_]+", value):
        return False  # `pick("api_key", "CARTO_API_KEY")`: the name of where it is, not the key
    if re.fullmatch(r"[A-Za-z][\w-]*", value) and (_KEY_NAME.search(value) or _group(match, text, "name").lower() in value.lower()):
        return False  # `("authorization", "proxy-authorization")`: another secret's name
    return secret_key_kind(_group(match, text, "name"), value) or False


def _machine_part(dotted: str) -> bool:
    """A dotted value one of whose parts no one would name a thing: mixed case and digits, no
    word joints (`Q0N3eLrig9iyS3t3.b` is a password ending in a dot; `form.password.data`,
    `settings.SECRET_KEY_2`, `cfg.apiKeyV2` are code)."""
    return any(len(part) >= 12 and "_" not in part and not part.isupper() and not part.islower()
               and sum(c.isdigit() for c in part) >= 2 and _random_looking(part, 12)
               for part in dotted.split("."))


def _random_looking(value: str, minimum: int = 16, bits: float = 3.0) -> bool:
    """Long, varied and not a word: a machine-made value (the entropy rules of gitleaks and
    detect-secrets score the same thing)."""
    if len(value) < minimum or not any(c.isdigit() for c in value) or not any(c.isalpha() for c in value):
        return False
    return entropy(value) >= bits


def check_cookie(match, text):
    """A Cookie/Set-Cookie header whose values include a machine-made one: its pairs, from the
    first such value to the last (attributes and short values are kept)."""
    start = match.start("secret")
    body = _group(match, text, "secret")
    first = last = -1
    for pair in re.finditer(r"([^=;,\s]+)=([^;,\s]*)", body):
        name, value = pair.group(1).lower(), pair.group(2)
        if name in ("path", "domain", "expires", "max-age", "samesite"):
            continue
        if _random_looking(value, 16) or (_random_looking(value, 8) and any(w in name for w in ("sess", "sid", "auth", "token"))):
            first = pair.start(2) if first < 0 else first
            last = pair.end(2)
    return ("cookie", start + first, start + last) if first >= 0 else False


def check_entropic_value(match, text):
    return _random_looking(_group(match, text, "secret"), 16)


def check_url_param(match, text):
    value = _group(match, text, "secret")
    return _random_looking(value, 20, 3.2) and not value.lower().startswith(("http", "%2f", "/"))


def _b64decode(text: str) -> bytes:
    import base64
    import binascii

    clean = re.sub(r"[^A-Za-z0-9+/]", "", text)
    clean = clean[: len(clean) // 4 * 4]
    try:
        return base64.b64decode(clean)
    except (binascii.Error, ValueError):
        return b""


_ENCRYPTED_KEY_OIDS = (bytes.fromhex("2a864886f70d01050d"), bytes.fromhex("2a864886f70d010c01"))


def private_der(data: bytes) -> bool:
    """`data` starts like a private key: openssh-key-v1, or a DER SEQUENCE whose first element
    is INTEGER 0 or 1 (PKCS#1, PKCS#8, SEC1, DSA), or an encrypted PKCS#8 (PBES2, PKCS#12 PBE).
    Certificates and public keys start with a SEQUENCE inside the SEQUENCE instead."""
    if data.startswith(b"openssh-key-v1"):
        return True
    if len(data) < 8 or data[0] != 0x30:
        return False
    at = 2 + (data[1] & 0x7F if data[1] & 0x80 else 0)
    if data[at:at + 3] in (b"\x02\x01\x00", b"\x02\x01\x01"):
        return True
    return data[at:at + 1] == b"\x30" and any(oid in data[at:at + 24] for oid in _ENCRYPTED_KEY_OIDS)


def check_der_private_key(match, text):
    head = match.group(0)[:64]
    return private_der(_b64decode(head))


def check_pem_block(match, text):
    """A PEM private key block holding key material: `-----BEGIN PRIVATE KEY-----` straight
    before its END line (a fixture's empty key, a template) holds none."""
    return _pem_material(match.group(0))


#: A line break as written or JSON-escaped.
_NEWLINE = r"(?:\r?\n|(?:\\r)?\\n)"
#: An armoured PGP block's checksum line (`=GUnl`) between its body and its END line.
_ARMOR_CHECKSUM = Lazy(r"^=[A-Za-z0-9+/]{4}" + _NEWLINE)
#: What a BEGIN line names when its block holds no secret.
_PUBLIC_BLOCKS = ("CERTIFICATE", "PUBLIC KEY", "X509", "TRUSTED", "PGP SIGNATURE", "PGP MESSAGE")


def check_pem_lines(match, text):
    after = text[match.end():match.end() + 60].lstrip(" \t\r\n\\n")
    after = _ARMOR_CHECKSUM.sub("", after, count=1).lstrip(" \t\r\n\\n").upper()
    if after.startswith("-----END") and any(name in after[9:40] for name in _PUBLIC_BLOCKS):
        return False
    begin = text.rfind("-----BEGIN ", max(0, match.start() - 200), match.start())
    if begin >= 0 and "-----END" not in text[begin:match.start()] \
            and any(name in text[begin + 11:begin + 40].upper() for name in _PUBLIC_BLOCKS):
        return False  # the body of a public key, a certificate, a signature, whose BEGIN line says so
    body = match.group(0)
    if "gAwIBAgI" in body[:24] or "9w0BAQEFAAOC" in body[:48] or body.startswith("mQ"):
        return False  # DER of a certificate (its version) or a public key; a PGP public key packet
    # judged by its full lines: sha256 digests one per line, then `C:\Users`, are no key's body
    lines = "".join(c for c in body if c.isalnum() or c in "+/")[:128]
    return any(c.isdigit() for c in lines) and lines.lower() != lines and lines.upper() != lines


def _pem_material(pem: str) -> bool:
    """Whether PEM text (as written, or decoded from base64) holds key material after its
    BEGIN line: 16 base64 characters or more before its END line."""
    begin = pem.find("-----BEGIN ")
    opened = pem.find("-----", begin + 11) if begin >= 0 else -1
    body = pem[opened + 5:] if opened >= 0 else ""
    end = body.find("-----END")
    return sum(c.isalnum() or c in "+/" for c in (body[:end] if end >= 0 else body)) >= 16


def check_pem_b64(match, text):
    decoded = _b64decode(match.group(0)[:400])
    begin = decoded.find(b"-----BEGIN ")
    if begin < 0:
        return False
    header = decoded[begin:begin + 60]
    if not (b"PRIVATE KEY" in header or b"PRIVATE-KEY" in header):
        return False
    # a fixture's empty key (the BEGIN line alone, or straight before its END) holds nothing
    return _pem_material(decoded.decode("latin-1")) or len(match.group(0)) > 400


def check_k8s_secret(match, text):
    """A value of a Kubernetes Secret's `data:`/`stringData:` block (YAML)."""
    indent = len(match.group("indent").expandtabs())
    position = match.start()
    while position > 0:
        line_start = text.rfind("\n", 0, position - 1) + 1
        line = text[line_start:position - 1]
        stripped = line.lstrip()
        if stripped and len(line) - len(stripped) < indent:
            return stripped.rstrip().rstrip(":") in ("data", "stringData", "binaryData") and stripped.rstrip().endswith(":")
        position = line_start
    return False


def check_k8s_secret_json(match, text):
    at = text.rfind('"data"', 0, match.start())
    return at >= 0 and "}" not in text[at:match.start()]


def check_mailgun(match, text):
    return "mailgun" in text.lower() or text[max(0, match.start() - 4):match.start()].lower() == "api:"


def check_airtable_key(match, text):
    body = match.group(0)[3:]
    return "airtable" in text.lower() and any(c.isdigit() for c in body) and body.lower() != body


def check_discord(match, text):
    first = match.group(0).split(".", 1)[0]
    decoded = _b64decode(first + "=" * (-len(first) % 4))
    return decoded.isdigit() and 15 <= len(decoded) <= 21


def check_random_body(match, text):
    body = match.group(0)[2:]
    return body.lower() != body and body.upper() != body and _random_looking(body, 20, 3.5)


def _class_changes(value: str) -> float:
    """How often neighbouring characters differ in class (digit, upper, lower): ~0.6 for random
    base62, ~0.2 for CamelCase words and identifiers."""
    classes = ["d" if c.isdigit() else "u" if c.isupper() else "l" for c in value]
    return sum(a != b for a, b in zip(classes, classes[1:])) / max(1, len(value) - 1)


def _word_share(value: str) -> float:
    """The share of `value` in runs of 4+ lower-case letters: about half or more of a CamelCase
    identifier (`GetUserProfileByIdV2`), rarely over a third of random base62."""
    return sum(len(run) for run in re.findall(r"[a-z]{4,}", value)) / max(1, len(value))


#: The prefixes of model APIs' object ids: a completion's, a message's, a tool call's, a run's.
_OBJECT_IDS = ("chatcmpl-", "cmpl-", "resp_", "msg_", "toolu_", "srvtoolu_", "call_", "run_",
               "thread_", "asst_", "step_", "batch_", "file-", "req_")


def check_prefixed_random(match, text):
    if match.group(0).lower().startswith(("pk_test_", "pk_live_")):
        return False  # a Stripe publishable key: made to be shipped in a web page
    if match.group(0).lower().startswith(_OBJECT_IDS):
        return False  # a model API's object id (`chatcmpl-...`, `msg_...`): in every agent log
    if re.match(r"sha(?:1|256|384|512)[-_]", match.group(0), re.IGNORECASE):
        return False  # a subresource integrity hash (`integrity="sha384-..."`), not a token
    body = _group(match, text, "body")
    if body.lower() == body or body.upper() == body or sum(c.isdigit() for c in body) < 2:
        return False  # hex digests, words, upper-case constants
    return entropy(body) >= 4.0 and _class_changes(body) >= 0.4 and _word_share(body) < 0.42


def check_client_literal(match, text):
    """The literal alone, when it is random by the prefixed-token measure (a service's name or
    a hex digest is not)."""
    if not check_prefixed_random(match, text):
        return False
    start, end = match.span("body")
    return "api-key", start, end


def _entropic(value: str, key: str) -> bool:
    """A value machine-made enough to be a secret under a weak secret name."""
    if value.isdigit() or not _random_looking(value, 16, 3.3):
        return False
    if re.fullmatch(r"[0-9a-fA-F-]+", value) and len(value) < 32:
        return False  # a short hex digest or id
    bare = key.lower().strip("-_. ") in ("key", "seed", "cookie", "signature")
    return not bare or (len(value) >= 24 and value.lower() != value and entropy(value) >= 3.8)


_COMPOUND_KEY = Lazy(r"(?:^|[^a-z])" + KEY_COMPOUNDS + r"[_.-]?$", re.IGNORECASE)


def _strong_compound(match, text) -> bool:
    """`HMAC_KEY`, `mixAppKey`, `Ocp-Apim-Subscription-Key`: the word before `key` makes it a secret."""
    if match.group("kw").lower() != "key":
        return False
    key, start = _key_around(match, text)
    return _COMPOUND_KEY.search(text[start:match.start("kw")]) is not None


def check_entropic_assignment(match, text):
    kind = _check_keyed(match, text, flag=False)
    if not kind:
        return False
    key, _ = _key_around(match, text)
    return kind if _strong_compound(match, text) or _entropic(_group(match, text, "secret"), key) else False


def check_entropic_flag(match, text):
    kind = check_flag(match, text)
    if not kind:
        return False
    key, _ = _key_around(match, text)
    return kind if _strong_compound(match, text) or _entropic(_group(match, text, "secret"), key) else False


# --- starts: where the first match of a key-name rule can begin (-1: nowhere) -------------
# Each is a superset test: it may accept a place the rule then refuses, never the reverse.

_STEMS = ("pass", "pwd", "secret", "token", "cred", "key", "auth")
_STEM_BACK = 20  # the longest key word reaches this far before its stem (`shared_access_key`)
_AFTER_ASSIGNMENT = Lazy(r"[\w.-]{0,64}(?:\\?[\"']\]?)?[ \t]{0,%d}(?:\|\||\?\?)?(?:[:=]|%%3[ad])" % SEP_SPACES)
_AFTER_FLAG = Lazy(r"[\w-]{0,64}(?:=|[ \t])")


def _first_stem(lowered: str, accept) -> int:
    """Where the first key word followed by what `accept` wants may begin, or -1."""
    best = -1
    for stem in _STEMS:
        at = lowered.find(stem)
        while at >= 0 and (best < 0 or at < best):
            if accept(lowered, stem, at, at + len(stem)):
                best = at
                break
            at = lowered.find(stem, at + 1)
    return -1 if best < 0 else max(0, best - _STEM_BACK)


def _flag_around(text: str, stem: str, at: int, end: int) -> bool:
    # A flag's key word follows a dash: right before the stem, or (`--api-key`) before the
    # compound's first part, which only `key` has.
    dashed = text[at - 1:at] == "-" or (stem == "key" and "-" in text[max(0, at - 16):at])
    return dashed and _AFTER_FLAG.match(text, end) is not None


# A key word's stem, name characters, a closing quote, spaces, a separator: one C-level scan
# (faster than finding each stem and testing what follows it in Python).
_STEM_ASSIGNMENT = Lazy(r"(?:pass|pwd|secret|token|cred|key|auth)" + _AFTER_ASSIGNMENT.args[0])


#: How far before its separator a key-name match can begin: the longest stem (6), its name
#: characters (64), a quote and its backslash, the spaces of an aligned column.
_SEPARATOR_REACH = 6 + 64 + 2 + SEP_SPACES


def start_assignment(lowered: str) -> int:
    # Every match ends in a separator; the regex need not walk the prose before the first.
    first = -1
    for separator in ("=", ":", "%3"):
        at = lowered.find(separator) if first < 0 else lowered.find(separator, 0, first)
        if at >= 0:
            first = at
    if first < 0:
        return -1
    found = _STEM_ASSIGNMENT.search(lowered, max(0, first - _SEPARATOR_REACH))
    return -1 if found is None else max(0, found.start() - _STEM_BACK)


def start_flag(lowered: str) -> int:
    return _first_stem(lowered, _flag_around) if "-" in lowered else -1


def start_tag(lowered: str) -> int:
    return 0 if "</" in lowered else -1


#: How far before its first `+`, line break or type a built value's name can stand: the name
def _start_near(lowered: str, marks: re.Pattern, reach: int) -> int:
    """Where the first match can begin: `reach` before the first of `marks` that has a secret's
    name in front of it within `reach` (-1: none has, the rule need not run)."""
    for found in marks.finditer(lowered):
        # the mark's first character too: a block scalar's `password: >-` has its separator there
        window = lowered[max(0, found.start() - reach):found.start() + 1]
        if _STEM_ASSIGNMENT.search(window) or "key" in window:
            return max(0, found.start() - reach)
    return -1


#: A YAML block scalar's indicator after a colon (`: |`, `: >-`, then a line break).
_BLOCK = Lazy(r":[ \t]*[|>][-+]?\d?(?:\s|\\[rn])")


def start_block(lowered: str) -> int:
    return _start_near(lowered, _BLOCK, 100)


#: A secret's name ending a table's cell (`| DB_PASSWORD |`, `│ API_KEY │`): where a row rule
#: can begin, so a shell's pipes with no such name before them cost one scan.
_NAMED_CELL = Lazy(r"(?:pass|pwd|secret|token|key|cred|auth)[\w.-]{0,40}`?[ \t]*(?:[|\u2502]|\\u2502)")


def start_table_row(lowered: str) -> int:
    found = _NAMED_CELL.search(lowered)
    return -1 if found is None else max(0, found.start() - 90)


#: "key is …" told in a sentence, and a `value =` after its `name = "…"`: the first of them.
_TOLD_KEY_VERB = Lazy(r"(?:key|token)[ \t]+(?:is|was)[ \t]")
_VALUE_AFTER_NAME = Lazy(r"value[ \t]*=")


def start_told_key(lowered: str) -> int:
    found = _TOLD_KEY_VERB.search(lowered)
    return -1 if found is None else found.start()


def start_name_value(lowered: str) -> int:
    """A `value =` with a `name` within 200 characters before it."""
    at = lowered.find("value")
    while at >= 0:
        if _VALUE_AFTER_NAME.match(lowered, at):
            name = lowered.rfind("name", max(0, at - 200), at)
            if name >= 0:
                return name
        at = lowered.find("value", at + 5)
    return -1


def start_pat(text: str) -> int:
    """Where `_PAT` is written in capitals (the rule is case-sensitive; its needle `_pat` is in
    every Claude hook row's `transcript_path`)."""
    return text.find("_PAT")


STARTS = {"prefix_cut": start_prefix_cut, "assignment": start_assignment, "flag": start_flag, "tag": start_tag, "block": start_block,
          "table_row": start_table_row, "told_key": start_told_key, "name_value": start_name_value, "pat": start_pat}


def check_block_scalar(match, text):
    """`api_key: >-` and the value on the line below, when it is machine-made: judged as a
    value after the colon is."""
    key, _ = _key_around(match, text)
    value = _group(match, text, "secret")
    if not _random_looking(value, 12):
        return False  # a block's first line is as often a script or a snippet (`auth-snippet: |`)
    return secret_key_kind(key, value) or False


_PIECE = Lazy(r"\\?[\"']([^\"'\n\\]{1,200})\\?[\"']")


#: The name a built value is assigned to, right before its `=` (or its type's `:`).
_NAME_BEFORE = Lazy(r"([A-Za-z_][\w.-]{0,80})\\?[\"']?[ \t]*$")
_SECRET_STEM = Lazy(r"(?:" + KEYWORDS + r"|key)", re.IGNORECASE)


def check_joined_literal(match, text):
    """A literal cut into pieces (`"sk_live_" + "..."`) or given a type (`KEY: &str = "..."`),
    under a secret's name: the value the code builds, judged whole."""
    base = match.start("secret")
    pieces = list(_PIECE.finditer(_group(match, text, "secret")))
    if not pieces:
        return False
    value = "".join(piece.group(1) for piece in pieces)
    if text[match.end("secret"):match.end("secret") + 40].lstrip(" \t\"'")[:1] in ("*", "%", ".", "["):
        return False  # `"ghp_" + "b" * 36`, `"%s" % x`: an expression the literals are part of
    name = _NAME_BEFORE.search(text, max(0, match.start() - 90), match.start())
    stems = list(_SECRET_STEM.finditer(name.group(1))) if name else []
    if not stems:
        return False
    stem, key, key_start = stems[-1], name.group(1), name.start(1)
    suffix_end = stem.end()
    while suffix_end < len(key) and (key[suffix_end].isalnum() or key[suffix_end] in "_.-"):
        suffix_end += 1
    if _key_refused(stem.group(0), key_start + stem.start(), key, key_start, text, key[stem.end():suffix_end]):
        return False
    if MARKER in value:
        # a vendor's rule took the first piece (`"sk_live_..." + "<the rest>"`): the rest with it
        marked = next(i for i, piece in enumerate(pieces) if MARKER in piece.group(1))
        rest = pieces[marked + 1:]
        if rest and all(re.fullmatch(r"[\w+/=-]{4,}", piece.group(1)) for piece in rest):
            kind = pieces[marked].group(1).split(MARKER, 1)[1].split("]", 1)[0]
            return kind, base + rest[0].start(1), base + rest[-1].end(1)
        return False
    if len(value) < 8:
        return False
    kind = secret_key_kind(key, value) if stem.group(0).lower() != "key" else None
    if not kind and (_entropic(value, key) or redact_text(value) != value):
        kind = _assignment_kind(key)
    return (kind, base + pieces[0].start(1), base + pieces[-1].end(1)) if kind else False


#: A row of a Key/Value table: its key and its value, each one word (`password    pXjH...`).
_TABLE_ROW = Lazy(r"(?:(?<=\s)|(?<=\\[nrt])|^)([^\s\\]+)(?:[ \t]+|\\t)([^\s\\]+)")


def _named_rows(match, text, rows: re.Pattern):
    """The values of a table's rows named for a secret (`rows` matches a row's name and
    value), from the first to the last."""
    base = match.start("body")
    kind, start, end = None, -1, -1
    for row in rows.finditer(_group(match, text, "body")):
        found = secret_key_kind(row.group(1), row.group(2))
        if found and row.group(2).lower() not in ("n/a", "<nil>"):
            kind = kind or found
            start = base + row.start(2) if start < 0 else start
            end = base + row.end(2)
    return (kind, start, end) if kind else False


def check_key_value_table(match, text):
    """A Key/Value table (`vault kv get`, `vault read`)."""
    return _named_rows(match, text, _TABLE_ROW)


_ROW_COUNT = Lazy(r"\((?:\d+ rows?)\)")
_CELL_WORD = Lazy(r"\S+")


def check_psql_table(match, text):
    """psql's aligned output: the cells of the columns named for a secret, from the first to
    the last. Rows are read as the `|` cells they are split into, the last cell of a row and the
    first of the next being one piece (a newline between them, or a space once folded)."""
    header = re.split(r"\n|\\n", _group(match, text, "header"))[-1]
    names = [(cell.split() or [""])[-1] for cell in header.split("|")]
    if len(names) < 2 or len(_group(match, text, "rule").split("+")) != len(names):
        return False
    rows = _group(match, text, "rows")
    ending = _ROW_COUNT.search(rows)
    rows = rows[:ending.start()] if ending else rows
    cells, offset = [], match.start("rows")
    for part in rows.split("|"):
        cells.append((offset, part.replace("\\n", "  ").replace("\\r", "  ")))
        offset += len(part) + 1
    last = len(names) - 1
    kind, start, end = None, -1, -1
    for row in range(len(cells) // last + 1):
        for column, name in enumerate(names):
            index = row * last + column
            if index >= len(cells):
                continue
            at, cell = cells[index]
            words = list(_CELL_WORD.finditer(cell))
            if not words:
                continue
            if column == last:
                words = words[:1]  # the rest is the next row's first cell
            elif column == 0 and row > 0:
                words = words[-1:]
            value = cell[words[0].start():words[-1].end()]
            found = secret_key_kind(name, value)
            if found and not value.isdigit():
                kind = kind or found
                start = at + words[0].start() if start < 0 else start
                end = at + words[-1].end()
    return (kind, start, end) if kind else False


_LINE_BREAK_AT = Lazy(_NEWLINE)
_BLANK_LINE = Lazy(_NEWLINE + r"[ \t]*" + _NEWLINE)
#: A bordered table's rule (`+------+------+`): between its header and its rows, and between
#: rows once a summary folds the lines into one.
_RULE_TOKEN = Lazy(r"\+-[-+]*\+")
_CELL_TRIM = " \t\"'\\"
_COLUMN_NAME = Lazy(r"^[\w .#/-]{0,40}$")


def _table_rows(text: str, start: int, end: int, delimiter: str, folded: bool) -> list[list[tuple[int, int]]]:
    """The rows of a delimited table in `text[start:end]`, each a list of its cells' spans
    (trimmed of spaces and quotes). Rows are lines; a bordered table's rule lines part rows too,
    and once folded into one line a CSV's rows are its space-separated pieces."""
    rows = []
    parts = (_LINE_BREAK_AT, _RULE_TOKEN) if delimiter == "|" else (_LINE_BREAK_AT,)
    bounds = sorted({start, end, *(x for pattern in parts for m in pattern.finditer(text, start, end)
                                  for x in m.span())})
    for a, b in zip(bounds, bounds[1:]):
        if _LINE_BREAK_AT.fullmatch(text, a, b) or _RULE_TOKEN.fullmatch(text, a, b):
            continue
        pieces = [m.span() for m in _CELL_WORD.finditer(text, a, b)] if folded and delimiter != "|" else [(a, b)]
        for pa, pb in pieces:
            cells, at = [], pa
            for cell in text[pa:pb].split(delimiter):
                left = len(cell) - len(cell.lstrip(_CELL_TRIM))
                value = cell.strip(_CELL_TRIM)
                cells.append((at + left, at + left + len(value)))
                at += len(cell) + 1
            if delimiter == "|":  # outside the borders, and between rows once folded
                cells = [c for c in cells[1:-1] if c[1] > c[0] or not folded]
            rows.append(cells)
    return rows


def check_delimited_table(match, text):
    """A CSV export or a bordered table (`| user | password |`) whose header names a column
    for a secret: that column's cells in the rows below, from the first to the last. A row of
    another count of cells (a quoted delimiter, the table's end) ends it."""
    before = [m.end() for m in _LINE_BREAK_AT.finditer(text, max(0, match.start() - 2000), match.start())]
    head_start = before[-1] if before else 0
    opening = text[head_start:match.start()].rstrip(_CELL_TRIM)
    if opening and opening[-1] not in ",;\t|" and not _at_line_start(text, match.start()):
        return False  # a word in a sentence, not a column's name
    after = _LINE_BREAK_AT.search(text, match.end())
    line = text[head_start:after.start() if after else len(text)]
    delimiter = max(",;\t|", key=line.strip().count)  # leading tabs indent code
    if delimiter not in line.strip():
        return False
    blank = _BLANK_LINE.search(text, match.end())
    end = min(blank.start() if blank else len(text), match.end() + 20000)
    folded = not after or after.start() > end or len(line) > 2 * len(line.split()[0]) + 200 and " " in line
    rows = _table_rows(text, head_start, end, delimiter, folded)
    header = next((i for i, row in enumerate(rows) if any(a <= match.start("name") < b for a, b in row)), None)
    if header is None:
        return False
    names = [text[a:b].lower() for a, b in rows[header]]
    if not all(_COLUMN_NAME.match(name) for name in names[1:]):  # the first may follow a prompt
        return False  # `password, _ := u.Password()`: code, not a header's names
    column = next(i for i, (a, b) in enumerate(rows[header]) if a <= match.start("name") < b)
    kind, start, stop = None, -1, -1
    for row in rows[header + 1:]:
        if len(row) != len(names):
            if folded and len(row) % len(names) == 0 and delimiter == "|":
                row = row[column::len(names)]
            else:
                break
        else:
            row = [row[column]]
        for a, b in row:
            value = text[a:b]
            if value and not value.isdigit() and _secretish(value) and secret_key_kind(names[column], value):
                kind = kind or "password"
                start = a if start < 0 else start
                stop = b
    return (kind, start, stop) if kind else False


#: A stored password's hash scheme (`pbkdf2:sha256:...$salt$hash`, `$2b$12$...`): a hash is
#: the password-hash rule's to judge, not a password.
_HASH_SCHEME = Lazy(r"^(?:pbkdf2|scrypt|argon2\w*|bcrypt|sha\d+|md5)[:$]|^\$\w{1,3}\$")
#: A SQL value list's pieces: a quoted string, a bare value, a bracket, a comma.
_SQL_TOKEN = Lazy(r"'(?:[^'\\]|\\.|'')*'|\"(?:[^\"\\]|\\.)*\"|\(|\)|,|[^,()\s'\"]+")


def check_sql_insert(match, text):
    """`INSERT INTO t (cols) VALUES (...), (...)`: the values of the columns named for a
    secret, from the first to the last (a function call's arguments are one value)."""
    names = [name.strip(" \t\r\n`\"[]").lower() for name in _group(match, text, "cols").split(",")]
    kind, start, end = None, -1, -1
    depth, column = 0, 0
    for token in _SQL_TOKEN.finditer(text, match.start("body"), match.end("body")):
        piece = token.group()
        if piece == "(":
            depth += 1
            column = 0 if depth == 1 else column
        elif piece == ")":
            depth -= 1
        elif piece == ",":
            column += depth == 1
        elif depth == 1 and column < len(names) and piece[:1] in ("'", '"') and len(piece) > 2:
            value = piece[1:-1]
            found = secret_key_kind(names[column], value)
            if found and _secretish(value) and not _HASH_SCHEME.match(value):
                kind = kind or found
                start = token.start() + 1 if start < 0 else start
                end = token.end() - 1
    return (kind, start, end) if kind else False


#: A row of a two-column MySQL table: `| name | value |`.
_MYSQL_PAIR = Lazy(r"\|[ \t]*([^|\n\\]+?)[ \t]*\|[ \t]*([^|\n\\]+?)[ \t]*\|")


def check_mysql_pairs(match, text):
    """A two-column MySQL table (`| smtp/password | ... |`)."""
    return _named_rows(match, text, _MYSQL_PAIR)


def check_cisco(match, text):
    """A configuration's clear-text or type-7 password, not a placeholder (`<password>`)."""
    start, end = match.span("secret") if match.start("secret") >= 0 else match.span("word")
    return not _placeholder(text[start:end]) and ("password", start, end)


def check_snmp_community(match, text):
    """An SNMP community or passphrase: not a placeholder, and not the defaults every device
    ships with ("public", "private"), which name no secret."""
    value = _group(match, text, "secret")
    return not _placeholder(value) and value.lower() not in ("public", "private")


def check_told_key(match, text):
    """A key or token told after a colon in a sentence ("the api key for the sandbox: X"):
    long, not words, a path, a URL or a placeholder."""
    value = _told_value(match, text)
    base64 = re.fullmatch(r"[A-Za-z0-9+/=]{20,}", value) is not None and _random_looking(value, 20, 4.0)
    if len(value) < 12 or any(c in value for c in "<>{}$") or ("/" in value and not base64) \
            or value.lower().startswith(("http", "./")):
        return False  # a placeholder, a path, a URL, a model's name (`meta-llama/Llama-3.1-8B`);
        # not base64 (an AWS secret key holds `/` and `+`)
    if "***" in value:
        return False  # a key shown masked ("Incorrect API key provided: sk-proj-****XLw6")
    if _word_share(value) >= 0.42:
        return False  # words joined (`Llama-3.1-8B-Instruct`), not a key
    return "secret-assignment" if _secretish(value, 12) and any(c.isdigit() for c in value) else False


CHECKS: dict[str, Check] = {
    "block_scalar": check_block_scalar, "joined_literal": check_joined_literal,
    "key_value_table": check_key_value_table, "mysql_pairs": check_mysql_pairs,
    "delimited_table": check_delimited_table, "sql_insert": check_sql_insert, "psql_table": check_psql_table,
    "told_key": check_told_key, "prefix_cut": check_prefix_cut, "cisco": check_cisco, "told_bare": check_told_bare, "placeholder": check_placeholder, "snmp_community": check_snmp_community,
    "seed_phrase": check_seed_phrase,
    "has_digit": check_has_digit, "entropic": check_entropic,
    "told": check_told, "not_example": check_not_example, "client_literal": check_client_literal, "url_password": check_url_password,
    "attached": check_attached, "told_pair": check_told_pair, "told_ascii": check_told_ascii, "pem_block": check_pem_block,
    "bearer": check_bearer, "basic": check_basic, "authorization": check_authorization,
    "assignment": check_assignment, "flag": check_flag, "tag": check_tag, "curl_user": check_curl_user,
    "cli_password": check_cli_password, "htpasswd": check_htpasswd, "literal": check_literal,
    "named_literal": check_named_literal, "cookie": check_cookie, "entropic_value": check_entropic_value,
    "url_param": check_url_param, "der_private_key": check_der_private_key, "pem_b64": check_pem_b64, "pem_lines": check_pem_lines,
    "k8s_secret": check_k8s_secret, "k8s_secret_json": check_k8s_secret_json,
    "mailgun": check_mailgun, "airtable_key": check_airtable_key, "discord": check_discord,
    "random_body": check_random_body, "entropic_assignment": check_entropic_assignment,
    "entropic_flag": check_entropic_flag, "prefixed_random": check_prefixed_random, "samba": check_samba,
    "cut_token": check_cut_token, "cut_open": check_cut_open,
}


# --- the engine ----------------------------------------------------------------------------


# A token rule's match is a run of token characters of 20 or more (the shortest provider token,
# an AWS key id, is 20): it lies inside a whitespace-separated word at least that long, and
# `str.split` finds those words at C speed (a regex for the runs costs twice as much).
LONG_WORD = 20


_runs_of: list = [None, "", (), ()]  # text, its long runs joined, their starts there and in text


def _runs(text: str) -> tuple[str, tuple[int, ...], tuple[int, ...]]:
    """`text`'s long runs joined by spaces, where each starts in that string and in `text`
    (kept for the last text asked: the rules of one scan ask about the same one)."""
    if _runs_of[0] is not text:
        joined, starts, places, cursor, length = [], [], [], 0, 0
        for word in text.split():
            at = text.find(word, cursor)
            cursor = at + len(word)
            if len(word) >= LONG_WORD:
                starts.append(length)
                places.append(at)
                joined.append(word)
                length += len(word) + 1
        _runs_of[:] = [text, " ".join(joined), tuple(starts), tuple(places)]
    return _runs_of[1], _runs_of[2], _runs_of[3]


def _in_runs(pattern: re.Pattern, text: str):
    """The matches of `pattern` in `text` that lie inside its long runs: one scan of the runs
    joined by spaces (a few per cent of a long text), each hit matched again in `text` itself."""
    joined, starts, places = _runs(text)
    index = position = 0
    while True:
        found = pattern.search(joined, position)
        if found is None:
            return
        while index + 1 < len(starts) and starts[index + 1] <= found.start():
            index += 1  # matches come in order: the run holding this one is at or after the last
        at = places[index] + found.start() - starts[index]
        again = pattern.match(text, at)
        if again is not None:
            yield again
        # A match joined across runs may be longer than the one in place (the runs were not
        # neighbours there): go on from where the one in place ended.
        position = found.start() + max(1, min(len(found.group(0)), (again.end() - at) if again else 1))


def long_words(lowered: str) -> str:
    return " ".join(word for word in lowered.split() if len(word) >= LONG_WORD)


_GATE_CHARACTERS = "=:-"
#: Below this length a needle's scan costs less than deciding whether to skip it.
_GATED_LENGTH = 512


def _needle_heads(needles: Iterable[str]) -> dict[str, list[str]]:
    """The needles by their first two characters (a one-character needle by its one)."""
    heads: dict[str, list[str]] = {}
    for needle in needles:
        heads.setdefault(needle[:2], []).append(needle)
    return heads


def _gates_of(needle: str, needles: dict[str, int], heads: dict[str, list[str]]) -> tuple[str, ...]:
    """What must occur for `needle` to occur, cheaper to look for first: the characters prose
    rarely has that it holds, and the longest shorter needle it holds (the first of `needles`,
    each with its place, among as long ones). The needles starting at each of its places are
    looked up by their first two characters (`heads`, from `_needle_heads`): a long text's
    first scan builds this over some 400 needles, and looking up every substring of each cost
    twice as much (docs/performance.md)."""
    gates = [c for c in _GATE_CHARACTERS if c in needle and c != needle]
    held = []
    for at in range(len(needle)):
        single = needle[at]
        if single in heads and single != needle:
            held.append(single)  # a one-character needle (a longer one is filed under two)
        for other in heads.get(needle[at:at + 2], ()):
            if len(other) > 1 and other != needle and needle.startswith(other, at):
                held.append(other)
    if held:
        gates.append(max(held, key=lambda other: (len(other), -needles[other])))
    return tuple(gates)


class Rule:
    """One pattern: compiled on first use, run only when one of its needles occurs."""

    __slots__ = ("kind", "source", "escaped", "needles", "lower", "token", "check", "start", "words", "gate",
                 "_compiled", "_folded")

    def __init__(self, kind: str, pattern: str | Callable[[], str], needles: tuple[str, ...] = (), *, lower: bool = False,
                 token: bool = False, check: str | Check | None = None, start: str | None = None,
                 words: bool = False, gate: str | None = None, escaped: bool = False):
        self.kind = kind
        #: Matched only inside whitespace-free runs of LONG_WORD+ characters (a token without a
        #: literal prefix: scanning just those runs spares a scan of all the prose around).
        self.words = words
        #: A pattern the text's long runs must hold for the rule to run at all.
        self.gate = Lazy(gate, re.IGNORECASE) if gate else None
        #: The pattern, or a function that builds it (called on the rule's first run); when
        #: `escaped`, it is also made to start after a JSON-escaped break then (`_after_escapes`:
        #: a hook process compiles a few rules, and rewriting them all at import cost every one).
        self.source = pattern
        self.escaped = escaped
        self.needles = tuple(needles)
        self.lower = lower
        self.token = token and bool(needles)
        if isinstance(check, str) and check.startswith("tool:"):
            check = tool_check(check[5:], check_cli_password if "(?P<bare>" in pattern else check_not_a_word)
        self.check = CHECKS[check] if isinstance(check, str) else check
        self.start = STARTS[start] if start else None
        self._compiled: re.Pattern | None = None
        self._folded: re.Pattern | None = None

    def _pattern(self) -> str:
        if callable(self.source):
            self.source = self.source()
        if self.escaped:
            self.source, self.escaped = _after_escapes(self.source), False
        return self.source

    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = re.compile(self._pattern())
        return self._compiled

    def apply(self, value: str, lowered: str, sink: list[str] | None = None,
              spans: list[tuple[int, int, int]] | None = None) -> tuple[str, list[str]]:
        """`value` with every accepted match replaced, and the kinds replaced (in order);
        `sink` collects the replaced texts (for scanning caches built from them), `spans` where
        each was in `value` and how long its marker is."""
        # case folding that changed the length (rare non-ASCII): match the original
        folded = self.lower and len(lowered) != len(value)
        target = lowered if self.lower and not folded else value
        begin = 0
        # (before compiling: a text whose start or gate says no never compiles the rule)
        if self.start is not None and not folded:
            begin = self.start(target)
            if begin < 0:
                return value, []
        if self.gate is not None and self.gate.search(_runs(target)[0]) is None:
            return value, []
        if folded:
            if self._folded is None:
                self._folded = re.compile(self._pattern(), re.IGNORECASE)
            pattern = self._folded
        else:
            pattern = self.compiled()
        has_secret = "secret" in pattern.groupindex
        # Earlier replacements must stay whole: a match reaching into one is not a secret
        # (`https://[REDACTED:github-token]@host` has a `:` inside the marker).
        markers = [m.span() for m in _MARKER_SPAN.finditer(value)] if MARKER in value else ()
        pieces: list[str] = []
        kinds: list[str] = []
        last = 0
        if self.words:
            matches = _in_runs(pattern, target)
        else:
            matches = pattern.finditer(target, begin)
        for match in matches:
            kind = self.kind
            start, end = match.span("secret") if has_secret else match.span()
            if start < 0:
                start, end = match.span()
            if start < last:
                continue
            if self.check is not None:
                verdict = self.check(match, value)
                if not verdict:
                    continue
                if isinstance(verdict, tuple):
                    kind, start, end = verdict
                    if start < last:
                        continue  # reaches back into what an earlier match of this rule took
                elif isinstance(verdict, str):
                    kind = verdict
            if _FILLER.fullmatch(value, start, end):
                continue  # a documentation's placeholder: `ghp_xxxx…`, `T00000000/XXXXXXXX`
            if markers and any(a < end and start < b and not (start <= a and b <= end) for a, b in markers):
                continue  # cuts into an earlier replacement (swallowing one whole is fine)
            if value.startswith(MARKER, start):
                continue  # already redacted
            pieces.append(value[last:start])
            pieces.append(f"{MARKER}{kind}]")
            kinds.append(kind)
            if sink is not None:
                sink.append(value[start:end])
            if spans is not None:
                spans.append((start, end, len(pieces[-1])))
            last = end
        if not pieces:
            return value, kinds
        pieces.append(value[last:])
        return "".join(pieces), kinds


# --- line continuations --------------------------------------------------------------------

#: A line continuation between two pieces of one word: a backslash, then a line break (as
#: written, or as JSON escapes it: `\\` then `\n`), or the one space a summary collapsed that
#: break into (`" ".join(text.split())`). The shell, C and Python read what is on either side
#: as one word: a token typed or pasted across one is one token. Only a continuation with a
#: word character on the next line joins: `docker run \` then an indented `-e X` is two words.
_CONTINUATION = Lazy(r"\\(?:\r?\n|\\\\(?:r\\)?n| )(?=[A-Za-z0-9])")
#: A marker ending right before a continuation: the text after it is the rest of that secret
#: (a stored row whose first half alone was taken: `TOKEN=[REDACTED:…]\ <the second half>`).
_MARKER_BEFORE = Lazy(r"\[REDACTED:([\w.-]+)\]$")
#: What a token's rest is made of (base64, base64url, hex, a URL-encoded token).
_TOKEN_REST = Lazy(r"[A-Za-z0-9_.~+/=%-]+")


def _token_word(word: str) -> bool:
    """A word a token can be part of: long, and holding a digit or, longer still, changing case
    as often as a random one (a token of 24 random letters and digits lacks a digit about once
    in 70). A Markdown hard break (`ends here\\` then `Next line`) or a wrapped list of
    settings (`auth: true\\` then `auth: required`) joins words, not a token."""
    if len(word) < 16:
        return False
    if any(c.isdigit() for c in word):
        return True
    changes = sum(a.islower() != b.islower() for a, b in zip(word, word[1:]) if a.isalpha() and b.isalpha())
    return len(word) >= 24 and changes * 5 >= len(word)


_WORD_END = Lazy(r"\S{0,200}")
_WORD_START = Lazy(r"\S{0,200}\Z")


def _join_continuations(value: str, sink: list[str] | None) -> tuple[str, list[tuple[int, str, bool]], list[str]]:
    """`value` with its continuations inside words taken out; each cut as (where it was in the
    joined text, the text taken out, whether that text is a secret's rest and stays out); and
    the kinds of the markers whose rest was taken out with it."""
    found: list[tuple[int, int, str | None]] = []
    last = 0
    for continuation in _CONTINUATION.finditer(value):
        at = continuation.start()
        before = value[at - 1:at]
        if at < last or not before or before.isspace() or before == "\\":
            continue  # not inside a word, or an escaped backslash before a line break
        end = continuation.end()
        marker = _MARKER_BEFORE.search(value, max(last, at - 64), at) if before == "]" else None
        if marker is not None:
            end = _TOKEN_REST.match(value, end).end()
        found.append((at, end, marker.group(1) if marker is not None else None))
        last = end
    # Each continuation is judged by the word it is inside, every continuation of it taken out.
    every, places = _cut_out(value, found)
    kept = []
    for (at, end, kind), place in zip(found, places):
        if kind is None:
            word = _WORD_START.search(every, max(0, place - 200), place).group() + _WORD_END.match(every, place).group()
            if not _token_word(word):
                continue
        kept.append((at, end, kind))
    joined, places = _cut_out(value, kept) if len(kept) < len(found) else (every, places)
    cuts, kinds = [], []
    for (at, end, kind), place in zip(kept, places):
        cuts.append((place, value[at:end], kind is not None))
        if kind is not None:
            kinds.append(kind)
            if sink is not None:
                sink.append(_CONTINUATION.sub("", value[at:end], 1))
    return joined, cuts, kinds


def _cut_out(value: str, spans: list[tuple[int, int, str | None]]) -> tuple[str, list[int]]:
    """`value` without the spans, and where each span was in what is left."""
    pieces, places = [], []
    last = length = 0
    for at, end, _ in spans:
        pieces.append(value[last:at])
        length += at - last
        places.append(length)
        last = end
    pieces.append(value[last:])
    return "".join(pieces), places


def _replaced_places(places: list[tuple[int, int]], spans: list[tuple[int, int, int]]) -> list[tuple[int, int]]:
    """`places` after the text at each span was replaced by a marker of the given length: the
    marker's characters stand for all the text the replaced ones stood for."""
    out: list[tuple[int, int]] = []
    last = 0
    for start, end, length in spans:
        out.extend(places[last:start])
        if end > start:
            out.extend([(places[start][0], places[end - 1][1])] * length)
        else:  # an empty match (a user's pattern may allow one): a marker between two characters
            at = places[start][0] if start < len(places) else (places[-1][1] if places else 0)
            out.extend([(at, at)] * length)
        last = end
    out.extend(places[last:])
    return out


def _restore_continuations(out: str, places: list[tuple[int, int]], cuts: list[tuple[int, str, bool]]) -> str:
    """The scanned text with each continuation put back where it was, unless a marker now
    covers both of its sides (it was inside a secret) or it carried a secret's rest."""
    pieces: list[str] = []
    last = index = 0
    for at, text, secret in cuts:
        while index < len(places) and places[index][0] < at:
            index += 1
        # a marker standing for text on both sides of the cut has the cut inside it
        inside = index > 0 and places[index - 1][1] > at
        if secret or inside:
            continue
        pieces.append(out[last:index])
        pieces.append(text)
        last = index
    pieces.append(out[last:])
    return "".join(pieces)


#: A rule's opening lookbehind (`(?<![\w-])`): the characters that may not come before it.
_OPENING_LOOKBEHIND = Lazy(r"\(\?<!(?:\[(?:\\.|[^\]\\])*\]|[^()\[\]])+\)")


def _after_escapes(pattern: str) -> str:
    """A rule that starts at a word boundary, or after a lookbehind that no word character may
    precede (`(?<![\\w-])eyJ`), also starts right after a JSON-escaped line break or tab: in
    `"...\\nmachine api.host\\n  password X"` or `"...deployer\\neyJhbGci..."` the `n` of the
    escape and the word before make no boundary."""
    if pattern.startswith(r"\b"):
        return r"(?:\b|(?<=\\[nrt]))" + pattern[2:]
    opening = _OPENING_LOOKBEHIND.match(pattern)
    if opening and re.search(opening.group() + "x", "nx") is None:
        return rf"(?:{opening.group()}|(?<=\\[nrt]))" + pattern[opening.end():]
    return pattern


BUILTIN_RULES: tuple[Rule, ...] = tuple(
    Rule(kind, pattern, needles, lower=options.get("lower", False), token=options.get("token", False),
         check=options.get("check"), start=options.get("start"),
         words=options.get("words", options.get("token", False)),
         gate=options.get("gate"), escaped=True)
    for kind, pattern, needles, options in RULES
)


class Redactor:
    """An ordered set of rules applied to every string of a value (keys included)."""

    def __init__(self, patterns: Iterable[tuple[str, str]] | None = None, *, builtin: bool | None = None,
                 prefilter: bool = True):
        # Redactor() is the built-in rule set; Redactor([(kind, regex), ...]) a custom one.
        use_builtin = builtin if builtin is not None else patterns is None
        self._rules: list[Rule] = list(BUILTIN_RULES) if use_builtin else []
        self._prefilter = prefilter
        self._memo: dict[str, tuple[str, list[str], tuple[str, ...]]] = {}
        self._indexed_for = -1
        for kind, pattern in patterns or ():
            self.add_pattern(kind, pattern)

    def add_pattern(self, kind: str, pattern: str) -> None:
        rule = Rule(kind, pattern)
        rule.compiled()  # a bad user pattern fails here, where it is added
        self._rules.append(rule)
        self._memo.clear()

    @property
    def kinds(self) -> list[str]:
        return list(dict.fromkeys(rule.kind for rule in self._rules))

    def _index(self):
        """The token rules' needles and the other rules' needles, each with the positions of
        the rules it gates; and the rules that have no needles (user patterns), which run on
        every string."""
        if self._indexed_for != len(self._rules):
            token: dict[str, list[int]] = {}
            text: dict[str, list[int]] = {}
            always = []
            for position, rule in enumerate(self._rules):
                if not rule.needles:
                    always.append(position)
                for needle in rule.needles:
                    (token if rule.token else text).setdefault(needle, []).append(position)
            # `in` on the few long runs, needle by needle, beats one compiled alternation of
            # the token needles (which a hook process would also pay to compile).
            self._token_needles = tuple((needle, tuple(ps)) for needle, ps in token.items())
            # Needles gating the most rules first: once the key-name rules are candidates,
            # the other stems that gate only them are not looked for. A needle holding a rarer
            # character or a shorter needle is looked for only when that one occurs (prose
            # without `=`, `:` or `-` skips a dozen scans of the whole text).
            ordered = sorted(text.items(), key=lambda item: -len(item[1]))
            self._places = {needle: place for place, needle in enumerate(text)}
            self._text_needles = tuple((needle, frozenset(ps)) for needle, ps in ordered)
            self._gates = None
            self._always = tuple(always)
            self._indexed_for = len(self._rules)
        return self._token_needles, self._text_needles, self._always

    def _gated(self):
        """The other rules' needles as `_index` orders them, each with its gates: built on the
        first text long enough to skip needles (a shorter one looks for every needle)."""
        _, text_needles, _ = self._index()
        if self._gates is None:
            heads = _needle_heads(self._places)
            self._gates = tuple((needle, positions, _gates_of(needle, self._places, heads))
                                for needle, positions in text_needles)
        return self._gates

    def scan(self, value: str, sink: list[str] | None = None) -> tuple[str, list[str]]:
        """The redacted text and the kinds found in it (one entry per replacement)."""
        if len(value) < _MIN_TEXT:
            return value, []
        if len(value) <= _MEMO_LENGTH:
            # Rows repeat their short strings (timestamps, paths, ids, tool names): remember
            # what each came out as (bounded; the rules are fixed once patterns are added).
            memo = self._memo.get(value)
            if memo is None:
                pieces: list[str] = []
                memo = (*self._scan(value, pieces), tuple(pieces))
                if len(self._memo) >= _MEMO_SIZE:
                    self._memo.clear()
                self._memo[value] = memo
            if sink is not None:
                sink.extend(memo[2])
            return memo[0], list(memo[1])
        if self is _default and value in _CLEAN:
            return value, []  # redacted (and cut) by `clip`, with this redactor, a moment ago
        return self._scan(value, sink)

    def candidates(self, lowered: str) -> set[int]:
        """Positions of the rules that can match `lowered` (a superset: each holds a needle).

        Needles are literal: a rule cannot match text that holds none of them. Token rules
        look only in the long runs (few, short); the others in the whole lowered text."""
        token_needles, text_needles, always = self._index()
        found = set(always)
        runs = long_words(lowered) if token_needles and len(lowered) >= LONG_WORD else ""
        if runs:
            for needle, positions in token_needles:
                if needle in runs:
                    found.update(positions)
        if len(lowered) < _GATED_LENGTH:
            for needle, positions in text_needles:
                if needle in lowered:
                    found |= positions
            return found
        seen: dict[str, bool] = {}
        for needle, positions, gates in self._gated():
            if positions <= found:
                continue
            absent = False
            for gate in gates:
                present = seen.get(gate)
                if present is None:
                    present = seen[gate] = gate in lowered
                if not present:
                    absent = True
                    break
            if absent:
                continue
            present = seen.get(needle)
            if present is None:
                present = seen[needle] = needle in lowered
            if present:
                found |= positions
        return found

    def _scan(self, value: str, sink: list[str] | None) -> tuple[str, list[str]]:
        if MARKER in value:
            value, found = _wrapped_rests(value, sink)
            if found:
                out, kinds = self._scan(value, sink)
                return out, found + kinds
        if "\\" in value and _CONTINUATION.search(value) is not None:
            return self._scan_continued(value, sink)
        return self._scan_joined(value, sink, None)

    def _scan_joined(self, value: str, sink: list[str] | None,
                     places: list[tuple[int, int]] | None) -> tuple[str, list[str]]:
        """The rules run over `value`; `places`, when given, is filled (on the first replacement:
        most texts have none) with the span of `value` each character of the result stands for."""
        lowered = value.lower()
        if self._prefilter:
            candidates = self.candidates(lowered)
            if not candidates:
                return value, []  # the common case
            rules = [self._rules[position] for position in sorted(candidates)]
        else:
            rules = self._rules
        found: list[str] = []
        for rule in rules:
            spans: list[tuple[int, int, int]] | None = [] if places is not None else None
            length = len(value)
            out, kinds = rule.apply(value, lowered, sink, spans)
            if kinds:
                found.extend(kinds)
                value = out
                lowered = value.lower()
                if places is not None:
                    if not places:
                        places.extend((at, at + 1) for at in range(length))
                    places[:] = _replaced_places(places, spans)
        return value, found

    def _scan_continued(self, value: str, sink: list[str] | None) -> tuple[str, list[str]]:
        """`value` scanned as the shell reads it: each line continuation inside a word taken out
        (a token typed across one is one token), then put back wherever no marker covers it."""
        joined, cuts, found = _join_continuations(value, sink)
        places: list[tuple[int, int]] = []
        out, kinds = self._scan_joined(joined, sink, places)
        found.extend(kinds)
        if not found:
            return value, []
        return _restore_continuations(out, places or [(at, at + 1) for at in range(len(out))], cuts), found

    def text(self, value: str) -> str:
        return self.scan(value)[0]

    def value(self, value, found: list[str] | None = None, sink: list[str] | None = None):
        """A copy of `value` (any JSON shape) with every credential replaced; `found` collects
        the kinds replaced, `sink` the texts."""
        if isinstance(value, str):
            out, kinds = self.scan(value, sink)
            if found is not None:
                found.extend(kinds)
            return out
        if isinstance(value, dict):
            out = {}
            for key, item in value.items():
                new_key = self.value(key, found, sink) if isinstance(key, str) else key
                if new_key in out and new_key != key:
                    new_key = f"{new_key} #{len(out)}"  # two redacted keys must not collide
                if isinstance(item, str) and isinstance(key, str):
                    kind = secret_key_kind(key, item)
                    if kind is not None:
                        out[new_key] = _redact_under_key(kind, item)
                        if found is not None:
                            found.append(kind)
                        if sink is not None:
                            sink.append(item)
                        continue
                out[new_key] = self.value(item, found, sink)
            return out
        if isinstance(value, list):
            return [self.value(item, found, sink) for item in value]
        return value

    def row(self, row: dict) -> dict:
        """A copy of `row` with every credential shape replaced; order unchanged."""
        return self.value(row)

    def kinds_in(self, value) -> Counter:
        """What redacting `value` would replace, by kind (for `carto doctor --secrets`)."""
        found: list[str] = []
        self.value(value, found)
        return Counter(found)


_KEY_NAME = Lazy(r"(?:" + KEY_COMPOUNDS + r"[_.-]?key|" + KEYWORDS + ")", re.IGNORECASE)
_KEY_HINTS = ("pass", "pwd", "secret", "token", "cred", "key", "auth")


_HINTED: dict[str, bool] = {}  # key name -> holds a key word (row keys repeat: cache them)


def secret_key_kind(key: str, value: str) -> str | None:
    """The kind to redact `value` as when it is stored under dict key `key`, or None."""
    if len(key) > 80 or len(value) < 3:
        return None
    hinted = _HINTED.get(key)
    if hinted is None:
        hinted = any(hint in key.lower() for hint in _KEY_HINTS)
        if len(_HINTED) < 4096:
            _HINTED[key] = hinted
    if not hinted:
        return None
    lowered = key.lower()
    if lowered in ("authorization", "proxy-authorization"):
        scheme, _, credentials = value.strip().partition(" ")
        credentials = credentials.strip() if credentials else scheme
        return None if _placeholder(credentials) or credentials.lower() in _KNOWN_SCHEMES else "authorization"
    for found in _KEY_NAME.finditer(key):
        suffix_end = found.end()
        while suffix_end < len(key) and (key[suffix_end].isalnum() or key[suffix_end] in "_.-"):
            suffix_end += 1
        suffix = key[found.end():suffix_end]
        if _key_refused(found.group(0), found.start(), key[:suffix_end], 0, key, suffix):
            continue
        if _value_refused(value, key, True, ""):
            return None
        if found.group(0).lower() in _WEAK_KEYWORDS and not _secretish(value):
            return None
        if value.isdigit() and "pass" not in lowered and "pwd" not in lowered:
            return None
        return _assignment_kind(key)
    return None


def _redact_under_key(kind: str, value: str) -> str:
    if kind == "authorization":
        scheme, sep, credentials = value.strip().partition(" ")
        if sep and scheme.lower() in _KNOWN_SCHEMES:
            return f"{scheme} {MARKER}{ {'basic': 'basic-auth', 'bearer': 'bearer'}.get(scheme.lower(), kind)}]"
    return f"{MARKER}{kind}]"


_default: Redactor | None = None
#: Texts `clip` already redacted (bounded): `scan` returns them as they are.
_CLEAN: dict[str, None] = {}
_CLEAN_SIZE = 512
_CLIP_MARGIN = 512


def default_redactor() -> Redactor:
    """The process-wide redactor: built-in rules, the patterns installed plugins declare
    (`carto_core.plugin.redaction`, read from the plugin table: no pluggy) and the config file's."""
    global _default
    if _default is None:
        redactor = Redactor()
        for kind, pattern in _plugin_patterns():
            try:
                redactor.add_pattern(kind, pattern)
            except re.error:
                continue  # checked when the table was read; `carto doctor` names it
        for index, pattern in enumerate(_config_patterns()):
            try:
                redactor.add_pattern(f"config-{index + 1}", pattern)
            except re.error:
                continue  # a bad user pattern never stops capture; `carto doctor` names it
        _default = redactor
    return _default


def add_pattern(kind: str, pattern: str) -> None:
    """Extend the process-wide redactor (for plugins)."""
    default_redactor().add_pattern(kind, pattern)


def redact_row(row: dict) -> dict:
    return default_redactor().row(row)


def redact_text(text: str) -> str:
    return default_redactor().text(text)


def clip(text: str, limit: int, tail: str = "") -> str:
    """`text` cut to `limit` characters (`tail` marking the cut), redacted before the cut when
    one happens: half a credential is too short for its rule and would be kept."""
    if len(text) <= limit:
        return text
    # Only the kept head and a margin are redacted: a credential that starts before the cut
    # is matched within the margin (the longest value a rule reads is 400 characters; a private
    # key without its END line is redacted to the end of what is seen).
    text = redact_text(text[: limit + _CLIP_MARGIN])
    text = text if len(text) <= limit else text[: limit - len(tail)] + tail
    # The row this text goes into is redacted again before it is written; that second pass
    # over a long body would find nothing (redaction is idempotent), so remember the result.
    if len(_CLEAN) >= _CLEAN_SIZE:
        _CLEAN.clear()
    _CLEAN[text] = None
    return text


def redact_kept(text: str, limit: int) -> str:
    """`text` redacted (cut to `limit` characters first, as `clip` cuts) and remembered as clean,
    so the later passes over the same string (its checkpoint, its row) cost a lookup."""
    if len(text) > limit:
        return clip(text, limit)
    text = redact_text(text)
    if len(text) > _MEMO_LENGTH:
        if len(_CLEAN) >= _CLEAN_SIZE:
            _CLEAN.clear()
        _CLEAN[text] = None
    return text


def holds(text: str, piece: str) -> bool:
    """`piece in text`, where `piece` may have been redacted and `text` not yet (a Stop
    payload's answer, redacted where it entered, against the transcript's own text)."""
    if piece in text:
        return True
    return MARKER in piece and piece in redact_text(text)


def redacted(rows: Iterable[dict]) -> list[dict]:
    """Rows as a writer may store them: for writers outside the hook and ingest paths
    (telemetry, wrapups, error logs), which append with `appendlog.append_rows` directly."""
    redactor = default_redactor()
    return [redactor.row(row) for row in rows]


def plugin_patterns() -> tuple[list[tuple[str, str]], list[str]]:
    """The patterns installed plugins declare, and the problems reading them."""
    from carto_core.plugin import table
    from carto_core.plugin.redaction import table_patterns

    return table_patterns(table.plugin_table(), table.blocked_names(), table.write_table)


def _plugin_patterns() -> list[tuple[str, str]]:
    try:
        return plugin_patterns()[0]
    except Exception:  # an unreadable table never stops redaction with the built-in rules
        return []


def _config_patterns() -> list[str]:
    from carto_core.logio.home import config_file

    path = config_file()
    if not path.is_file():
        return []
    import tomllib

    try:
        patterns = tomllib.loads(path.read_text("utf-8")).get("redact", {}).get("patterns", [])
    except (OSError, ValueError, AttributeError):
        return []
    return [p for p in patterns if isinstance(p, str)]
