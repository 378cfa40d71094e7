"""Peak RSS and CPU of one minilm semantic run on a large home, embedding at most N documents
(`run_index(limit=N)`): the plan's read of every log, the encoder's session and one or more
commits of the store, without the hours a whole first build takes (docs/performance.md,
"The minilm encoder": peak RSS at 1M events).

    CARTO_EMBEDDER=minilm nice -n 10 .venv/bin/python benchmarks/semantic/minilm_run_rss.py COPY 70000

Run it on a copy: the run writes the model's vectors and state into the home.
"""

from __future__ import annotations

import argparse
import resource
import time


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("home")
    parser.add_argument("limit", type=int, help="documents to embed at most")
    args = parser.parse_args()

    from carto_core.logio.home import Home
    from carto_core.semantic.indexer import run_index

    start = time.process_time()
    report = run_index(Home(args.home), limit=args.limit)
    print(f"model {report.model}: embedded {report.embedded}, failed {report.failed}, "
          f"gated {report.gated}, {report.seconds:.1f} s wall")
    print(f"CPU {time.process_time() - start:.1f} s (every thread), peak RSS "
          f"{resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MB")


if __name__ == "__main__":
    main()
