"""The lean live-hook dispatcher: `carto hook <provider> <EventName>` with the payload on stdin.

Always exits 0 and never writes to stdout except a note meant for the agent; every problem goes
to `<home>/.carto/hook.log` (one line each). Stdlib only on this path: no click, no pluggy, no
attrs, and no scan of every installed distribution on a normal call.

How a provider is found without importing any plugin by name: a provider ships an entry point
in the group ``carto.capture`` whose name is the provider and whose value is
``module:function``::

    [project.entry-points."carto.capture"]
    claude = "carto_claude.capture:handle"

``handle(event_name, payload, home)`` returns a :class:`carto_core.capture.context.Outcome`
(rows to append, optional text for the agent, problems for hook.log) or None; docs/capture.md
is the contract, ``carto_core.testing.CaptureContract`` its test. The dispatcher redacts and
appends the rows itself.

The handler is found through ``carto_core.plugin.table.capture_target``: the plugin table every
path shares, cached per environment and rebuilt (without pluggy) on the first call after a
distribution was installed, upgraded or removed, with the same block list as the CLI.
"""

from __future__ import annotations

import json
import os
import sys


def log_problem(message: str, home=None) -> None:
    """Append one line to `<home>/.carto/hook.log`; never raises. When the home refuses it (full,
    read-only), the line goes to a bounded `hook.log` beside the spill file (`carto_core.logio.spill`)."""
    try:
        if home is None:
            from carto_core.logio.home import current_home

            home = current_home()
        import time

        stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())
        try:
            from carto_core.privacy.redact import redact_text

            message = redact_text(message)  # problems quote payloads; before the cut
        except Exception:
            message = "(a problem whose text could not be redacted; not logged)"
        line = f"{stamp} {message}".replace("\r", " ").replace("\n", " ")[:4000] + "\n"
        data = line.encode("utf-8", "replace")
    except Exception:
        return
    try:
        from carto_core.util.privatefiles import make_dirs

        state = home.state
        make_dirs(state)
        _append_line(state / "hook.log", data)
    except Exception:
        try:
            from carto_core.logio.spill import spill_path

            path = spill_path(home.root)
            if path is not None:
                log = path[: -len(".jsonl")] + ".hook.log"
                try:
                    if os.stat(log).st_size > 64 * 1024:
                        return
                except OSError:
                    pass
                _append_line(log, data)
        except Exception:
            pass


def _append_line(path, data: bytes) -> None:
    from carto_core.util.privatefiles import open_fd

    fd = open_fd(path, os.O_WRONLY | os.O_APPEND)
    try:
        os.write(fd, data)
    finally:
        os.close(fd)


def _stdin_is_terminal() -> bool:
    try:
        return sys.stdin.isatty()
    except (OSError, ValueError, AttributeError):
        return False


def _read_stdin() -> bytes:
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError, AttributeError):
        return b""


def load_handler(target: str):
    """The live-capture handler a `carto.capture` target names (`module` alone: its `handle`)."""
    from carto_core.plugin.resolve import resolve

    return resolve(target, "handle")


def run(provider: str, event_name: str, raw: bytes, home) -> str | None:
    """Dispatch one payload; returns text for stdout (or None). Raises only on internal bugs."""
    from carto_core.plugin.table import capture_target

    target, why_not = capture_target(provider)
    if target is None and why_not is None:
        return None  # disabled on purpose (CARTO_DISABLE_PLUGINS): nothing worth a hook.log line
    if not raw.strip():
        log_problem(f"{provider} {event_name}: empty stdin, nothing captured", home)
        return None
    try:
        payload = parse_payload(raw)
    except ValueError as exc:
        log_problem(f"{provider} {event_name}: stdin is not JSON ({exc}), nothing captured", home)
        return None
    if not isinstance(payload, dict):
        log_problem(f"{provider} {event_name}: payload is a JSON {type(payload).__name__}, not an object", home)
        return None
    from carto_core.privacy.exclude import load as exclusion

    if exclusion().folder(payload.get("cwd")):
        return None  # `[capture] exclude`: nothing at all, not even a hook.log line naming it
    if target is None:
        log_problem(f"{why_not} (event {event_name})", home)
        return None
    handler = load_handler(target)
    outcome = handler(event_name, payload, home)
    if outcome is None:
        return None
    from carto_core.capture.context import write_outcome

    try:
        write_outcome(home, outcome)
    finally:
        for problem in outcome.problems:
            log_problem(f"{provider} {event_name}: {problem}", home)
    return outcome.output


def parse_payload(raw: bytes) -> object:
    """The payload, never lost to its encoding: bytes that are not UTF-8 become U+FFFD, and so
    does a lone UTF-16 surrogate (a JavaScript agent's cut emoji, sent as a `\\ud83d` escape)
    in any string, keys included; nor to its depth: a value nested deeper than
    `jsondepth.MAX_DEPTH` becomes a string saying so (the parser and every walk after it
    recurse per level). Raises ValueError for text that is not JSON."""
    from carto_core.util.jsondepth import MAX_DEPTH, cut_deep

    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    payload = json.loads(cut_deep(text, MAX_DEPTH))
    if "\\u" in text:
        from carto_core.logio.jsonl import scrub_surrogates

        payload = scrub_surrogates(payload)
    return payload


def _arm_cap(args: list[str], where: dict) -> None:
    """The whole call (home lookup, stdin, capture, writes) runs under the wall-clock cap."""
    from carto_core.util import hookcap

    seconds = hookcap.cap_seconds()
    names = " ".join(args[:2]) or "(no provider)"

    def fired() -> None:
        log_problem(f"{names}: stopped by the hook's {seconds:g} s wall-clock cap "
                    "(CARTO_HOOK_TIMEOUT); rows not yet written are lost, the agent went on",
                    where.get("home"))

    hookcap.arm(seconds, fired)


HELP = """\
Usage: carto hook PROVIDER EVENT   (the agent's hook payload, a JSON object, on stdin)

  The live-capture entry point agents' hooks call: reads one hook payload on stdin, appends
  rows to the home's logs and always exits 0, so a hook can never break the agent. Problems go
  to <home>/.carto/hook.log (one line each), never to stdout; stdout carries only text meant
  for the agent. `carto install claude` / `carto install codex` wire it up (docs/capture.md).

Examples:
  echo '{"session_id": "s1", "cwd": "/src/app", "tool_name": "Bash",
         "tool_input": {"command": "make test"}}' | carto hook claude PostToolUse
  tail ~/.local/share/carto/.carto/hook.log      what calls could not capture, and why
"""


def main(args: list[str]) -> int:
    # Help and a bare call at a terminal answer a person instead of waiting for a payload on
    # stdin that will never come; agents always pass both names and pipe the payload.
    if any(arg in ("-h", "--help") for arg in args[:2]):
        sys.stdout.write(HELP)
        return 0
    home = None
    where: dict = {}
    try:
        _arm_cap(args, where)
        from carto_core.logio.home import current_home

        home = where["home"] = current_home()
        if len(args) < 2:
            log_problem(f"usage: carto hook <provider> <EventName>; got {args!r}", home)
            if _stdin_is_terminal():
                sys.stderr.write("carto hook: usage: carto hook PROVIDER EVENT < payload.json "
                                 "(see carto hook --help)\n")
            else:
                _read_stdin()
            return 0
        provider, event_name = args[0], args[1]
        output = run(provider, event_name, _read_stdin(), home)
        if output:
            sys.stdout.write(output if output.endswith("\n") else output + "\n")
            sys.stdout.flush()
    except Exception as exc:
        import traceback

        log_problem(f"hook dispatcher failed: {type(exc).__name__}: {exc} | "
                    + " / ".join(traceback.format_exc(limit=4).splitlines()[-6:]), home)
    finally:
        from carto_core.util import hookcap

        hookcap.disarm()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
