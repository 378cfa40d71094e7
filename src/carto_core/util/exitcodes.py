"""Exit codes of every `carto` command: a stable, documented contract for agents.

See docs/cli.md. Codes are never reused for another meaning.
"""

from enum import IntEnum


class ExitCode(IntEnum):
    #: The command did what was asked.
    OK = 0
    #: Something went wrong that the caller could not have prevented (I/O, a broken plugin).
    ERROR = 1
    #: The caller asked wrongly: bad flag, bad value, unknown name (HTTP 400 style).
    USAGE = 2
    #: The command ran fine but found nothing (no results, no events for that session).
    NOT_FOUND = 3
    #: The request contradicts the state it names: a cursor or contract version from another
    #: corpus or generation (HTTP 409 style).
    CONFLICT = 4
    #: A service the command needs is unavailable right now; retrying later may work (EX_TEMPFAIL).
    UNAVAILABLE = 75
