"""The explorer's desk with its tag facets: `GET /api/desk` on a warm app (in process, the
corpus and the search engine loaded by a first call), without and with the topic facets
(`topics=true`: a related-terms lookup for each of the first 30 sessions), alternated round by
round; the median wall time of each.

    .venv/bin/python benchmarks/serve/bench_desk_tags.py --home H [--rounds 5]

H: a copy of an indexed home (`carto index`); the app writes its serve token there.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--home", required=True)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from starlette.testclient import TestClient

    from carto_core.logio.home import Home
    from carto_core.serve.app import create_app

    app = create_app(Home(args.home))
    headers = {"authorization": f"Bearer {app.state.carto.token}"}
    timings: dict[str, list[float]] = {"tags": [], "tags+topics": []}
    with TestClient(app, base_url="http://127.0.0.1:8000", headers=headers) as client:
        first = client.get("/api/desk", params={"days": 3650, "topics": "true"}).json()
        print(f"sessions {first['total']}, topics over {first['tag_facets']['topics_over']}, "
              f"load {os.getloadavg()[0]:.1f}")
        for n in range(args.rounds):
            order = ["tags", "tags+topics"] if n % 2 == 0 else ["tags+topics", "tags"]
            for label in order:
                params = {"days": 3650, **({"topics": "true"} if label == "tags+topics" else {})}
                start = time.perf_counter()
                assert client.get("/api/desk", params=params).status_code == 200
                timings[label].append((time.perf_counter() - start) * 1000)
    for label, values in timings.items():
        print(f"{label:12} median {statistics.median(values):8.1f} ms")
    print(f"load after {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
