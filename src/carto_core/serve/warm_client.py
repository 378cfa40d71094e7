"""The warm CLI path: `carto search` and `carto facts` hand their command line to a running
`carto serve` of the same home over a Unix socket in the home, and print its answer; without
one (or when it cannot answer for sure) they run cold as before. Stdlib only on the client
side: the client runs before click, numpy or the index are imported.

The server (`carto_core.serve.warm_socket`) runs the very same click command in its own process (so the output is the same
document byte for byte), with the caller's working directory and the environment variables
that decide an answer (session, provider, purpose, home, config, telemetry paths), on its warm
search engine (`engine_for`). One command at a time.

Never stale: the client sends the logs' fingerprints (inode, size, mtime of each log) taken
just before it asked; the server answers only when, after its engine has refreshed from the
logs and run, the logs are still those the client saw; otherwise it says `cold` and the
client runs cold. Guard rules of the socket: it lives in `<home>/.carto/` (mode 0600, in a
folder of mode 0700 the server created or found private), the peer's uid must be the
server's (SO_PEERCRED), the request names the server's own home (else `cold`), only `search`
and `facts` are run, a request is at most 1 MiB and read within 2 s.
"""

from __future__ import annotations

import json
import os
import sys

SOCKET_NAME = "warm.sock"
REQUEST_MAX = 1 << 20
ANSWER_MAX = 256 << 20
COMMANDS = frozenset({"search", "facts"})
#: Environment variables that change what `carto search`/`carto facts` answer or record.
FORWARDED_ENV = (
    "CARTO_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "HOME",
    "CARTO_SESSION_ID", "CARTOGRAPHER_SESSION_ID", "CLAUDE_SESSION_ID", "CLAUDE_CODE_SESSION_ID",
    "CODEX_SESSION_ID", "CODEX_THREAD_ID", "CODEX_HOME", "CARTO_PROVIDER", "CARTOGRAPHER_PROVIDER",
    "CARTO_PURPOSE", "CARTOGRAPHER_PURPOSE", "CARTO_SERVED_LOG", "CARTOGRAPHER_SERVED_LOG",
    "CARTO_ACCESS_LEDGER", "CARTOGRAPHER_ACCESS_LEDGER", "CARTO_SEARCH_CALL_LOG",
    "CARTOGRAPHER_SEARCH_CALL_LOG", "CARTO_SERVED_DIR", "CARTO_DECAY_LAMBDA",
    "CARTOGRAPHER_DECAY_LAMBDA", "CARTO_REUSE_WEIGHT", "CARTOGRAPHER_REUSE_WEIGHT",
    "CARTO_DECAY_LOOKUP_MAX", "CARTOGRAPHER_DECAY_LOOKUP_MAX", "CARTO_DECAY_LIFT",
    "CARTOGRAPHER_DECAY_LIFT", "CARTO_DECAY_PRIOR_BETA", "CARTO_DECAY_QUESTION_BETA",
    "CARTO_DECAY_VAGUE_LAMBDA", "CARTO_CONTEXT_TERMS", "NO_COLOR", "COLUMNS",
)
#: Variables that shape the engine itself (its config, analyzer, plugins, rankers): a caller
#: whose values differ from the server's is answered cold (the warm engine is not its engine).
ENGINE_ENV = ("CARTO_CONFIG", "CARTO_ANALYZER", "CARTO_EMBEDDER", "CARTO_DISABLE_PLUGINS",
              "CARTO_RANKERS", "CARTO_DECAY", "CARTO_CONTEXT_TERMS", "XDG_CONFIG_HOME", "HOME")


def socket_path(home) -> str:
    return os.path.join(str(home.root), ".carto", SOCKET_NAME)


def fingerprints(home) -> dict[str, list]:
    """label -> [inode, size, mtime_ns] of every searched log ([] when it is missing)."""
    out = {}
    for label, path in sorted(home.searched_logs().items()):
        try:
            info = os.stat(path)
        except OSError:
            out[label] = []
            continue
        out[label] = [info.st_ino, info.st_size, info.st_mtime_ns]
    return out


# --------------------------------------------------------------------------- client


def _recv_all(sock, limit: int) -> bytes:
    chunks, size = [], 0
    while True:
        chunk = sock.recv(1 << 16)
        if not chunk:
            return b"".join(chunks)
        size += len(chunk)
        if size > limit:
            raise OSError("answer too large")
        chunks.append(chunk)


def try_warm(args: list[str]) -> int | None:
    """Exit code of the command answered by a warm server, or None: run it cold."""
    if not args or args[0] not in COMMANDS or os.environ.get("CARTO_WARM", "1") == "0":
        return None
    from carto_core.logio.home import current_home

    try:
        home = current_home()
        path = socket_path(home)
        if not os.path.exists(path):
            return None
        # Imported only when a server's socket is there: a cold search pays for neither
        # socket (it brings selectors and array) nor base64 (below).
        import socket

        request = json.dumps({"v": 1, "argv": args, "cwd": os.getcwd(), "home": str(home.root),
                              "env": {k: os.environ[k] for k in FORWARDED_ENV + ENGINE_ENV
                                      if k in os.environ},
                              "fingerprints": fingerprints(home)}).encode()
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(float(os.environ.get("CARTO_WARM_TIMEOUT", "30")))
            sock.connect(path)
            sock.sendall(request)
            sock.shutdown(socket.SHUT_WR)
            answer = json.loads(_recv_all(sock, ANSWER_MAX))
    except (OSError, ValueError):
        return None
    if not isinstance(answer, dict) or answer.get("status") != "ok":
        return None
    import base64

    try:
        sys.stdout.buffer.write(base64.b64decode(answer["stdout"]))
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader left early (`carto search X | head -1`): end quietly with exit 1, as the
        # cold path does (click's main), what is left unwritten going nowhere at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    sys.stderr.buffer.write(base64.b64decode(answer["stderr"]))
    sys.stderr.flush()
    return int(answer["exit"])


# --------------------------------------------------------------------------- server

#: home real path -> the warm engine a running server registered (serve/warm_socket.py).
ENGINES: dict = {}


def engine_for(home, analyzer, persist: bool):
    """The warm engine of this home when a server registered one that fits, else a new one."""
    from carto_core.search.engine import SearchEngine

    engine = ENGINES.get(os.path.realpath(str(home.root)))
    if engine is not None and analyzer is None and persist:
        return engine
    return SearchEngine(home, analyzer=analyzer, persist=persist)


