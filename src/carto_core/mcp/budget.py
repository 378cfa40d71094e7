"""Output budgets: every MCP answer fits in `max_chars` characters and says what it cut.

An answer is a JSON document (the same document the CLI prints with `--json`). One list in it
is *paged*: the tool names it (search `results`, get `records`, ...); the page holds as many of
its items as fit, and `page.next_cursor` continues from the first item left out. Everything else
(the envelope: facets, counts, windows) is kept whole when it fits; when it does not, its
longest lists are halved and its longest strings shortened until it does, and `page.trimmed`
says which paths lost how many items. Nothing is cut silently: `page.cut` is true whenever the
text is not the whole answer.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from dataclasses import dataclass

from carto_core.privacy.envelope import OVERHEAD, escape_json
from carto_core.util.output import dumps as _dumps

#: Sized for an agent's context: about 3k tokens, a fraction of what Claude Code accepts from a
#: tool (it warns past 10k tokens) so several calls fit in one turn.
DEFAULT_MAX_CHARS = 12_000
MIN_MAX_CHARS = 2_000
MAX_MAX_CHARS = 200_000
_MIN_STRING = 40
_CUT_MARK = "…"


def dumps(document: object) -> str:
    """The document as a tool result carries it: compact JSON whose strings hold no literal `<`
    (`\\u003c`, the same string once parsed), so stored text can never close the record
    envelope the result travels in (`carto_core.privacy.envelope`)."""
    return escape_json(_dumps(document, pretty=False).decode("utf-8"))


@dataclass
class Page:
    document: dict
    text: str
    next_offset: int | None
    cut: bool


def get_path(doc: dict, path: str):
    """The value at a dotted path of nested objects, or None."""
    node = doc
    for part in path.split("."):
        if not isinstance(node, dict) or part not in node:
            return None
        node = node[part]
    return node


def _with(doc: dict, path: str | None, value) -> dict:
    """A shallow copy of `doc` with `path` set to `value`; the dicts along the path are copied."""
    out = dict(doc)
    if not path:
        return out
    parts = path.split(".")
    node = out
    for part in parts[:-1]:
        node[part] = dict(node[part])
        node = node[part]
    node[parts[-1]] = value
    return out


def _scalars_along(doc: dict, path: str) -> dict:
    """The scalar members of `doc` and of each object on the way to `path`, and the path."""
    head, _, rest = path.partition(".")
    out = {k: v for k, v in doc.items() if not isinstance(v, (dict, list))}
    out[head] = _scalars_along(doc[head], rest) if rest else doc[head]
    return out


def _is_count_map(value) -> bool:
    # A mapping of numbers only (facets' counts by day, project, type; timings by stage):
    # entries that can go without changing what the others mean, unlike a record's fields
    # (the floor's, the semantic state's: their text and flags say why).
    return isinstance(value, dict) and all(
        isinstance(v, (int, float)) and not isinstance(v, bool) for v in value.values())


def _lists(node, path: str = "", least: int = 2, maps: bool = False):
    """(path, parent, key, list) for every list of at least `least` items under node (and,
    with `maps`, every mapping of numbers of at least `least` entries)."""
    if isinstance(node, dict):
        for key, value in node.items():
            sub = f"{path}.{key}" if path else str(key)
            if isinstance(value, list) and len(value) >= least:
                yield sub, node, key, value
            elif maps and _is_count_map(value) and len(value) >= least:
                yield sub, node, key, value
            yield from _lists(value, sub, least, maps)
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from _lists(value, f"{path}[{index}]", least, maps)


def _shorten_strings(node, limit: int) -> int:
    """Shorten every string longer than `limit` in place; return how many were shortened."""
    count = 0
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return 0
    for key, value in list(items):
        if isinstance(value, str) and len(value) > limit:
            node[key] = value[:limit] + _CUT_MARK
            count += 1
        else:
            count += _shorten_strings(value, limit)
    return count


def _longest_string(node) -> int:
    if isinstance(node, str):
        return len(node)
    values = node.values() if isinstance(node, dict) else node if isinstance(node, list) else ()
    return max((_longest_string(v) for v in values), default=0)


def _halve_lists(node, fits, trimmed: dict, prefix: str, least: int, maps: bool = False) -> None:
    while not fits(node):
        candidates = sorted(_lists(node, least=least, maps=maps), key=lambda c: len(dumps(c[3])),
                            reverse=True)
        if not candidates:
            return
        path, parent, key, value = candidates[0]
        keep = len(value) // 2
        path = f"{prefix}{path}"
        trimmed[path] = trimmed.get(path, 0) + len(value) - keep
        parent[key] = dict(list(value.items())[:keep]) if isinstance(value, dict) else value[:keep]


def shrink(node, fits: Callable[[object], bool], trimmed: dict, prefix: str = "",
           maps: bool = False) -> object:
    """Make `node` fit by halving its biggest lists (with `maps`, and mappings of numbers), then
    shortening strings; record the cuts.

    `trimmed` is updated as cuts happen (and before a fit is checked), because `fits` may render
    it: the record of what was cut is part of the answer and takes room too.
    """
    node = copy.deepcopy(node)
    # Lists and mappings together, the biggest first: a two-item list (a span's first and last
    # day) goes only after the facets it is smaller than.
    _halve_lists(node, fits, trimmed, prefix, least=2, maps=maps)
    if not fits(node):
        # Shorten strings to the longest common limit that fits (binary search), so an answer
        # loses as little text as it must.
        longest = _longest_string(node)
        before = trimmed.get("strings_shortened", 0)
        # Reserve the digits of the count while searching; the real count is set after.
        trimmed["strings_shortened"] = before + 99999
        low, high, best = _MIN_STRING, longest, None
        while low <= high:
            mid = (low + high) // 2
            trial = copy.deepcopy(node)
            shortened = _shorten_strings(trial, mid)
            if fits(trial):
                best, low = (trial, shortened), mid + 1
            else:
                high = mid - 1
        if best is None:
            best = (node, _shorten_strings(node, _MIN_STRING))
        node = best[0]
        if before + best[1]:
            trimmed["strings_shortened"] = before + best[1]
        else:
            del trimmed["strings_shortened"]
    # Last: empty the lists that still hold one item, biggest first.
    _halve_lists(node, fits, trimmed, prefix, least=1)
    return node


def paginate(document: dict, list_path: str | None, offset: int, max_chars: int,
             cursor_for: Callable[[int], str], notes: dict | None = None,
             budget: int | None = None) -> Page:
    """The page of `document` starting at item `offset` of `list_path`, within `max_chars`.

    `cursor_for(next_offset)` mints the cursor for the next page. At least one item is returned
    whenever one remains, shortened if it alone is too big, so paging always makes progress.
    """
    max_chars = max(MIN_MAX_CHARS - OVERHEAD, int(max_chars))
    # What page.max_chars says: the caller's budget (`max_chars` may be what is left of it
    # once the record envelope is counted).
    budget = int(budget) if budget is not None else max_chars
    items = get_path(document, list_path) if list_path else None
    # A mapping (get's `found`: id -> record) pages by its entries, in order.
    as_dict = isinstance(items, dict)
    if as_dict:
        items = list(items.items())
    elif not isinstance(items, list):
        items, list_path = None, None

    def container(page_items: list):
        return dict(page_items) if as_dict else page_items

    def item_size(item) -> int:
        return len(dumps(dict([item]) if as_dict else item)) + 1
    total = len(items) if items is not None else 0
    offset = max(0, min(offset, total))
    remaining = items[offset:] if items is not None else []

    whole = _with(document, list_path, container([]))
    envelope = whole
    if offset > 0 and list_path:
        # A continuation page carries the list and the envelope's scalars (query, totals...);
        # the envelope's own lists and objects (facets, ladders) were on the first page.
        envelope = _scalars_along(envelope, list_path)
    # A cursor is about this long whatever the offset; reserve room for it up front.
    sample_cursor = cursor_for(total) if remaining else None
    trimmed: dict[str, int] = {}
    left_out: list[str] = []

    def meta(returned: int, next_cursor: str | None) -> dict:
        cut = bool(next_cursor) or bool(trimmed) or offset > 0
        info = {"offset": offset, "returned": returned, "total": total, "cut": cut,
                "next_cursor": next_cursor, "max_chars": budget}
        if offset > 0 and list_path:
            info["continued"] = "objects and lists outside the paged list are on the first page"
        if trimmed:
            info["trimmed"] = dict(trimmed)
        if left_out:
            info["left_out"] = list(left_out)
            info["left_out_note"] = ("objects and lists outside the paged list did not fit beside "
                                     "one item: raise max_chars to see them")
        if notes:
            info.update(notes)
        if next_cursor:
            info["note"] = (f"{total - offset - returned} more item(s) of {list_path!r}: call again "
                            "with this next_cursor to continue")
        return info

    def build(env: dict, page_items: list, next_cursor: str | None) -> dict:
        doc = _with(env, list_path, container(page_items))
        doc["page"] = meta(len(page_items), next_cursor)
        return doc

    def render(env: dict, page_items: list, next_cursor: str | None) -> str:
        return dumps(build(env, page_items, next_cursor))

    envelope, page_items, cursor, next_offset, text = _fill(
        envelope, remaining, offset, total, max_chars, trimmed, sample_cursor, cursor_for, render,
        item_size, as_dict, list_path)
    if len(text) > max_chars and remaining and offset == 0 and list_path:
        # The envelope's records (a search's floor, semantic state, ladders) cannot be halved:
        # rather than no item at all, the page is what a continuation page is, the envelope's
        # scalars and the list, and names what it left out.
        slim = _scalars_along(whole, list_path)
        left_out.extend(k for k in whole if k not in slim)
        trimmed.clear()
        envelope, page_items, cursor, next_offset, text = _fill(
            slim, remaining, offset, total, max_chars, trimmed, sample_cursor, cursor_for, render,
            item_size, as_dict, list_path)

    # 4. Last resort: the answer cannot be made to fit; say so in a document that does.
    if len(text) > max_chars:
        fallback = {"page": {"offset": offset, "returned": 0, "total": total, "cut": True,
                             "next_cursor": None, "max_chars": budget,
                             "note": "the answer does not fit in max_chars even after trimming; "
                                     "raise max_chars or narrow the request"}}
        text = dumps(fallback)
        return Page(fallback, text, None, True)

    doc = build(envelope, page_items, cursor)
    return Page(doc, text, next_offset, doc["page"]["cut"])


def _fill(envelope, remaining, offset, total, max_chars, trimmed, sample_cursor, cursor_for,
          render, item_size, as_dict, list_path):
    """Steps 1-3 of `paginate` for one envelope: (the envelope as shrunk, page items, cursor,
    next offset, text)."""
    # 1. The envelope must leave room for at least the first item (or fit alone if none).
    first = remaining[:1]
    reserve_cursor = sample_cursor if len(remaining) > 1 else None
    # The envelope's count maps (facets) may lose entries too; an item's fields never do.
    envelope = shrink(envelope, lambda env: len(render(env, [], reserve_cursor)) + (
        item_size(first[0]) if first and item_size(first[0]) < max_chars // 2 else 0
    ) <= max_chars, trimmed, maps=True)

    # 2. Greedy fill with the items' own sizes, then correct against the real rendering.
    base = len(render(envelope, [], sample_cursor))
    used, count = base, 0
    for item in remaining:
        size = item_size(item)
        if used + size > max_chars:
            break
        used += size
        count += 1
    count = max(count, 1 if remaining else 0)
    while True:
        page_items = remaining[:count]
        next_offset = offset + count if offset + count < total else None
        cursor = cursor_for(next_offset) if next_offset is not None else None
        text = render(envelope, page_items, cursor)
        if len(text) <= max_chars or count <= 1:
            break
        count -= 1

    # 3. One item that alone is too big is shortened rather than skipped.
    if len(text) > max_chars and remaining:
        if as_dict:
            key, value = remaining[0]
            value = shrink(value, lambda v: len(render(envelope, [(key, v)], cursor)) <= max_chars,
                           trimmed, prefix=f"{list_path}.{key}.")
            page_items = [(key, value)]
        else:
            item = shrink(remaining[0], lambda it: len(render(envelope, [it], cursor)) <= max_chars,
                          trimmed, prefix=f"{list_path}[{offset}].")
            page_items = [item]
        text = render(envelope, page_items, cursor)
    return envelope, page_items, cursor, next_offset, text
