"""The explorer's tag filters and facets: the tags of `carto sessions --tag` (`lenses.tags`),
read from the session summaries kept between runs (`lenses.sessionstore.stored_summaries`, read
once a generation).

- `parse_tags`: a `tag` parameter ("tool:bash,ext:py") or a recall body's `tags` list, each
  checked by `lenses.tags.parse_tag` (a 400 names the bad one);
- `tagged_sessions`: the sessions holding every tag (AND), `topic:` through the warm keyword
  index, as the CLI's filter does;
- `tag_facets`: how many of the given sessions (a desk's, a search page's) hold each tag, best
  first; `topic:` tags only when asked (`topics`), for the first `TOPIC_SESSIONS` of them (each
  session's topics are a related-terms lookup in the keyword index: seconds for a page of them
  on a large home, docs/performance.md), and the answer says over how many (`topics_over`).
"""

from __future__ import annotations

from collections import Counter

from carto_core.serve.spec import ApiError

#: Tags one filter may hold.
MAX_TAGS = 10
#: Sessions whose topics a facet computes (the first ones given: the newest, the best ranked).
TOPIC_SESSIONS = 30
#: Facet values returned per kind.
PER_KIND = 12
KINDS = ("provider", "tool", "ext", "outcome", "topic")


def parse_tags(raw) -> list[str]:
    """The tags of a comma-separated string or a list of strings, their values lowercased
    ("tool:Bash" -> "tool:bash", as `--tag` reads them), in order, once each; an ApiError 400
    TAG_INVALID for a malformed one."""
    from carto_core.lenses.tags import parse_tag

    if raw is None or raw == "":
        return []
    items = raw.split(",") if isinstance(raw, str) else raw
    if not isinstance(items, list) or len(items) > MAX_TAGS or not all(
            isinstance(item, str) and len(item) <= 200 for item in items):
        raise ApiError(400, "TAG_INVALID", f"tags: at most {MAX_TAGS} strings of at most 200 "
                       "characters")
    out = []
    for item in items:
        if not item.strip():
            continue
        try:
            kind, value = parse_tag(item)
        except ValueError as exc:
            raise ApiError(400, "TAG_INVALID", str(exc)) from None
        out.append(f"{kind}:{value}")
    return list(dict.fromkeys(out))


def _needs_index(tags: list[str]) -> bool:
    return any(tag.startswith("topic:") for tag in tags)


def tagged_sessions(live, tags: list[str], engine_of) -> set[str]:
    """Ids of the sessions holding every one of `tags`; `engine_of()` gives the warm search
    engine, asked only for a `topic:` tag."""
    from carto_core.lenses.tags import matching_sessions
    from carto_core.lenses.sessionstore import stored_summaries

    return matching_sessions(list(stored_summaries(live).values()), tags,
                             engine_of() if _needs_index(tags) else None)


def tag_facets(summaries: list[dict], engine_of, chosen: list[str] = (), *,
               topics: bool = False) -> dict:
    """{"tags": {kind: {tag: sessions holding it}}, "sessions": n, "topics_over": m, "chosen":
    the active filter}. `summaries` in their shown order; with `topics`, the topics of the first
    TOPIC_SESSIONS."""
    counts: Counter = Counter()
    for summary in summaries:
        counts.update(summary.get("tags") or ())
    topics_over = 0
    if summaries and topics:
        from carto_core.lenses.tags import topic_tags

        try:
            engine = engine_of()
            for summary in summaries[:TOPIC_SESSIONS]:
                counts.update(topic_tags(engine, summary["session_id"]))
                topics_over += 1
        except ApiError:  # no search engine here (the search extra is missing): no topics
            topics_over = 0
    grouped: dict[str, dict[str, int]] = {kind: {} for kind in KINDS}
    for tag, n in sorted(counts.items(), key=lambda item: (-item[1], item[0])):
        kind = tag.partition(":")[0]
        if kind in grouped and len(grouped[kind]) < PER_KIND:
            grouped[kind][tag] = n
    return {"tags": {kind: values for kind, values in grouped.items() if values},
            "sessions": len(summaries), "topics_over": topics_over, "chosen": list(chosen)}
