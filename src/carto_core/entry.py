"""The `carto` console script.

`carto hook ...` runs on every tool call of an agent, so it never touches click, pluggy or the
entry-point scan: it goes straight to the lean dispatcher in `carto_core.capture.hookpath`. Everything
else goes through the click CLI.
"""

from __future__ import annotations

import os
import sys


#: The variables OpenBLAS reads for its thread count, in its order of precedence.
BLAS_THREAD_VARIABLES = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")


def one_blas_thread() -> None:
    """Load numpy with OpenBLAS on one thread, for a one-shot `carto search` or `carto facts`.

    Their BLAS calls are small (the vector scan multiplies 1,024 rows at a time, which OpenBLAS
    runs on the calling thread anyway), but OpenBLAS starts a pool of threads when numpy loads,
    and they spin on the other cores for a while: on a 2-core machine that is a core the
    search's own scan threads want, and on a busy one a core taken from the search itself
    (docs/performance.md, "The scan on two threads, one BLAS thread"). A thread count the user set
    is kept; the variable is removed again once numpy is loaded, so a process the search
    starts gets the environment it was given."""
    if "numpy" in sys.modules or any(name in os.environ for name in BLAS_THREAD_VARIABLES):
        return
    os.environ["OPENBLAS_NUM_THREADS"] = "1"
    try:
        import numpy  # noqa: F401  (OpenBLAS reads the variable once, as it loads)
    finally:
        del os.environ["OPENBLAS_NUM_THREADS"]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    if args and args[0] == "hook":
        from carto_core.capture.hookpath import main as hook_main

        return hook_main(args[1:])
    # The console script's own `search`/`facts` (argv None): one command, then the process ends.
    one_shot = args[0] if argv is None and args and args[0] in ("search", "facts") else None
    if one_shot == "search":
        # A one-shot search runs without the cyclic garbage collector: in a cold process it
        # walks every object the imports create, again and again, and finds little garbage
        # (the peak RSS does not move; docs/performance.md). The process ends with the search (os._exit below).
        import gc

        gc.disable()
        # ... and without importing what pathlib imports for `Path.as_uri`.
        from carto_core.util.deferred import defer

        defer()
    if one_shot:
        # A running `carto serve` of this home answers warm (carto_core.serve.warm_client), else cold.
        from carto_core.serve.warm_client import try_warm

        code = try_warm(args)
        if code is not None:
            return code
        one_blas_thread()
    from carto_core.cli import cli

    if one_shot != "search":
        return cli.main(args=args, prog_name="carto")
    # A one-shot `carto search` (the agents' hot path) skips the interpreter's teardown of
    # numpy, the mapped index and every module (docs/performance.md): output is
    # flushed and atexit handlers run, then the process ends.
    try:
        cli.main(args=args, prog_name="carto")
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        if not isinstance(exc.code, (int, type(None))):
            print(exc.code, file=sys.stderr)
    import atexit

    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except (BrokenPipeError, ValueError):
        code = code or 1
    atexit._run_exitfuncs()
    os._exit(code)


if __name__ == "__main__":
    sys.exit(main())
