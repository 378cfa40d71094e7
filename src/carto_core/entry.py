"""The `carto` console script.

`carto hook ...` runs on every tool call of an agent, so it never touches click, pluggy or the
entry-point scan: it goes straight to the lean dispatcher in `carto_core.hookpath`. Everything
else goes through the click CLI.
"""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "hook":
        from carto_core.hookpath import main as hook_main

        return hook_main(args[1:])
    from carto_core.cli import cli

    return cli.main(args=args, prog_name="carto")


if __name__ == "__main__":
    sys.exit(main())
