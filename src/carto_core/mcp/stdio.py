"""The stdio transport of `carto mcp`: newline-delimited JSON-RPC through `framing.Framing`.

Replaces the SDK's `stdio_server` (which drops lines it cannot validate) with the same shape:
an async context manager yielding the (read, write) streams `Server.run` takes. While it serves,
fd 0 reads the null device and fd 1 points at stderr, as in the SDK, so a stray `print` or a
child process cannot corrupt the wire; the wire itself is a private duplicate of each.

Three tasks: the reader (one line at a time: the framing forwards messages to the SDK or
answers them at once), the SDK's outbound messages (through the framing, which assembles
batch answers), and one writer that owns stdout (so answers never interleave). A line longer
than `MAX_LINE` is answered with a parse error and skipped. Nothing a client sends stops the
server; a stdout the client closed does (one line on stderr), and the end of stdin, then only
once every request read before it has been
answered (a client that pipes its requests and closes stdin gets every answer; the SDK would
cancel what is still running when its input closes). `DRAIN_SECONDS` bounds that wait.
"""

from __future__ import annotations

import json
import os
import sys
import traceback
from contextlib import asynccontextmanager

from carto_core.mcp.framing import INTERNAL_ERROR, PARSE_ERROR, Framing, encode, error

MAX_LINE = 32 << 20
#: Longest wait, after stdin ended, for the answers of the requests read before it.
DRAIN_SECONDS = 600.0


def _key(request_id) -> str:
    # 1 and "1" are different ids.
    return json.dumps(request_id)


def _claim(fd: int, diversion_flags: int, diversion_path: str | None) -> tuple[int, int | None]:
    """(private duplicate of `fd`, the original to restore) with `fd` itself diverted."""
    private = os.dup(fd)
    try:
        saved = os.dup(fd)
        if diversion_path is not None:
            target = os.open(diversion_path, diversion_flags)
        else:
            target = os.dup(2)
        os.dup2(target, fd)
        os.close(target)
        return private, saved
    except OSError:
        return private, None


def _restore(fd: int, saved: int | None) -> None:
    if saved is None:
        return
    try:
        os.dup2(saved, fd)
    finally:
        os.close(saved)


def _read_line(handle) -> bytes | None:
    """One line (None at the end of input); an over-long line comes back as b"\\0too-long"."""
    line = handle.readline(MAX_LINE + 1)
    if not line:
        return None
    if len(line) > MAX_LINE and not line.endswith(b"\n"):
        while True:  # skip the rest of it
            more = handle.readline(1 << 20)
            if not more or more.endswith(b"\n"):
                break
        return b"\0too-long"
    return line


@asynccontextmanager
async def framed_stdio_server(stdin=None, stdout=None, gone: list | None = None):
    """Serve over the process's stdin/stdout (or the given binary file objects); `gone` gets
    True appended when the client closed stdout."""
    import anyio
    import mcp_types as types
    from mcp.shared.message import ServerMessageMetadata, SessionMessage

    restore: list[tuple[int, int | None]] = []
    if stdin is None:
        private, saved = _claim(0, os.O_RDONLY, os.devnull)
        restore.append((0, saved))
        stdin = os.fdopen(private, "rb", buffering=0)
    if stdout is None:
        sys.stdout.flush()
        private, saved = _claim(1, 0, None)
        restore.append((1, saved))
        stdout = os.fdopen(private, "wb", buffering=0)
    framing = Framing(require_initialize=True)
    read_writer, read_stream = anyio.create_memory_object_stream(0)
    write_stream, write_reader = anyio.create_memory_object_stream(0)
    out_send, out_receive = anyio.create_memory_object_stream(64)
    # Requests handed to the SDK and not answered yet; stdin's end waits for them.
    waiting: set[str] = set()
    stdin_ended, drained = [False], anyio.Event()

    def settled(request_id) -> None:
        waiting.discard(_key(request_id))
        if stdin_ended[0] and not waiting:
            drained.set()

    async def send_line(data: bytes) -> None:
        try:
            await out_send.send(data)
        except (anyio.BrokenResourceError, anyio.ClosedResourceError):
            pass  # the writer is gone with the client's end: nothing can reach it any more

    def metadata_for(message: dict):
        own = message.get("id")
        if not framing.framing_id(own):
            return None

        async def unanswered() -> None:
            settled(own)
            for item in framing.unanswered(own):
                await send_line(encode(item))

        return ServerMessageMetadata(on_request_unanswered=unanswered)

    async def reader() -> None:
        async with read_writer:
            while True:
                line = await anyio.to_thread.run_sync(_read_line, stdin, abandon_on_cancel=True)
                if line is None:
                    stdin_ended[0] = True
                    if waiting:
                        with anyio.move_on_after(DRAIN_SECONDS):
                            await drained.wait()
                    break
                try:
                    if line == b"\0too-long":
                        forwards, answers = [], [error(PARSE_ERROR, f"Parse error: a message longer "
                                                                    f"than {MAX_LINE} bytes")]
                    else:
                        forwards, answers = framing.inbound(line)
                    for answer in answers:
                        await send_line(encode(answer))
                    for message in forwards:
                        try:
                            parsed = types.jsonrpc_message_adapter.validate_python(message, by_name=False)
                        except Exception as exc:  # noqa: BLE001 - the envelope is checked; be safe
                            if "id" in message and "method" in message:
                                await send_line(encode(error(-32602, f"Invalid params: {exc}".splitlines()[0],
                                                             message["id"])))
                            continue
                        if "method" in message and "id" in message:
                            waiting.add(_key(message["id"]))
                        await read_writer.send(SessionMessage(parsed, metadata=metadata_for(message)))
                except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                    break
                except Exception as exc:  # noqa: BLE001 - one bad line must not stop the server
                    traceback.print_exc(file=sys.stderr)
                    await send_line(encode(error(INTERNAL_ERROR, f"Internal error: {type(exc).__name__}")))

    outbound_done, writer_done = anyio.Event(), anyio.Event()

    async def outbound() -> None:
        try:
            await _outbound()
        finally:
            outbound_done.set()

    async def _outbound() -> None:
        async with write_reader:
            async for session_message in write_reader:
                message = session_message.message
                try:
                    document = message.model_dump(by_alias=True, exclude_unset=True, mode="json")
                    if "id" in document and ("result" in document or "error" in document):
                        settled(document["id"])
                    items = framing.outbound(document)
                    lines = [encode(item) for item in items]
                except Exception as exc:  # noqa: BLE001 - answer the request instead of dying
                    traceback.print_exc(file=sys.stderr)
                    request_id = getattr(message, "id", None)
                    if request_id is None:
                        continue
                    lines = [encode(item) for item in framing.outbound(
                        error(INTERNAL_ERROR, f"Internal error: the answer could not be encoded "
                                              f"({type(exc).__name__})", request_id))]
                for data in lines:
                    await send_line(data)

    async def writer() -> None:
        try:
            async with out_receive:
                async for data in out_receive:
                    await anyio.to_thread.run_sync(_write_all, stdout, data)
        except (BrokenPipeError, OSError):
            # The client closed the server's stdout: no answer can reach it, so serving on
            # (reading requests nobody will see answered) is pointless; stop, saying so once.
            print("carto mcp: the client closed the server's output; stopping", file=sys.stderr)
            if gone is not None:
                gone.append(True)
            if serving:
                serving[0].cancel()
        finally:
            writer_done.set()

    serving: list = []
    try:
        async with anyio.create_task_group() as tg:
            serving.append(tg.cancel_scope)
            tg.start_soon(reader)
            tg.start_soon(outbound)
            tg.start_soon(writer)
            try:
                yield read_stream, write_stream
            finally:
                # The server is done (stdin ended): write what is queued, then stop the reader.
                await write_stream.aclose()
                with anyio.move_on_after(5, shield=True):
                    await outbound_done.wait()
                    out_send.close()
                    await writer_done.wait()
                tg.cancel_scope.cancel()
    finally:
        for fd, saved in reversed(restore):
            _restore(fd, saved)


def _write_all(handle, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = handle.write(view)
        view = view[written:]
    handle.flush()
