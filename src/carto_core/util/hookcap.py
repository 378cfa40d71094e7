"""The hook's hard wall-clock cap. Stdlib only.

A hook must never hold up the agent, whatever it meets: a FIFO missed by `safeio`, a hung
`git`, a stalled network filesystem. `arm(seconds, on_fire)` sets a real-time timer for the
whole process; when it fires, `on_fire()` runs (the dispatcher logs one hook.log line) and the
process ends at once with status 0 (`os._exit`: no cleanup can block either). Children are
bounded by `remaining()`: a subprocess gets at most the time left before the cap, so none
outlives it.

`CARTO_HOOK_TIMEOUT` (seconds, default 10; 0 turns the cap off) sets it.
"""

from __future__ import annotations

import os
import time

DEFAULT_SECONDS = 10.0
_deadline: float | None = None
_previous = None


def cap_seconds(env: dict | None = None) -> float:
    env = os.environ if env is None else env
    try:
        value = float(env.get("CARTO_HOOK_TIMEOUT") or DEFAULT_SECONDS)
    except ValueError:
        return DEFAULT_SECONDS
    return value if value > 0 else 0.0


def _signals():
    """The C module under `signal`: the same functions with plain-int constants. `import
    signal` builds its Signals/Handlers/Sigmasks enums at import, more work than the rest of the
    cap (docs/performance.md), on every hook call that never looks at a signal's name."""
    try:
        import _signal

        return _signal
    except ImportError:  # an interpreter without the C module's private name
        import signal

        return signal


def arm(seconds: float, on_fire) -> bool:
    """Start the cap; False when it cannot be armed (not the main thread, no SIGALRM)."""
    global _deadline, _previous
    if seconds <= 0:
        return False
    signal = _signals()

    if not hasattr(signal, "setitimer"):
        return False

    def fire(signum, frame):
        try:
            on_fire()
        finally:
            os._exit(0)

    try:
        _previous = signal.signal(signal.SIGALRM, fire)
    except ValueError:  # not the main thread
        return False
    _deadline = time.monotonic() + seconds
    signal.setitimer(signal.ITIMER_REAL, seconds)
    return True


def disarm() -> None:
    """Stop the cap and put back the previous SIGALRM handler (an in-process caller, a test,
    goes on living after the hook returns)."""
    global _deadline, _previous
    if _deadline is None:
        return
    signal = _signals()

    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, _previous if _previous is not None else signal.SIG_DFL)
    _deadline = _previous = None


def remaining(default: float) -> float:
    """Seconds a child process may take: `default`, or less when the cap comes sooner."""
    if _deadline is None:
        return default
    return max(0.1, min(default, _deadline - time.monotonic() - 0.5))
