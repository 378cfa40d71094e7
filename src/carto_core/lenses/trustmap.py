"""`carto trustmap`: identifiers an agent's work relies on, derived from the logs (ref 5.4).

Identifiers only, never arguments: hosts (research URLs and curl/wget targets, shape-checked and
classified loopback / lan / public / malformed), command-line tools (the leading word of each
shell segment, minus shell builtins and coreutils, that resolves on PATH and was used at least
`min_hits` times), source-control orgs (from `git remote -v` of the projects' repositories),
cloud buckets (`s3://`, `gs://`, `az://`, `r2://`), package registries (`--registry`,
`--index-url`, `--extra-index-url`), Kubernetes namespaces and contexts (`kube_identifiers`). Each entry says whether the user's Claude Code settings
already mention it (`covered`), which is the diff the trust map exists for.

Only rows whose line can name an identifier are normalized (`_candidate_events`); the fold
by event_id is that of `corpus.load_corpus(home, LOGS)`.
"""

from __future__ import annotations

import ipaddress
import json
import os
import re
import shutil
import subprocess
from collections import Counter
from datetime import datetime, timezone
from urllib.parse import urlparse

from carto_core.model.events import Event, is_resolved
from carto_core.logio.jsonl import fast_loads_line
from carto_core.model.project import find_git
from carto_core.model.session import row_session
from carto_core.logio.reader import iter_lines, unreadable

BUILTINS = frozenset(
    "cd ls cat echo pwd which wc head tail grep sed awk sort uniq cut tr xargs find mkdir rm cp mv "
    "touch chmod chown ln env export set unset source test true false if then else fi for do done "
    "while case esac exit sleep date printf read tee diff less more file stat du df ps kill time "
    "sudo nohup bash sh zsh python python3 node".split()
)
_HOST = re.compile(r"^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$")
_URL = re.compile(r"https?://[^\s'\"<>|]+")
_BUCKET = re.compile(r"\b(s3|gs|az|r2)://([a-z0-9][a-z0-9._-]{1,62})")
_REGISTRY = re.compile(r"--(?:registry|index-url|extra-index-url)[= ]+(\S+)")
_ORG = re.compile(r"(?:github\.com|gitlab\.com|bitbucket\.org)[:/]([A-Za-z0-9_.-]+)/")


def classify_host(host: str) -> str:
    host = host.lower().rstrip(".")
    if host in ("localhost",) or host.endswith(".localhost"):
        return "loopback"
    try:
        address = ipaddress.ip_address(host.strip("[]"))
    except ValueError:
        if not _HOST.match(host) or "." not in host:
            return "malformed"
        if host.endswith((".local", ".internal", ".lan", ".home.arpa")):
            return "lan"
        return "public"
    if address.is_loopback:
        return "loopback"
    return "lan" if address.is_private or address.is_link_local else "public"


def _commands(summary: str) -> list[str]:
    if not summary.startswith("Ran: "):
        return []
    out = []
    for segment in re.split(r"&&|\|\||;|\|", summary[5:]):
        words = segment.strip().split()
        while words and ("=" in words[0] and not words[0].startswith("-")):
            words = words[1:]  # VAR=value prefixes
        if words:
            out.append(os.path.basename(words[0]))
    return out


_NAMESPACE = re.compile(r"^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$")
_CONTEXT = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.:@/-]{0,252}$")
_KUBE_TOOLS = frozenset({"kubectl", "helm", "kubectx", "kubens", "k9s", "kustomize", "oc"})


def kube_identifiers(summary: str) -> tuple[list[str], list[str]]:
    """(namespaces, contexts) a logged shell command names: `-n`/`--namespace`, `--context`/
    `--kube-context`, `config use-context`/`set-context`, `kubectx CTX`, `kubens NS`, for
    kubectl, helm, oc, kubectx, kubens, k9s (identifiers only, never other arguments)."""
    if not summary.startswith("Ran: "):
        return [], []
    namespaces: list[str] = []
    contexts: list[str] = []
    for segment in re.split(r"&&|\|\||;|\|", summary[5:]):
        words = segment.strip().split()
        while words and "=" in words[0] and not words[0].startswith("-"):
            words = words[1:]
        if not words or os.path.basename(words[0]) not in _KUBE_TOOLS:
            continue
        tool = os.path.basename(words[0])
        args = [w.strip("'\"") for w in words[1:]]
        for i, word in enumerate(args):
            following = args[i + 1] if i + 1 < len(args) else ""
            if word in ("-n", "--namespace") and following:
                namespaces.append(following)
            elif word.startswith("--namespace="):
                namespaces.append(word.split("=", 1)[1])
            elif word in ("--context", "--kube-context") and following:
                contexts.append(following)
            elif word.startswith(("--context=", "--kube-context=")):
                contexts.append(word.split("=", 1)[1])
            elif word in ("use-context", "set-context") and i > 0 and args[i - 1] == "config" and following \
                    and not following.startswith("-"):
                contexts.append(following)
        if tool in ("kubectx", "kubens") and args and not args[0].startswith("-") and args[0] != "-":
            (contexts if tool == "kubectx" else namespaces).append(args[0])
    return ([n for n in namespaces if _NAMESPACE.match(n)],
            [c for c in contexts if _CONTEXT.match(c) and c != "--current"])


#: The logs the trust map reads (upstream: changelog, tool-use and research), in fold order.
LOGS = ("research", "tool-use", "changelog")
#: A row can add an identifier only if its line holds one of these bytes: a URL or bucket
#: (`://`, or `:\/\/` from a writer that escapes slashes), a command (`Ran:`), a registry
#: flag, or a commit or push (its type, or a `git-` event id that makes it one).
_MARKERS = re.compile(rb'://|:\\/\\/|Ran:|--registry|--index-url|--extra-index-url|git_commit|git_push|"git-')


def _candidate_events(home, sessions: set | None = None):
    """The events of the three logs, folded by event_id as `corpus.load_corpus(home, LOGS)`
    folds them (the first row of an id wins), but only rows whose line holds a marker are
    normalized in full: the others cannot add an identifier and are reduced to the fields
    that decide their id (which still wins the fold over a later copy). `sessions`, when
    given, collects the session of every row (the sessions that logged hook rows)."""
    seen: set[str] = set()
    for label in LOGS:
        path = home.log(label)
        if unreadable(path):
            continue  # read as an absent log (and a FIFO is not waited on)
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except FileNotFoundError:
            continue
        for line in iter_lines(path, data=data, loads=fast_loads_line):
            raw = data[line.offset:line.end]
            fallback = f"{label}-{line.lineno}"
            if sessions is not None:
                sid = row_session(line.row)
                if sid.__class__ is str and is_resolved(sid):
                    sessions.add(sid)
            if _MARKERS.search(raw) is None:
                # Its id only, by `Event.from_row`'s rule (a fallback id is always given here,
                # so `milestone` never names it).
                event_id = line.row.get("event_id")
                seen.add(event_id if event_id.__class__ is str and is_resolved(event_id) else fallback)
                continue
            event = Event.from_row(line.row, label, fallback_id=fallback)
            if event.event_id in seen:
                continue
            seen.add(event.event_id)
            yield event


def _lines_holding(path, needle: bytes):
    """Parsed rows of the lines of `path` that contain `needle` (the others are not parsed)."""
    from carto_core.logio.jsonl import lines_containing, loads_line

    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError:
        return
    for raw in lines_containing(data[: data.rfind(b"\n") + 1], needle):
        row, problem = loads_line(raw)
        if problem != "malformed_json" and isinstance(row, dict):
            yield row


def _transcript_events(home, hooked: set[str], mcp: Counter, since: datetime):
    """What the ingested history adds: the events the turns' tool calls stand for, for
    sessions that logged no hook row (`lenses.turnwork`), and prompts that name a URL. Every
    turn's MCP calls count by server (hooks log only MCP fetch and search calls)."""
    from carto_core.capture.turnactivity import derived_events

    for row in _lines_holding(home.log("turns"), b'"tools":['):
        event = Event.from_row(row, "turns")
        if event.timestamp is None or event.timestamp < since:
            continue
        for entry in row.get("tools") or ():
            name = entry.get("name") if isinstance(entry, dict) else None
            if isinstance(name, str) and name.startswith("mcp__") and "__" in name[5:]:
                mcp[name[5:].split("__", 1)[0]] += 1
        if event.has_session and event.session_id not in hooked:
            yield from derived_events(event)
    for row in _lines_holding(home.log("prompts"), b"://"):
        yield Event.from_row(row, "prompts")


def trustmap(home, *, window: str = "365d", min_hits: int = 3, cap: int = 40,
             settings_path: str | None = None, now: datetime | None = None) -> dict:
    from carto_core.util.timeparse import parse_when

    now = now or datetime.now(timezone.utc)
    since = parse_when(window, now=now)
    hosts, clis, buckets, registries = Counter(), Counter(), Counter(), Counter()
    namespaces, contexts = Counter(), Counter()
    project_weight: Counter = Counter()
    cwd_of: dict[str, str] = {}
    hooked: set[str] = set()
    mcp: Counter = Counter()

    def events():
        yield from _candidate_events(home, hooked)
        yield from _transcript_events(home, hooked, mcp, since)

    for event in events():
        if event.timestamp is None or event.timestamp < since:
            continue
        row = event.row
        texts = [event.summary or ""]
        if isinstance(row.get("url"), str):
            texts.append(row["url"])
        for text in texts:
            for url in _URL.findall(text):
                host = urlparse(url).hostname
                if host:
                    hosts[host.lower()] += 1
            for kind, name in _BUCKET.findall(text):
                buckets[f"{kind}://{name}"] += 1
            for value in _REGISTRY.findall(text):
                registries[value.strip("'\"")] += 1
        found_ns, found_ctx = kube_identifiers(event.summary or "")
        namespaces.update(found_ns)
        contexts.update(found_ctx)
        for command in _commands(event.summary or ""):
            if command not in BUILTINS and re.match(r"^[A-Za-z0-9._+-]+$", command):
                clis[command] += 1
        if event.type in ("git_commit", "git_push") and event.has_project:
            project_weight[event.project] += 1
            if event.cwd:
                cwd_of.setdefault(event.project, event.cwd)
    orgs = Counter()
    for project, _ in project_weight.most_common(cap):
        cwd = cwd_of.get(project)
        info = find_git(cwd) if cwd and os.path.isdir(cwd) else None
        if info is None:
            continue
        try:
            text = subprocess.run(["git", "-C", str(info.main_worktree), "remote", "-v"],
                                  capture_output=True, text=True, timeout=5).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        for org in set(_ORG.findall(text)):
            orgs[org] += 1
    settings_path = settings_path or os.environ.get("CARTOGRAPHER_SETTINGS") or os.path.join(
        os.path.expanduser("~"), ".claude", "settings.json")
    try:
        settings_text = open(settings_path, encoding="utf-8").read()
        json.loads(settings_text)
    except (OSError, ValueError):
        settings_text = ""

    def entries(counter: Counter, **extra) -> list[dict]:
        return [{"id": name, "hits": n, "covered": bool(settings_text) and name in settings_text,
                 **{k: f(name) for k, f in extra.items()}}
                for name, n in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]

    resolved_clis = Counter({c: n for c, n in clis.items() if n >= min_hits and shutil.which(c)})
    return {
        "window": window,
        "settings": settings_path if settings_text else None,
        "hosts": entries(hosts, kind=classify_host),
        "clis": entries(resolved_clis),
        "clis_unresolved": sorted(c for c, n in clis.items() if n >= min_hits and c not in resolved_clis),
        "orgs": entries(orgs),
        "buckets": entries(buckets),
        "registries": entries(registries),
        "mcp_servers": entries(mcp),
        "k8s_namespaces": entries(namespaces),
        "k8s_contexts": entries(contexts),
        "sensitive_paths": [str(home.root), str(home.state)],
    }
