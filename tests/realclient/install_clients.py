#!/usr/bin/env python3
"""Install the pinned real clients (pins.json) from npm into the cache folder (clients.py).

    python3 tests/realclient/install_clients.py            # both pinned clients
    python3 tests/realclient/install_clients.py codex      # one of them
    python3 tests/realclient/install_clients.py --version claude=2.1.400   # another version
                                                           # beside the pinned one (bump.py)

Idempotent: a client whose binary already answers `--version` with the pinned version is left
alone. Prints one line per client (`claude 2.1.328 /path/to/claude`). Needs npm (and node for
Codex's launcher). `.ci/run` calls it before the README's commands; the realclient tests then find
the binaries and run (elsewhere they skip, naming this script). Exit 1 if an install failed.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import clients  # noqa: E402


def installed_version(binary: Path) -> str | None:
    if not binary.exists():
        return None
    try:
        out = subprocess.run([str(binary), "--version"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def install(client: str, version: str) -> Path:
    pin = clients.pins()[client]
    binary = clients.binary(client, version)
    found = installed_version(binary)
    if found and version in found:
        return binary
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("install_clients: npm not found; install Node.js and npm (apt-get install npm)")
    prefix = clients.prefix(client, version)
    if prefix.exists():
        shutil.rmtree(prefix)
    prefix.mkdir(parents=True)
    command = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--loglevel=error",
               "--no-save", f"{pin['package']}@{version}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=900)
    found = installed_version(binary)
    if done.returncode != 0 or not found or version not in found:
        sys.stderr.write(done.stdout[-2000:] + done.stderr[-2000:])
        raise SystemExit(f"install_clients: {pin['package']}@{version} did not install "
                         f"(npm exit {done.returncode}, {binary} answers {found!r})")
    return binary


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("only", nargs="*", metavar="CLIENT", help=f"clients to install (default: {' '.join(clients.CLIENTS)})")
    parser.add_argument("--version", action="append", default=[], metavar="CLIENT=VERSION",
                        help="install VERSION instead of the pin (repeatable)")
    args = parser.parse_args(argv)
    versions = {name: pin["version"] for name, pin in clients.pins().items()}
    for item in args.version:
        name, _, version = item.partition("=")
        if name not in versions or not version:
            parser.error(f"--version {item!r}: expected CLIENT=VERSION with CLIENT in {', '.join(versions)}")
        versions[name] = version
    unknown = sorted(set(args.only) - set(clients.CLIENTS))
    if unknown:
        parser.error(f"unknown client(s) {', '.join(unknown)}; expected {', '.join(clients.CLIENTS)}")
    for name in args.only or clients.CLIENTS:
        binary = install(name, versions[name])
        print(f"{name} {versions[name]} {binary}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
