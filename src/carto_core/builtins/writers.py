"""The `jsonl` writer: the home's logs, the source of truth."""

from __future__ import annotations

from carto_core import hookimpl
from carto_core.logio.appendlog import append_rows
from carto_core.model.sources import Writer


class JsonlWriter(Writer):
    name = "jsonl"
    description = "appends rows to the home's JSONL logs (one os.write per row, O_APPEND)"
    primary = True

    def write(self, home, log: str, rows: list[dict]) -> int:
        return append_rows(home.log(log), rows)


@hookimpl
def carto_register_writers(register):
    register(JsonlWriter)
