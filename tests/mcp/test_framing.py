"""The JSON-RPC framing in front of the SDK, as a pure function of the lines it is given: every
request gets exactly one answer with its id, notifications none, batches one array; hypothesis
fuzzes the lines."""

from __future__ import annotations

import json

from hypothesis import example, given, settings
from hypothesis import strategies as st

from carto_core.mcp.framing import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    MAX_DEPTH,
    PARSE_ERROR,
    Framing,
    depth,
    encode,
)


def codes(answers):
    return [a["error"]["code"] for a in answers]


def req(i, method="ping", **extra):
    return {"jsonrpc": "2.0", "id": i, "method": method, **extra}


def line(value) -> bytes:
    return json.dumps(value).encode() + b"\n"


def test_text_that_is_not_json_is_a_parse_error_with_a_null_id():
    for raw in (b"not json\n", b'{"jsonrpc":"2.0","id":1,"method":"pi\n', b"\xff\xfe\n", b"{\n"):
        forwards, answers = Framing().inbound(raw)
        assert forwards == [] and codes(answers) == [PARSE_ERROR] and answers[0]["id"] is None


def test_values_that_are_not_request_objects_are_invalid_requests():
    cases = {
        b"5\n": None, b'"x"\n': None, b"null\n": None,
        line({"jsonrpc": "1.0", "id": 3, "method": "ping"}): 3,
        line({"jsonrpc": "2.0", "id": 4}): 4,
        line({"jsonrpc": "2.0", "id": 5, "method": 7}): 5,
        line({"jsonrpc": "2.0", "id": 6, "method": "ping", "params": "x"}): 6,
        line({"jsonrpc": "2.0", "id": True, "method": "ping"}): None,
        line({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}): None,
        line({"jsonrpc": "2.0", "id": None, "method": "ping"}): None,
        line({"jsonrpc": "2.0", "id": [1], "method": "ping"}): None,
    }
    for raw, answer_id in cases.items():
        forwards, answers = Framing().inbound(raw)
        assert forwards == [] and codes(answers) == [INVALID_REQUEST], raw
        assert answers[0]["id"] == answer_id, raw


def test_params_mcp_cannot_take_are_invalid_params_with_the_id():
    deep = {}
    for _ in range(MAX_DEPTH + 5):
        deep = {"k": deep}
    for params in ([1, 2], {"name": "search", "arguments": deep}):
        forwards, answers = Framing().inbound(line(req(9, "tools/call", params=params)))
        assert forwards == [] and codes(answers) == [INVALID_PARAMS] and answers[0]["id"] == 9
    # A notification is never answered, even when it is wrong.
    assert Framing().inbound(line({"jsonrpc": "2.0", "method": "notifications/x", "params": [1]})) == ([], [])


def test_nesting_the_json_parser_refuses_is_still_answered():
    raw = b'{"jsonrpc":"2.0","id":6,"params":' + b"[" * 100_000 + b"]" * 100_000 + b"}\n"
    forwards, answers = Framing().inbound(raw)
    assert forwards == [] and len(answers) == 1 and answers[0]["error"]["code"] in (INVALID_REQUEST, PARSE_ERROR)


def test_valid_messages_pass_through_and_lone_surrogates_become_replacement_characters():
    framing = Framing()
    raw = b'{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"search","arguments":{"query":"a \\ud83d"}}}'
    forwards, answers = framing.inbound(raw)
    assert answers == [] and forwards[0]["params"]["arguments"]["query"] == "a \ufffd"
    assert framing.inbound(line({"jsonrpc": "2.0", "method": "notifications/initialized"}))[0][0]["method"]
    assert framing.inbound(b"\n") == ([], [])
    assert framing.inbound(line({"jsonrpc": "2.0", "id": "r1", "result": {}})) == (
        [{"jsonrpc": "2.0", "id": "r1", "result": {}}], [])  # the client answering us


def test_a_batch_is_answered_by_one_array_once_every_request_in_it_is_answered():
    framing = Framing()
    batch = [req(1), {"jsonrpc": "2.0", "method": "notifications/x"}, {"foo": 1}, req("a", "nope"), req(1, "tools/list")]
    forwards, answers = framing.inbound(line(batch))
    assert answers == []  # waits for the SDK
    requests = [f for f in forwards if "id" in f]
    assert len(requests) == 3 and len({f["id"] for f in requests}) == 3  # its own ids: 1 twice is fine
    assert all(f["id"] not in (1, "a") for f in requests)
    assert [f["method"] for f in forwards] == ["ping", "notifications/x", "nope", "tools/list"]
    out = []
    for f in reversed(requests):
        out += framing.outbound({"jsonrpc": "2.0", "id": f["id"], "result": {"m": f["method"]}})
    assert len(out) == 1
    array = out[0]
    assert sorted(((a["id"], a["result"]["m"]) for a in array if "result" in a), key=str) == [
        ("a", "nope"), (1, "ping"), (1, "tools/list")]
    assert codes([a for a in array if "error" in a]) == [INVALID_REQUEST]
    assert len(array) == 4


def test_batches_with_nothing_to_wait_for():
    framing = Framing()
    assert codes(framing.inbound(b"[]")[1]) == [INVALID_REQUEST]
    forwards, answers = framing.inbound(line([{"jsonrpc": "2.0", "method": "notifications/x"}]))
    assert len(forwards) == 1 and answers == []  # notifications only: no answer at all
    forwards, answers = framing.inbound(line([1, 2]))
    assert forwards == [] and [codes(a) for a in answers] == [[INVALID_REQUEST, INVALID_REQUEST]]


def test_a_cancelled_request_does_not_hold_its_batch_forever():
    framing = Framing()
    forwards, _ = framing.inbound(line([req(1), req(2)]))
    first, second = (f["id"] for f in forwards)
    assert framing.outbound({"jsonrpc": "2.0", "id": first, "result": {}}) == []
    assert framing.unanswered(second) == [[{"jsonrpc": "2.0", "id": 1, "result": {}}]]


def test_answers_outside_batches_pass_unchanged():
    framing = Framing()
    message = {"jsonrpc": "2.0", "id": 3, "result": {}}
    assert framing.outbound(message) == [message]
    note = {"jsonrpc": "2.0", "method": "notifications/message", "params": {}}
    assert framing.outbound(note) == [note]


def test_encode_never_fails_on_a_lone_surrogate():
    data = encode({"jsonrpc": "2.0", "id": 1, "result": {"text": "cut \ud83d"}})
    assert json.loads(data) == {"jsonrpc": "2.0", "id": 1, "result": {"text": "cut \ufffd"}}


# --- fuzzing -----------------------------------------------------------------------------------

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda children: st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4),
    max_leaves=20,
)
messages = st.fixed_dictionaries(
    {}, optional={"jsonrpc": st.sampled_from(["2.0", "1.0", 2]), "id": json_values,
                  "method": st.sampled_from(["ping", "tools/list", "tools/call", "nope"]) | json_values,
                  "params": json_values, "result": json_values})


def _check(framing, raw):
    forwards, answers = framing.inbound(raw)
    for answer in answers:
        items = answer if isinstance(answer, list) else [answer]
        for item in items:
            assert item["jsonrpc"] == "2.0" and set(item) == {"jsonrpc", "id", "error"}
            assert item["error"]["code"] in (PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS)
        json.loads(encode(answer))
    for message in forwards:
        assert message["jsonrpc"] == "2.0"
        assert isinstance(message.get("method"), str) or "result" in message or "error" in message
    return forwards, answers


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=200))
def test_any_bytes_get_an_answer_or_are_forwarded_never_an_exception(raw):
    forwards, answers = _check(Framing(), raw)
    if raw.strip(b" \t\r\n"):
        # Silence only for what may go unanswered: a notification, a client's answer, a batch
        # of those.
        assert forwards or answers or raw.strip().startswith(b"[") or b"result" in raw or b"method" in raw


def _usable_id(value) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


@settings(max_examples=300, deadline=None)
@given(st.one_of(messages, st.lists(messages, max_size=5)))
@example([{"jsonrpc": "2.0", "result": None, "method": None, "id": 0},
          {"jsonrpc": "2.0", "id": 0, "method": "ping"}])
@example({"jsonrpc": "2.0", "id": 0, "method": "ping", "params": None})
@example({"jsonrpc": "2.0", "id": 0, "method": "ping", "params": []})
def test_every_request_is_answered_exactly_once(value):
    """Whatever the line: every well-formed request (usable id) ends with exactly one answer
    carrying its id (from the framing now, or from the SDK, simulated here, through it); a
    well-formed notification gets none; a batch is answered by at most one array."""
    framing = Framing()
    forwards, answers = _check(framing, json.dumps(value).encode())
    for message in forwards:
        if "method" in message and "id" in message:
            answers += framing.outbound({"jsonrpc": "2.0", "id": message["id"], "result": {}})
    assert not framing._batches  # nothing left waiting
    items = value if isinstance(value, list) else [value]
    if isinstance(value, list) and value:
        assert len(answers) <= 1 and all(isinstance(a, list) for a in answers)
    else:
        assert len(answers) <= 1 and all(isinstance(a, dict) for a in answers)
    flat = [a for answer in answers for a in (answer if isinstance(answer, list) else [answer])]
    assert len(flat) <= max(1, len(items))
    # owed a result: "params", when present, is an object no deeper than MAX_DEPTH (a null
    # one is an Invalid Request; an array, MCP's params being by name, or a deeper object is
    # Invalid params: each answered with an error and the id)
    requests = [m for m in items if isinstance(m, dict) and m.get("jsonrpc") == "2.0"
                and isinstance(m.get("method"), str) and _usable_id(m.get("id"))
                and ("params" not in m or isinstance(m["params"], dict)
                     and depth(m["params"]) <= MAX_DEPTH)]
    def same_id(a, b):
        return type(a) is type(b) and a == b

    for message in requests:
        same = sum(1 for m in requests if same_id(m["id"], message["id"]))
        assert sum(1 for a in flat if same_id(a["id"], message["id"]) and "result" in a) == same
        # An invalid item of the batch that carries the same id is answered with its error and
        # that id (the spec's "with the id when it could be read"); no other error may take it.
        invalid = sum(1 for m in items if isinstance(m, dict) and m not in requests
                      and same_id(m.get("id"), message["id"]))
        assert sum(1 for a in flat if same_id(a["id"], message["id"]) and "error" in a) <= invalid
    notifications = [m for m in items if isinstance(m, dict) and m.get("jsonrpc") == "2.0"
                     and isinstance(m.get("method"), str) and "id" not in m
                     and (m.get("params") is None and "params" not in m or isinstance(m.get("params"), (dict, list)))]
    assert len(flat) <= len(items) - len(notifications) or (isinstance(value, list) and not value)
