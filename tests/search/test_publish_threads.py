"""Threads of one process publishing index generations side by side (a server refreshing on
several requests at once) each swap CURRENT whole: the pointer's temporary file is theirs."""

from __future__ import annotations

import threading

from carto_core.search.index_write import new_generation, publish


def test_threads_of_one_process_publish_without_losing_the_pointer(tmp_path):
    base = tmp_path / "search"
    errors: list[BaseException] = []
    names: list[str] = []
    start = threading.Barrier(4)

    def writer():
        try:
            start.wait()
            for _ in range(60):
                name, folder = new_generation(base)
                publish(base, name, folder, {"generation": name})
                names.append(name)
        except BaseException as exc:  # reported by the test
            errors.append(exc)

    threads = [threading.Thread(target=writer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert errors == []
    assert (base / "CURRENT").read_text("utf-8") in names
    assert not list(base.glob("CURRENT.*.tmp"))
