"""`search_results`: which URLs of a search tool's response become research rows. The bounds
(50 results, 4 levels deep: Claude Code's WebSearch shape sits exactly at 4) are guards mutation
testing could move unnoticed (docs/testing.md)."""

from __future__ import annotations

from carto_core.capture.research import search_results


def _nest(value, levels, key=None):
    for _ in range(levels):
        value = [value] if key is None else {key: value}
    return value


def test_claude_code_websearch_shape_is_read_at_the_deepest_level_walked():
    response = {"query": "q", "results": [{"tool_use_id": "t1", "content": [{"title": "T", "url": "https://a.example"}]},
                                          "plain text between the blocks"]}
    assert search_results(response) == [("https://a.example", "T")]


def test_nothing_deeper_than_four_levels_is_walked():
    assert search_results(_nest({"url": "https://four.example"}, 4)) == [("https://four.example", "")]
    assert search_results(_nest({"url": "https://five.example"}, 5)) == []
    assert search_results(_nest({"url": "https://four.example"}, 4, key="links")) == [("https://four.example", "")]
    assert search_results(_nest({"url": "https://five.example"}, 5, key="content")) == []


def test_a_hostile_nesting_neither_recurses_without_bound_nor_fails():
    assert search_results(_nest({"url": "https://deep.example"}, 5000)) == []
    assert search_results(_nest({"url": "https://deep.example"}, 5000, key="results")) == []


def test_at_most_fifty_results_and_a_smaller_limit_is_kept():
    response = {"results": [{"url": f"https://r{i}.example", "title": str(i)} for i in range(60)]}
    got = search_results(response)
    assert len(got) == 50 and got[-1] == ("https://r49.example", "49")
    assert [url for url, _ in search_results(response, limit=3)] == [f"https://r{i}.example" for i in range(3)]


def test_every_container_key_is_followed_and_urls_must_be_text():
    response = {"items": [{"url": "https://items.example"}],
                "links": [{"url": 123, "title": "a number is no url"}, {"url": "", "title": "empty"},
                          {"url": "https://links.example", "title": 7}]}
    assert search_results(response) == [("https://links.example", ""), ("https://items.example", "")]
