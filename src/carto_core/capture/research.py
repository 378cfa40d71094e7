"""Research capture helpers: URL categories and the result URLs of a web search response.

Categories follow upstream's `log-research.sh` domain patterns (reference/cartographer.md 1.7),
checked in this order: research, docs, blog, news, reference, else other.
"""

from __future__ import annotations

import json

_CATEGORIES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("research", (
        "arxiv.org", "pubmed", "pmc.ncbi", "jov.arvojournals", "biorxiv.org", "semanticscholar",
        "springer.com/article", "elifesciences.org", "researchgate.net/publication",
        "dspace.mit.edu", "cvrl.org", "ncbi.nlm.nih.gov/books", "sciencedirect.com",
    )),
    ("docs", ("github.com", "docs.", "developer.", "mdn.", "readthedocs", "deepwiki.com")),
    ("blog", (
        "medium.com", "dev.to", "substack.com", ".blog", "wordpress", "humanlayer.dev/blog",
        "gend.co/blog", "promptlayer.com", "eesel.ai/blog", "smartscope.blog", "boxesandarrows.com",
    )),
    ("news", ("news.", "sciencedaily", "arstechnica", "theverge", "wired.com", "techcrunch",
              "hackernews", "news.ycombinator")),
    ("reference", ("wikipedia.org", "stackoverflow.com", "stackexchange.com")),
)

#: Write-time salience of a fetch by its URL category.
FETCH_SALIENCE = {"research": 0.7, "docs": 0.5, "reference": 0.5, "blog": 0.4, "news": 0.4, "other": 0.4}
SEARCH_SALIENCE = 0.5
SEARCH_RESULT_SALIENCE = 0.3


def categorize_url(url: str) -> str:
    lowered = (url or "").lower()
    for name, needles in _CATEGORIES:
        if any(needle in lowered for needle in needles):
            return name
    return "other"


def search_results(response: object, limit: int = 50) -> list[tuple[str, str]]:
    """(url, title) pairs from a search tool's response, in order, without duplicates.

    Accepts what upstream accepted (a JSON string, a list, an object with `links`/`results`)
    and Claude Code's WebSearch shape, whose `results` hold `{tool_use_id, content: [{title,
    url}]}` blocks next to plain text.
    """
    if isinstance(response, str):
        try:
            response = json.loads(response)
        except ValueError:
            return []
    out: list[tuple[str, str]] = []
    seen: set[str] = set()

    def visit(value: object, depth: int) -> None:
        if depth > 4 or len(out) >= limit:
            return
        if isinstance(value, list):
            for item in value:
                visit(item, depth + 1)
        elif isinstance(value, dict):
            url = value.get("url")
            if isinstance(url, str) and url:
                if url not in seen:
                    seen.add(url)
                    title = value.get("title")
                    out.append((url, title if isinstance(title, str) else ""))
                return
            for key in ("links", "results", "content", "items"):
                if key in value:
                    visit(value[key], depth + 1)

    visit(response, 0)
    return out
