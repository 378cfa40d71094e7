"""The server side of the warm CLI path (`carto_core.serve.warm_client` has the client and the rules): a
Unix socket in the home, served on `carto serve`'s event loop, that runs `carto search` and
`carto facts` in this process on the warm engine and answers with their output.

A command runs on the event loop to its end, so it never races an API request on the engine,
the environment or the working directory it sets for the caller.
"""

from __future__ import annotations

import base64
import json
import os
import socket
import stat
import struct

from carto_core.util.privatefiles import make_dirs
from carto_core.serve.warm_client import (
    COMMANDS,
    ENGINE_ENV,
    ENGINES,
    FORWARDED_ENV,
    REQUEST_MAX,
    fingerprints,
    socket_path,
)


def _peer_uid(conn: socket.socket) -> int | None:
    try:
        data = conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return None
    _pid, uid, _gid = struct.unpack("3i", data)
    return uid


def run_command(home, request: dict, command) -> dict:
    """Run one request in this process through `command` (the `carto` click group, handed in by
    the command that started the server); the answer (`ok` with the output, or `cold`)."""
    import contextlib
    import io

    argv = request.get("argv")
    if not (isinstance(argv, list) and argv and all(isinstance(a, str) for a in argv)
            and argv[0] in COMMANDS):
        return {"status": "cold", "reason": "not a warm command"}
    if os.path.realpath(str(request.get("home", ""))) != os.path.realpath(str(home.root)):
        return {"status": "cold", "reason": "another home"}
    env = request.get("env") if isinstance(request.get("env"), dict) else {}
    if any(env.get(k) != os.environ.get(k) for k in ENGINE_ENV):
        return {"status": "cold", "reason": "another engine configuration"}
    cwd = request.get("cwd") if isinstance(request.get("cwd"), str) else None
    saved_env = {k: os.environ.get(k) for k in FORWARDED_ENV}
    saved_cwd = os.getcwd()
    out, err = io.BytesIO(), io.BytesIO()
    stdout = io.TextIOWrapper(out, encoding="utf-8", write_through=True)
    stderr = io.TextIOWrapper(err, encoding="utf-8", write_through=True)
    code = 0
    try:
        for key in FORWARDED_ENV:
            if isinstance(env.get(key), str):
                os.environ[key] = env[key]
            else:
                os.environ.pop(key, None)
        if cwd and os.path.isdir(cwd):
            os.chdir(cwd)
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                command.main(args=argv, prog_name="carto", standalone_mode=False)
            except SystemExit as exc:
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
            except Exception as exc:  # noqa: BLE001 - click's own errors, as standalone prints them
                import click

                if isinstance(exc, click.ClickException):
                    exc.show(file=stderr)
                    code = exc.exit_code
                elif isinstance(exc, click.exceptions.Abort):
                    code = 1
                else:
                    return {"status": "cold", "reason": f"{type(exc).__name__}"}
        stdout.flush()
        stderr.flush()
    finally:
        os.chdir(saved_cwd)
        for key, value in saved_env.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value
    if fingerprints(home) != request.get("fingerprints"):
        # The logs moved while (or since) the caller looked: it answers itself, cold.
        return {"status": "cold", "reason": "the logs changed"}
    return {"status": "ok", "exit": code, "stdout": base64.b64encode(out.getvalue()).decode(),
            "stderr": base64.b64encode(err.getvalue()).decode()}


class WarmSocket:
    """A Unix socket in the home, served on the server's event loop."""

    def __init__(self, home, command, engine=None):
        self.home = home
        self.command = command
        self.path = socket_path(home)
        self.sock: socket.socket | None = None
        self.server = None
        self.served = 0
        self.refused = 0
        self._engine = engine

    def bind(self) -> socket.socket:
        folder = os.path.dirname(self.path)
        make_dirs(folder)
        info = os.lstat(folder)
        if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.getuid() or info.st_mode & 0o077:
            # The socket answers the home's owner only: in a folder no one else may enter.
            raise PermissionError(f"{folder} is not private to its owner (mode 0700): no warm "
                                  "socket there (`carto repair permissions --write` tightens it)")
        if os.path.exists(self.path):
            try:  # a live server already answers here: leave it
                with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                    probe.settimeout(0.5)
                    probe.connect(self.path)
            except (ConnectionRefusedError, FileNotFoundError, socket.timeout):
                os.unlink(self.path)  # left by a server that died
            else:
                raise FileExistsError(f"another server answers on {self.path}")
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        old = os.umask(0o177)
        try:
            sock.bind(self.path)
        finally:
            os.umask(old)
        os.chmod(self.path, 0o600)
        self.sock = sock
        if self._engine is not None:
            ENGINES[os.path.realpath(str(self.home.root))] = self._engine
        return sock

    async def start(self) -> None:
        import asyncio

        self.server = await asyncio.start_unix_server(self._handle, sock=self.bind(),
                                                      limit=REQUEST_MAX + 1)

    async def _handle(self, reader, writer) -> None:
        import asyncio

        try:
            answer = await self._answer(reader, writer)
            writer.write(json.dumps(answer).encode())
            await writer.drain()
        except (OSError, asyncio.TimeoutError):
            pass
        finally:
            writer.close()

    async def _answer(self, reader, writer) -> dict:
        import asyncio

        conn = writer.get_extra_info("socket")
        if conn is None or _peer_uid(conn) != os.getuid():
            self.refused += 1
            return {"status": "refused", "reason": "another user"}
        try:
            raw = await asyncio.wait_for(reader.read(REQUEST_MAX + 1), 2.0)
            while raw and len(raw) <= REQUEST_MAX:
                more = await asyncio.wait_for(reader.read(REQUEST_MAX + 1 - len(raw)), 2.0)
                if not more:
                    break
                raw += more
            if len(raw) > REQUEST_MAX:
                raise ValueError("too large")
            request = json.loads(raw)
        except (ValueError, RecursionError, asyncio.TimeoutError):
            self.refused += 1
            return {"status": "refused", "reason": "bad request"}
        if not isinstance(request, dict) or request.get("v") != 1:
            self.refused += 1
            return {"status": "refused", "reason": "bad request"}
        answer = run_command(self.home, request, self.command)
        self.served += answer.get("status") == "ok"
        return answer

    def stop(self) -> None:
        if self.server is not None:
            self.server.close()
        elif self.sock is not None:
            self.sock.close()
        ENGINES.pop(os.path.realpath(str(self.home.root)), None)
        try:
            os.unlink(self.path)
        except OSError:
            pass
