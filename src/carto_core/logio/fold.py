"""The fold rule: many rows with one event_id make one event. Stdlib only.

Rows repeat an event_id for three reasons: the changelog holds a copy of most domain rows; a
rewrite may leave a row twice (at-least-once appends); and a turn of a live transcript is
written while it is still open and written again as it grows (`"open": true` on every row but
the last one). One rule decides which row is the event, for every reader (the corpus, the
keyword index and its tail, the facts columns, the live corpus of `carto serve`, the semantic
indexer, delta pages):

- within one log, the **newest** row wins (the one appended last: a turn shows its latest
  text);
- across logs, the log earlier in `LOAD_ORDER` wins, whichever was read first: the domain
  log's row over the changelog's copy (upstream: the domain log wins `_source`), and between
  two domain logs (an id that should not repeat there) the one `SEARCHED_LOGS` names first;
- the event sits where its winning row was read (so every reader that orders by read position
  agrees: a rewritten turn moves to where its newest row is).

Writers of revisable rows keep appends ordered by taking the transcript's lock
(`carto_core.capture.live`), so "appended last" is "read from the newest transcript state".
"""

from __future__ import annotations

from carto_core.logio.logs import FOLD_ORDER

#: Which log's row wins across logs: domain logs in `SEARCHED_LOGS` order, the changelog last
#: (also the order bulk readers read them in, so a winning row is mostly read first).
LOAD_ORDER: tuple[str, ...] = FOLD_ORDER
_RANK = {label: rank for rank, label in enumerate(LOAD_ORDER)}

#: Row key that marks a revision that will be written again (an open turn).
OPEN_KEY = "open"


def takes_over(held: str, incoming: str) -> bool:
    """True when a row of log `incoming`, read after the row of log `held` that currently is
    the event, becomes the event instead."""
    if incoming == held:
        return True
    return _RANK.get(incoming, len(_RANK)) < _RANK.get(held, len(_RANK))


class NumberedLogs:
    """The rule for `carto_core.model.logstream.Fold(takes_over=...)`, which numbers events as they
    first appear: remembers which log each number's row came from (`record` after each chunk,
    for its new rows in order) and answers `takes_over(number, label, line)` by the rule (a
    number not recorded yet is a row of the chunk being numbered: the same log)."""

    __slots__ = ("codes", "names", "_code")

    def __init__(self):
        # One byte an event (a list of labels cost 8), the label's code.
        self.codes = bytearray()
        self.names: list[str] = []
        self._code: dict[str, int] = {}

    def record(self, label: str, count: int) -> None:
        code = self._code.get(label)
        if code is None:
            if len(self.names) > 255:
                raise ValueError("more than 256 logs in one fold")
            code = self._code[label] = len(self.names)
            self.names.append(label)
        self.codes.extend(bytes((code,)) * count)

    def takes_over(self, held: int, label: str, line=None) -> bool:
        held_label = self.names[self.codes[held]] if 0 <= held < len(self.codes) else label
        return takes_over(held_label, label)
