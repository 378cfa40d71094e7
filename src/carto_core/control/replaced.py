"""The homes `carto restore --force` keeps beside the live home (`<home>.replaced-<time>`): how
one is named, found and told apart. A leaf: forget asks whether it runs in such a home, and the
modules that forget calls (copies, backup) name and list them, so none of this may import them."""

from __future__ import annotations

from pathlib import Path

from carto_core.logio.home import Home

#: Between the live home's name and the time a restore kept it.
MARK = ".replaced-"


def kept_name(home: Home) -> Path:
    """Where a restore keeps `home` when it replaces it now, stamped with the UTC time."""
    import time

    return home.root.with_name(f"{home.root.name}{MARK}{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")


def replaced_homes(home: Home) -> list[Path]:
    """The homes a restore kept beside `home`, oldest first."""
    parent = home.root.parent
    prefix = f"{home.root.name}{MARK}"
    try:
        found = [p for p in parent.iterdir() if p.name.startswith(prefix) and p.is_dir()]
    except OSError:
        return []
    return sorted(found)


def kept_by_restore(home: Home) -> bool:
    """Whether `home` is one a restore kept beside the live home (`<home>.replaced-<time>`)."""
    name, sep, stamp = home.root.name.rpartition(MARK)
    return bool(name and sep) and stamp_seconds(stamp) is not None


def kept_at(copy: Path) -> float | None:
    """When a restore kept `copy`, from its name."""
    return stamp_seconds(copy.name.rpartition(MARK)[2])


def stamp_seconds(text: str) -> float | None:
    """Seconds since the epoch of a `YYYYMMDDTHHMMSSZ` stamp (a replaced home's, a backup's)."""
    import calendar
    import time

    try:
        return float(calendar.timegm(time.strptime(text, "%Y%m%dT%H%M%SZ")))
    except ValueError:
        return None
