"""`http`: vectors from an embedding server, OpenAI-compatible `/v1/embeddings` or Ollama
`/api/embed` (chosen by the URL's path).

Options (`[semantic.http]`, env overrides): `url` (CARTO_EMBED_URL, default upstream's
llama.cpp server `http://127.0.0.1:8890/v1/embeddings`), `model` (CARTO_EMBED_MODEL, default
`mxbai-embed-large`), `query_prefix` (CARTO_EMBED_QUERY_PREFIX, default upstream's
`Represent this sentence for retrieval: `; documents are sent without it), `timeout`
(CARTO_EMBED_TIMEOUT, seconds, default 2), `api_key` (CARTO_EMBED_API_KEY, sent as a Bearer
token), `batch` (texts per request, default 32).

Stdlib only (urllib): no HTTP client library is imported on the search path. A server that is
down, slow past the timeout or answering an error raises EmbedderUnavailable with the reason;
the search answers with its keyword ladders and says why the semantic one did not join.
"""

from __future__ import annotations

import ipaddress
import json
import socket
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Sequence

import numpy as np

from carto_core.api import Embedder, EmbedderError, EmbedderUnavailable

DEFAULT_URL = "http://127.0.0.1:8890/v1/embeddings"
DEFAULT_MODEL = "mxbai-embed-large"
DEFAULT_QUERY_PREFIX = "Represent this sentence for retrieval: "
DEFAULT_TIMEOUT = 2.0


def _is_loopback(host: str | None) -> bool:
    if not host:
        return False
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class HttpEmbedder(Embedder):
    name = "http"
    description = "an OpenAI-compatible /v1/embeddings or Ollama /api/embed server"

    def __init__(self, home, options=None):
        super().__init__(home, options)
        self.url = str(self.options.get("url") or DEFAULT_URL)
        self.model = str(self.options.get("model") or DEFAULT_MODEL)
        prefix = self.options.get("query_prefix")
        self.query_prefix = DEFAULT_QUERY_PREFIX if prefix is None else str(prefix)
        self.timeout = float(self.options.get("timeout") or DEFAULT_TIMEOUT)
        self.api_key = str(self.options.get("api_key") or "")
        self.batch = max(1, int(self.options.get("batch") or 32))
        parsed = urllib.parse.urlsplit(self.url)
        self.ollama = parsed.path.rstrip("/").endswith("/api/embed")
        # A loopback server is reached directly, whatever proxy the environment names.
        handlers = [urllib.request.ProxyHandler({})] if _is_loopback(parsed.hostname) else []
        self._opener = urllib.request.build_opener(*handlers)

    @property
    def model_tag(self) -> str:
        return f"http:{self.model}"

    def check(self) -> None:
        if not self.url.startswith(("http://", "https://")):
            raise EmbedderUnavailable(f"embedder url {self.url!r} is not http(s)",
                                      fix="set [semantic.http] url or CARTO_EMBED_URL")

    def _post(self, inputs: list[str]) -> np.ndarray:
        self.check()
        body = json.dumps({"model": self.model, "input": inputs}).encode("utf-8")
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        request = urllib.request.Request(self.url, data=body, headers=headers, method="POST")
        fix = "start the embedding server, or set CARTO_EMBED_URL / [semantic] embedder = \"lsa\""
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                raw = response.read()
        except urllib.error.HTTPError as exc:
            detail = exc.read(300).decode("utf-8", "replace").strip()
            raise EmbedderUnavailable(
                f"embedder at {self.url} answered HTTP {exc.code}"
                + (f": {detail}" if detail else ""), fix=fix) from None
        except (TimeoutError, socket.timeout):
            raise EmbedderUnavailable(
                f"embedder at {self.url} did not answer within {self.timeout:g} s", fix=fix) from None
        except urllib.error.URLError as exc:
            reason = exc.reason
            if isinstance(reason, (TimeoutError, socket.timeout)):
                raise EmbedderUnavailable(
                    f"embedder at {self.url} did not answer within {self.timeout:g} s",
                    fix=fix) from None
            raise EmbedderUnavailable(f"embedder at {self.url} is not reachable: {reason}",
                                      fix=fix) from None
        except (ConnectionError, OSError) as exc:
            raise EmbedderUnavailable(f"embedder at {self.url} failed: {exc}", fix=fix) from None
        try:
            data = json.loads(raw)
            if self.ollama or "embeddings" in data:
                vectors = data["embeddings"]
            else:
                items = sorted(data["data"], key=lambda item: item.get("index", 0))
                vectors = [item["embedding"] for item in items]
            array = np.asarray(vectors, dtype=np.float32)
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            raise EmbedderError(f"embedder at {self.url} sent an unexpected reply: {exc!r}") from None
        if array.ndim != 2 or array.shape[0] != len(inputs) or array.shape[1] == 0:
            raise EmbedderError(
                f"embedder at {self.url} sent {array.shape} for {len(inputs)} inputs")
        return array

    def embed_documents(self, texts: Sequence[str]) -> np.ndarray:
        parts = [self._post(list(texts[i:i + self.batch])) for i in range(0, len(texts), self.batch)]
        if not parts:
            return np.zeros((0, 0), dtype=np.float32)
        if len({p.shape[1] for p in parts}) != 1:
            raise EmbedderError(f"embedder at {self.url} changed vector size between batches")
        return np.concatenate(parts)

    def embed_query(self, text: str) -> np.ndarray:
        return self._post([self.query_prefix + text])[0]
