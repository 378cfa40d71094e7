"""Declared parameters of the explorer API: one table drives validation and the OpenAPI document.

Every route declares its query/path parameters as `Param`s (type, bounds, default) and POST
routes a JSON Schema for the body; `parse_params` checks a request against them (a bad value is a
400 naming the field and its bounds, never a 500), and `openapi_document` describes exactly the
same bounds, so a fuzzer reading the document explores what the server really accepts.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field


class ApiError(Exception):
    """An answer other than 200: status, a stable code and a message for people."""

    def __init__(self, status: int, code: str, message: str, **details):
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        #: What a caller can act on besides the sentence (the candidates of an ambiguous id).
        self.details = details

    def as_dict(self) -> dict:
        return {"error": self.message, "code": self.code, "status": self.status, **self.details}


@dataclass(frozen=True)
class Param:
    name: str
    type: str  # integer | string | boolean
    description: str
    default: object = None
    minimum: int | None = None
    maximum: int | None = None
    max_length: int | None = None
    pattern: str | None = None
    enum: tuple[str, ...] | None = None
    required: bool = False
    location: str = "query"

    def schema(self) -> dict:
        out: dict = {"type": self.type}
        if self.default is not None:
            out["default"] = self.default
        if self.minimum is not None:
            out["minimum"] = self.minimum
        if self.maximum is not None:
            out["maximum"] = self.maximum
        if self.max_length is not None:
            out["maxLength"] = self.max_length
        if self.pattern is not None:
            out["pattern"] = self.pattern
        if self.enum is not None:
            out["enum"] = list(self.enum)
        if self.type == "string" and self.required:
            out["minLength"] = 1
        return out

    def parse(self, raw: str | None) -> object:
        if raw is None or (raw == "" and self.type != "string"):
            if self.required:
                raise ApiError(400, "PARAM_REQUIRED", f"{self.name} is required")
            return self.default
        if self.type == "integer":
            try:
                value = int(raw.strip())
            except ValueError:
                value = None
            if value is None or (self.minimum is not None and value < self.minimum) or (
                    self.maximum is not None and value > self.maximum):
                raise ApiError(400, "PARAM_INVALID",
                               f"{self.name} must be an integer from {self.minimum} to {self.maximum}")
            return value
        if self.type == "boolean":
            low = raw.strip().lower()
            if low in ("1", "true", "yes", "on"):
                return True
            if low in ("0", "false", "no", "off"):
                return False
            raise ApiError(400, "PARAM_INVALID", f"{self.name} must be true or false")
        if "\x00" in raw:
            raise ApiError(400, "PARAM_INVALID", f"{self.name} must not contain NUL")
        if self.max_length is not None and len(raw) > self.max_length:
            raise ApiError(400, "PARAM_INVALID",
                           f"{self.name} must be at most {self.max_length} characters")
        if self.required and not raw:
            raise ApiError(400, "PARAM_REQUIRED", f"{self.name} is required")
        if self.enum is not None and raw not in self.enum:
            raise ApiError(400, "PARAM_INVALID", f"{self.name} must be one of {', '.join(self.enum)}")
        if self.pattern is not None and raw and not re.fullmatch(self.pattern.strip("^$"), raw):
            raise ApiError(400, "PARAM_INVALID", f"{self.name} must match {self.pattern}")
        return raw


Handler = Callable[..., Awaitable[object]]


@dataclass
class Endpoint:
    method: str
    path: str
    handler: Handler
    summary: str
    description: str = ""
    params: tuple[Param, ...] = ()
    body: dict | None = None
    responses: tuple[int, ...] = (200,)
    media_type: str = "application/json"
    tags: tuple[str, ...] = ()
    extra: dict = field(default_factory=dict)

    @property
    def operation_id(self) -> str:
        return self.handler.__name__


def parse_params(endpoint: Endpoint, query: dict, path: dict) -> dict:
    values = {}
    for param in endpoint.params:
        source = path if param.location == "path" else query
        values[param.name] = param.parse(source.get(param.name))
    return values


ERROR_SCHEMA = {
    "type": "object",
    "required": ["error", "code"],
    "properties": {"error": {"type": "string"}, "code": {"type": "string"},
                   "status": {"type": "integer"}},
}

STATUS_TEXT = {
    200: "OK", 400: "The request is wrong (the message names the field)",
    401: "Without the serve token (`?token=`, its cookie or `Authorization: Bearer`)",
    403: "Refused by the loopback guard, or a path outside the transcript roots",
    404: "Nothing with that id or path", 409: "Another contract version or corpus",
    413: "Body (or transcript) too large", 415: "Body is not JSON",
    422: "The transcript holds no messages", 503: "The engine behind this route is unavailable",
}


def openapi_document(endpoints: list[Endpoint], version: str) -> dict:
    paths: dict = {}
    for ep in endpoints:
        operation: dict = {
            "operationId": ep.operation_id,
            "summary": ep.summary,
            "tags": list(ep.tags),
            "responses": {},
        }
        if ep.description:
            operation["description"] = ep.description
        if ep.params:
            operation["parameters"] = [
                {"name": p.name, "in": p.location, "required": p.required or p.location == "path",
                 "description": p.description, "schema": p.schema()}
                for p in ep.params
            ]
        if ep.body is not None:
            operation["requestBody"] = {"required": True,
                                        "content": {"application/json": {"schema": ep.body}}}
        # Every route can be refused by the guard or for want of the token; any declared input
        # can be wrong.
        statuses = {*ep.responses, 401, 403} | ({400} if ep.params or ep.body is not None else set())
        for status in sorted(statuses):
            if status == 200:
                content = {ep.media_type: {"schema": {"type": "string"}
                                           if ep.media_type != "application/json"
                                           else {"type": "object"}}}
            else:
                content = {"application/json": {"schema": ERROR_SCHEMA}}
            operation["responses"][str(status)] = {"description": STATUS_TEXT.get(status, ""),
                                                   "content": content}
        paths.setdefault(ep.path, {})[ep.method.lower()] = operation
    return {
        "openapi": "3.0.3",
        "info": {
            "title": "carto explorer API",
            "version": version,
            "description": "Loopback-only JSON API of `carto serve`: recall, facts, sessions, "
                           "events, projects, transcripts and a stream of new events. Every "
                           "route refuses a non-loopback Host, a foreign Origin and a "
                           "cross-site fetch (403), and a request without the home's serve "
                           "token (401).",
        },
        "servers": [{"url": "/"}],
        "components": {"securitySchemes": {
            "bearer": {"type": "http", "scheme": "bearer"},
            "query": {"type": "apiKey", "in": "query", "name": "token"},
        }},
        "security": [{"bearer": []}, {"query": []}],
        "paths": paths,
    }
