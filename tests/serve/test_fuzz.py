"""The API fuzzed from its own OpenAPI document (schemathesis): valid and invalid inputs alike,
no answer is a 500, and every status is one the document declares.

Bounded: a fixed number of derandomized examples per operation, so the run is fast and the same
on every machine. Operations are read from the document, so a new route is fuzzed too.
"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import status_code_conformance

from carto_core.serve.app import ENDPOINTS, create_app

EXAMPLES_PER_OPERATION = 25
# schemathesis leaves out the document it was loaded from.
FUZZED = [f"{ep.method} {ep.path}" for ep in ENDPOINTS if ep.path != "/api/openapi.json"]


def as_loopback_client(app):
    """schemathesis's ASGI client says `Host: testserver`, which the guard rightly refuses
    (test_guard.py covers that), and holds no token (test_token.py); here requests arrive as
    the owner's loopback client's would."""
    bearer = f"Bearer {app.state.carto.token}".encode()

    async def shim(scope, receive, send):
        if scope["type"] == "http":
            headers = [(k, v) for k, v in scope["headers"]
                       if k.lower() not in (b"host", b"authorization")]
            scope = {**scope, "headers": [(b"host", b"127.0.0.1:8000"),
                                          (b"authorization", bearer), *headers]}
        await app(scope, receive, send)

    return shim


@pytest.fixture
def api_schema(home, roots):
    # The stream closes at once here: a fuzzer cannot wait on an endless response.
    app = create_app(home, transcript_roots=roots, stream_lifetime=0.0)
    return schemathesis.openapi.from_asgi("/api/openapi.json", as_loopback_client(app))


def test_document_lists_every_endpoint(api_schema):
    labels = {op.ok().label for op in api_schema.get_all_operations()}
    assert labels == set(FUZZED)


@pytest.mark.parametrize("label", FUZZED)
def test_no_server_errors(api_schema, label):
    operation = next(op.ok() for op in api_schema.get_all_operations() if op.ok().label == label)
    checked = []

    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, derandomize=True,
              suppress_health_check=list(HealthCheck), database=None)
    def fuzz(case):
        case.call_and_validate(checks=[not_a_server_error, status_code_conformance])
        checked.append(case)

    fuzz()
    assert checked, "hypothesis generated no case"
