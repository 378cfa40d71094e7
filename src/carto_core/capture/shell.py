"""What a shell command line says, read as text: summaries, noise, shell writes, commits, pushes.

Provider-neutral (Claude's Bash tool, Codex's shell tool) and stdlib only: it runs inside
`carto hook` on every shell call. Nothing here executes the command or spawns a process.

The rules follow upstream's `log-tool-use.sh` golden fixture (reference/cartographer.md 1.5):

- the summary reads a 500-byte cut of the command, then cuts *that* at 200 bytes; a cut that
  lands inside a UTF-8 character leaves U+FFFD, and line breaks become spaces (the trailing
  break that `echo` added upstream survives as a trailing space);
- a command is noise when every shell segment (split on `&&`, `||`, `;` and line breaks, not on
  pipes) starts with `ls`, `cat`, `echo`, `pwd`, `cd`, `which`, `wc`, `head` or `tail`;
- a shell write is a `cat >`/`cat >>` redirection, `tee [-a] FILE`, `sed -i ... FILE` or a
  Python `open(path, 'w'|'a')` (a path bound to a variable is looked up in the script);
- commit detection reads the command with heredoc bodies and comments removed, and only its
  first 20,000 bytes;
- a command longer than 256 KiB is read only up to a line break before that (`bounded`): the
  row is kept, and a megabyte costs what 256 KiB does.
"""

from __future__ import annotations

import os
import re

from carto_core.util.lazyre import Lazy as _Lazy

READ_CUT = 500  # bytes of the command a summary is taken from
#: Characters of a command the heuristics read (writes, noise, commits) and the summary is
#: redacted from: a longer command is cut at its last line break before this first
#: (`bounded`), so a command of any size costs bounded work and keeps its row.
SCAN_CUT = 256 * 1024
SUMMARY_CUT = 200  # bytes of that a "Ran:" summary keeps
COMMIT_SCAN_CUT = 20_000  # bytes of the heredoc-stripped command scanned for commits

NOISE_COMMANDS = frozenset({"ls", "cat", "echo", "pwd", "cd", "which", "wc", "head", "tail"})
NOISE_PATH_PARTS = ("/node_modules/", "/.git/")
NOISE_FILE_NAMES = frozenset({"package-lock.json", "yarn.lock", "pnpm-lock.yaml"})


def bounded(command: str) -> str:
    """`command`, or its first `SCAN_CUT` characters cut at a line break when it is longer."""
    if len(command) <= SCAN_CUT:
        return command
    head = command[:SCAN_CUT]
    newline = head.rfind("\n")
    return head[:newline] if newline > 0 else head


def cut_bytes(raw: bytes, limit: int) -> bytes:
    return raw[:limit]


def _decode(raw: bytes) -> str:
    return raw.decode("utf-8", "replace")


def flatten(text: str) -> str:
    """Line breaks and tabs to spaces: every summary is one line."""
    return text.replace("\r\n", " ").replace("\n", " ").replace("\r", " ").replace("\t", " ")


def _redacted(text: str) -> str:
    # Before any cut: a credential cut in half is too short for its rule and would be kept.
    from carto_core.privacy.redact import redact_text

    return redact_text(text)


def _read_form(command: str) -> bytes:
    """The command as upstream's hook read it: 500 bytes, trailing breaks gone, one added
    (redacted first)."""
    raw = _redacted(bounded(command)).encode("utf-8", "surrogatepass")[:READ_CUT].rstrip(b"\n")
    return raw + b"\n"


def ran_summary(command: str) -> str:
    """`Ran: <command>` cut at 200 bytes of a 500-byte read."""
    return "Ran: " + flatten(_decode(_read_form(command)[:SUMMARY_CUT]))


def pushed_summary(command: str) -> str:
    """`Pushed: <command>` (the 500-byte read, not cut further)."""
    return "Pushed: " + flatten(_decode(_read_form(command)))


def one_line(text: str, limit: int = SUMMARY_CUT) -> str:
    """Any text as a single line cut at `limit` bytes (U+FFFD where a character was cut)."""
    raw = _redacted(bounded(text)).encode("utf-8", "surrogatepass")
    if len(raw) > limit:
        text = _decode(raw[:limit])
    return flatten(text)


# ---------------------------------------------------------------------------------------------
# Heredocs, comments, continuations, segments

_HEREDOC = _Lazy(r"<<(-?)\s*(['\"]?)([A-Za-z_][A-Za-z0-9_]*)\2")


def split_heredocs(command: str) -> tuple[str, list[str]]:
    """Return (the command without heredoc bodies, the bodies). `<<<` here-strings stay."""
    if "<<" not in command:
        return command, []
    lines = command.split("\n")
    kept: list[str] = []
    bodies: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        kept.append(line)
        index += 1
        pending = [
            (m.group(1) == "-", m.group(3))
            for m in _HEREDOC.finditer(line)
            if not line[max(0, m.start() - 1):m.start()] == "<"  # `<<<` is a here-string
        ]
        for strip_tabs, delimiter in pending:
            body: list[str] = []
            while index < len(lines):
                candidate = lines[index]
                index += 1
                if (candidate.lstrip("\t") if strip_tabs else candidate) == delimiter:
                    break
                body.append(candidate)
            bodies.append("\n".join(body))
    return "\n".join(kept), bodies


#: A run of shell text that holds no comment, matched by the regex engine in one go: plain
#: characters, whole quoted strings (a backslash escapes inside double quotes), escaped
#: characters, and a `#` glued to what comes before it (`a#b`, `'x'#y`: no comment).
_NO_COMMENT = _Lazy(r"""(?:[^'"\\#]+|'[^']*'|"(?:[^"\\]|\\[\s\S])*"|\\[\s\S]|(?<=[^ \t\n;&|(])\#)+""")


def strip_comments(text: str) -> str:
    """Drop shell comments: a `#` that starts a word, outside quotes, to the end of its line.

    One pass: each step takes the longest run without a comment, then skips the comment that
    stops it; an unclosed quote (or a trailing backslash) keeps the rest as it stands."""
    if "#" not in text:
        return text
    out: list[str] = []
    index, length = 0, len(text)
    run = _NO_COMMENT.match
    while index < length:
        found = run(text, index)
        if found is not None:
            out.append(found.group())
            index = found.end()
            if index >= length:
                break
        if text[index] != "#":
            out.append(text[index:])
            break
        newline = text.find("\n", index)
        if newline < 0:
            break
        index = newline
    return "".join(out)


_SEGMENT_SPLIT = _Lazy(r"&&|\|\||;|\n")


def segments(command: str) -> list[str]:
    """Shell segments (heredoc bodies, comments and line continuations removed) of the
    command's `bounded` form."""
    text, _ = split_heredocs(bounded(command))
    text = strip_comments(text.replace("\\\n", " "))
    return [part.strip() for part in _SEGMENT_SPLIT.split(text) if part.strip()]


_ENV_ASSIGNMENT = _Lazy(r"^[A-Za-z_][A-Za-z0-9_]*=\S*$")


def _first_word(segment: str) -> str:
    for word in segment.split():
        if _ENV_ASSIGNMENT.match(word):
            continue
        return word.rsplit("/", 1)[-1]
    return ""


def is_noise_command(command: str) -> bool:
    """True when every segment of the command is a read-only noise command."""
    parts = segments(command)
    if not parts:
        return False
    return all(_first_word(part) in NOISE_COMMANDS for part in parts)


def is_scratch_path(path: str) -> bool:
    """A loose file in a temp root (`/tmp/x.txt`), not a project under a temp folder."""
    parent = os.path.dirname(path.rstrip("/"))
    roots = {"/tmp", "/var/tmp", "/private/tmp"}
    tmpdir = os.environ.get("TMPDIR")
    if tmpdir:
        roots.add(tmpdir.rstrip("/") or "/")
    return parent in roots


def is_noise_path(path: str) -> bool:
    """Paths whose edits are not worth a row: dependencies, git internals, lock files, scratch."""
    if not path:
        return True
    if path.startswith("/dev/"):
        return True
    if any(part in path for part in NOISE_PATH_PARTS) or path.startswith(("node_modules/", ".git/")):
        return True
    if os.path.basename(path) in NOISE_FILE_NAMES:
        return True
    return is_scratch_path(path)


# ---------------------------------------------------------------------------------------------
# Shell writes

_PATH = r"""(?:'([^']+)'|"([^"$`]+)"|([^\s'"`;&|<>()$]+))"""
_CAT_WRITE = _Lazy(r"\bcat\b[^\n;&|]*?(?<![0-9&])>>?\s*" + _PATH)
_TEE = _Lazy(r"\btee\b((?:\s+-{1,2}[A-Za-z-]+)*)\s+" + _PATH)
_SED_INPLACE = _Lazy(r"\bsed\s+(?:[^\n;&|]*?\s)?(?:-i\S*|--in-place\S*)(?:\s|$)")
_PY_OPEN_LITERAL = _Lazy(r"""\bopen\(\s*(['"])([^'"\n]+)\1\s*,\s*(?:mode\s*=\s*)?['"][wax]""")
_PY_OPEN_VARIABLE = _Lazy(r"""\bopen\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*,\s*(?:mode\s*=\s*)?['"][wax]""")


def _path_of(match: re.Match, first_group: int) -> str:
    return next((g for g in match.groups()[first_group:first_group + 3] if g), "")


def _sed_target(segment: str) -> str:
    import shlex

    try:
        words = shlex.split(segment, comments=False, posix=True)
    except ValueError:
        words = segment.split()
    # `sed -i '' 's/a/b/' FILE` (BSD) or `sed -i 's/a/b/' FILE`: the file is the last word.
    if len(words) >= 3 and not words[-1].startswith("-"):
        return words[-1]
    return ""


_REDIRECTS = frozenset({">", ">>", ">|", "&>", "&>>"})
#: The operators a shell line can hold; a line with another run of punctuation (`><` in XML or
#: HTML pasted into a command) is no shell the heuristic reads: its "targets" would be text.
_OPERATORS = _REDIRECTS | frozenset({";", "&&", "||", "|", "&", "|&", "<", "<<", "<<-", "<<<", "<>", ">&", "<&",
                                     "(", ")", ";;", "<(", ">(", "$("})
_PUNCTUATION = frozenset("();<>|&")


def redirect_targets(text: str) -> list[str]:
    """Files an output redirection writes (`echo hi > a.txt`, `cmd 2>> err.log`, `&> out`), read
    with shell quoting so that a `>` inside quotes is no redirection; `>&2` and `/dev/...` are
    not files. A line the lexer cannot read (an unclosed quote) names none."""
    import shlex

    found: list[str] = []
    for line in text.split("\n"):
        if ">" not in line:
            continue
        try:
            words = list(shlex.shlex(line, posix=True, punctuation_chars=True))
        except ValueError:
            continue
        if any(set(word) <= _PUNCTUATION and word not in _OPERATORS for word in words):
            continue
        for position, word in enumerate(words[:-1]):
            if word in _REDIRECTS:
                target = words[position + 1]
                # `> "$OUT"`: a variable names no file the row could place.
                if target and not set(target) <= _PUNCTUATION and not target.startswith("&") \
                        and "$" not in target and "`" not in target:
                    found.append(target)
    return found


def shell_writes(command: str) -> list[str]:
    """Files a shell command writes, as written in the command (relative paths stay relative).

    Reads the command's `bounded` form (not the 500-byte cut), heredoc bodies included, since
    a Python heredoc's `open(...)` sits in the body. Output redirections count (`echo hello >
    a.txt`; upstream knew only `cat >`, `tee`, `sed -i` and `open`), outside heredoc bodies.
    """
    found: list[str] = []

    def add(path: str) -> None:
        path = path.strip()
        if path and path not in found and not path.startswith("/dev/") and path != "-":
            found.append(path)

    whole = bounded(command)
    head, bodies = split_heredocs(whole)
    head_text = strip_comments(head.replace("\\\n", " "))
    if "cat" in head_text and ">" in head_text:
        for match in _CAT_WRITE.finditer(head_text):
            add(_path_of(match, 0))
    if ">" in head_text:
        for target in redirect_targets(head_text):
            add(target)
    if "tee" in head_text:
        for match in _TEE.finditer(head_text):
            add(_path_of(match, 1))
    if "sed" in head_text:
        for part in _SEGMENT_SPLIT.split(head_text):
            for piece in part.split("|"):
                if _SED_INPLACE.search(piece):
                    target = _sed_target(piece.strip())
                    if target:
                        add(target)
    for text in [head_text, *bodies]:
        if "open(" not in text:
            continue
        for match in _PY_OPEN_LITERAL.finditer(text):
            add(match.group(2))
        for match in _PY_OPEN_VARIABLE.finditer(text):
            name = match.group(1)
            binding = re.search(r"\b" + re.escape(name) + r"\s*=\s*(['\"])([^'\"\n]+)\1", text)
            if binding:
                add(binding.group(2))
    if found:
        # A "path" the redactor takes out of the command is a secret the shell heuristic read as
        # a file: markup pasted into a command (`<string name="api_secret">VALUE</string>`) holds
        # `>VALUE`, and a row saying `Modified: VALUE` would keep what the summary redacted.
        # Only the lines around each name are read again: a long heredoc is not redacted twice.
        from carto_core.privacy.redact import redact_text

        found = [path for path in found if path in redact_text(_around(whole, path))]
    return found


def _around(text: str, part: str, reach: int = 300) -> str:
    at = max(0, text.find(part))
    return text[max(0, at - reach):at + len(part) + reach]


# ---------------------------------------------------------------------------------------------
# Commits and pushes

_GIT_VERB = _Lazy(
    r"\bgit\b((?:\s+(?:-[Cc]\s+(?:'[^']*'|\"[^\"]*\"|\S+)|--?[A-Za-z][\w-]*(?:=\S+)?))*)"
    r"\s+(commit|merge|cherry-pick|revert|am|pull|push)\b"
)
_DASH_C = _Lazy(r"-C\s+(?:'([^']*)'|\"([^\"]*)\"|(\S+))")
_CD = _Lazy(r"(?:^|[;&|\n(]\s*)cd\s+(?:'([^']*)'|\"([^\"]*)\"|([^\s;&|)]+))")
_MESSAGE = _Lazy(r"(?:-m|--message)(?:\s+|=)(?:'([^']*)'|\"((?:[^\"\\]|\\.)*)\"|(\S+))")

COMMIT_VERBS = frozenset({"commit", "merge", "cherry-pick", "revert", "am", "pull"})


class GitCall:
    """One `git <verb>` found in a command: the verb, the repo it names and the message."""

    __slots__ = ("verb", "repo", "literal", "message")

    def __init__(self, verb: str, repo: str, literal: bool, message: str):
        self.verb = verb
        self.repo = repo  # an absolute folder, or "" when the command names none
        self.literal = literal  # False when the folder was named through a variable
        self.message = message

    def __repr__(self) -> str:
        return f"GitCall({self.verb!r}, {self.repo!r}, literal={self.literal}, message={self.message!r})"


def commit_scan_text(command: str) -> str:
    """The text commit detection reads: heredoc bodies and comments gone, 20,000 bytes."""
    head, _ = split_heredocs(bounded(command))
    raw = head.encode("utf-8", "surrogatepass")[:COMMIT_SCAN_CUT]
    return strip_comments(_decode(raw).replace("\\\n", " "))


def _resolve(folder: str, base: str) -> tuple[str, bool]:
    if any(mark in folder for mark in ("$", "`")):
        return "", False
    folder = os.path.expanduser(folder)
    if not os.path.isabs(folder):
        folder = os.path.join(base or os.getcwd(), folder)
    return os.path.normpath(folder), True


def git_calls(command: str, cwd: str) -> list[GitCall]:
    """Every `git commit|merge|cherry-pick|revert|am|pull|push` in the command, in order.

    The repo of each is its `-C DIR`, else the last literal `cd DIR` before it, else `cwd`.
    A folder named through a variable (`-C "$W"`) cannot be read from the text: the cwd stands
    in and the call is marked not literal (callers then require a subject match).
    """
    if "git" not in command:
        return []
    text = commit_scan_text(command)
    calls: list[GitCall] = []
    for match in _GIT_VERB.finditer(text):
        verb = match.group(2)
        options = match.group(1) or ""
        base = cwd
        literal = True
        for cd in _CD.finditer(text, 0, match.start() + 1):
            folder = next((g for g in cd.groups() if g is not None), "")
            resolved, ok = _resolve(folder, base)
            if ok:
                base = resolved
            else:
                literal = False
        repo = base
        dash_c = _DASH_C.search(options)
        if dash_c:
            folder = next((g for g in dash_c.groups() if g is not None), "")
            resolved, ok = _resolve(folder, base)
            repo, literal = (resolved, True) if ok else (cwd, False)
        segment_end = min(
            (i for i in (text.find(sep, match.end()) for sep in ("&&", "||", ";", "\n")) if i >= 0),
            default=len(text),
        )
        message_match = _MESSAGE.search(text, match.end(), segment_end)
        message = ""
        if message_match:
            message = next((g for g in message_match.groups() if g is not None), "")
        calls.append(GitCall(verb, repo, literal, message))
    return calls


def mentions_commit(calls: list[GitCall]) -> bool:
    return any(call.verb in COMMIT_VERBS for call in calls)


def mentions_push(calls: list[GitCall]) -> bool:
    return any(call.verb == "push" for call in calls)


# ---------------------------------------------------------------------------------------------
# apply_patch

_PATCH_FILE = _Lazy(r"^\*\*\* (?:Add|Update) File:\s*(.+?)\s*$", re.MULTILINE)


def apply_patch_paths(patch: str) -> list[str]:
    """Files an `apply_patch` body adds or updates, in order, as written."""
    paths: list[str] = []
    for match in _PATCH_FILE.finditer(patch or ""):
        path = match.group(1)
        if path not in paths:
            paths.append(path)
    return paths
