"""`carto repair intents`: give the prompts written before carto classified them their
`prompt_intent` (upstream's `backfill-prompt-intents.js`, for the logs instead of Qdrant).

Every prompt-history row and every turn without a valid `prompt_intent` gets the one a writer
would store now (`carto_core.intents.intent_of`: the prompt's text; for a turn, the head of its
body, since the turn row does not keep its prompt apart). A row that has one is left as it is,
byte for byte. Through the rewrite path like every repair; the keyword index sees the rewrite
and patches the changed rows in.
"""

from __future__ import annotations

from carto_core.intents import FIELD, intent_of, stored_intent
from carto_core.logio.jsonl import dumps_row
from carto_core.repair.base import Line, Repair, Tally


class ClassifyIntents(Repair):
    name = "intents"
    found_key = "unclassified"
    count_keys = ("rows",)
    labels = ("prompts", "turns")

    def fix(self, label: str, lines: list[Line], tally: Tally) -> list[bytes]:
        out = []
        for raw, row in lines:
            if row is None or stored_intent(row) is not None:
                out.append(raw)
                continue
            tally.add("rows")
            key = intent_of(label, row)
            tally.add("unclassified")
            tally.add("fixed")
            tally.add(key)
            tally.example(event_id=row.get("event_id"), prompt_intent=key)
            out.append(dumps_row({**row, FIELD: key}))
        return out
