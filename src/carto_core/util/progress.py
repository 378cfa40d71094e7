"""A one-line progress note on stderr for work a person waits on: a first keyword index, the
facts columns of a first standup, a first session list, doctor's scans of large logs.

The work says what it is doing (`working("building the keyword index")`) and, as it goes, how
far it got (`step(done, total)`); the line is redrawn in place (at most a few times a second)
and wiped when the work ends, so what the command prints afterwards is unchanged. A stderr that
is no terminal (`carto doctor 2>&1 | less`, a log file, an agent's captured output) gets a plain
line every `PLAIN_EVERY` seconds instead, never redrawn, and nothing from work shorter than that:
a person reading a pipe otherwise waits on silence. `CARTO_PROGRESS=0` turns it off, `=1` on
as on a terminal (whatever stderr is). Stdlib only: the cold path imports this.

Nested work (the facts columns a session list needs first) replaces the line while it runs,
then the outer line comes back. The line is redrawn every second even when the work reports no
step, so its seconds show it is alive.
"""

from __future__ import annotations

import os
import sys
import time
from contextlib import contextmanager

#: Redraws at most this often (seconds).
REDRAW = 0.2
#: Seconds between two plain lines on a stderr that is no terminal (none before the first).
PLAIN_EVERY = 10.0
_stack: list["_Line"] = []


def enabled(stream=None) -> bool:
    """Whether the line is redrawn in place (a terminal, or `CARTO_PROGRESS=1`)."""
    return mode(stream) == "terminal"


def mode(stream=None) -> str:
    """"terminal" (redrawn in place), "plain" (a line now and then) or "off" (`CARTO_PROGRESS`
    first, then whether `stream`, stderr by default, is a terminal)."""
    switch = os.environ.get("CARTO_PROGRESS", "").strip().lower()
    if switch in ("0", "off", "no", "false"):
        return "off"
    if switch in ("1", "on", "yes", "true"):
        return "terminal"
    stream = sys.stderr if stream is None else stream
    try:
        return "terminal" if stream.isatty() else "plain"
    except (AttributeError, ValueError):
        return "off"


def _count(n: int) -> str:
    return f"{n:,}"


class _Line:
    def __init__(self, what: str, unit: str, stream):
        self.what, self.unit, self.stream = what, unit, stream
        self.started = time.monotonic()
        self.drawn = 0.0
        self.done: int | None = None
        self.total: int | None = None

    def text(self) -> str:
        out = f"carto: {self.what}"
        if self.done is not None:
            if self.unit == "bytes":
                amount = f"{self.done / 1e6:,.0f} MB" + (f" of {self.total / 1e6:,.0f} MB" if self.total else "")
            else:
                amount = _count(self.done) + (f" of {_count(self.total)}" if self.total else "") + \
                    (f" {self.unit}" if self.unit else "")
            out += f" · {amount}"
        elapsed = time.monotonic() - self.started
        if elapsed >= 1:
            out += f" · {elapsed:.0f}s"
        return out

    def draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if not force and now - self.drawn < REDRAW:
            return
        self.drawn = now
        try:
            import shutil

            room = max(20, shutil.get_terminal_size((100, 24)).columns - 1)
            self.stream.write("\r\x1b[K" + self.text()[:room])
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def step(self, done: int, total: int | None = None) -> None:
        self.done, self.total = done, total
        self.draw()

    def say(self, what: str) -> None:
        """The work moved on to its next part (doctor's next log): one line, and one wait
        for a pipe, for all of them."""
        self.what, self.done, self.total = what, None, None
        self.draw(force=True)

    def tick(self) -> None:
        """Redraw every second while this line is the one shown, so its seconds keep
        counting through a phase that reports no step (a sort, a write)."""
        import threading

        def run() -> None:
            while not self.closed.wait(1.0):
                if _stack and _stack[-1] is self:
                    self.draw(force=True)

        self.closed = threading.Event()
        threading.Thread(target=run, name="carto-progress", daemon=True).start()

    def close(self) -> None:
        if self not in _stack:
            return
        _stack.remove(self)
        self.closed.set()
        try:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
        except (OSError, ValueError):
            pass
        if _stack:
            _stack[-1].draw(force=True)


class _PlainLine(_Line):
    """The line for a stderr that is no terminal: written whole (no carriage return, no escape
    codes) once `PLAIN_EVERY` seconds have gone by since the work started or since the last
    line; nothing is wiped at the end."""

    def __init__(self, what: str, unit: str, stream):
        super().__init__(what, unit, stream)
        self.said = self.started

    def draw(self, force: bool = False) -> None:
        now = time.monotonic()
        if now - self.said < PLAIN_EVERY:
            return
        self.said = now
        try:
            self.stream.write(self.text() + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass

    def close(self) -> None:
        if self not in _stack:
            return
        _stack.remove(self)
        self.closed.set()


class _Quiet:
    def step(self, done: int, total: int | None = None) -> None:
        return None

    def say(self, what: str) -> None:
        return None

    def close(self) -> None:
        return None


def start(what: str, unit: str = ""):
    """`working` for code that cannot wrap its loop in a `with`: an object with `step(done,
    total=None)`, `say(what)` (the next part of the work) and `close()` (close it in a
    `finally`)."""
    how = mode()
    if how == "off":
        return _Quiet()
    line = (_Line if how == "terminal" else _PlainLine)(what, unit, sys.stderr)
    _stack.append(line)
    line.draw(force=True)
    line.tick()
    return line


@contextmanager
def working(what: str, unit: str = ""):
    """Say `what` on stderr while the block runs (a plain line now and then when stderr is no
    terminal); yields `step(done, total=None)` to say how far it got (`unit`: what is
    counted; "bytes" shows megabytes)."""
    line = start(what, unit)
    try:
        yield line.step
    finally:
        line.close()
