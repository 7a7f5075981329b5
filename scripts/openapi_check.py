"""Checks openapi.yaml against the running service (run by scripts/openapi-check, which sets up the venv).

1. openapi.yaml is a valid OpenAPI 3.1 document, and each discriminator maps every value to the schema that
   has it (JSON Schema validation ignores discriminators; generated clients decode by them).
2. `snapdiff serve` is started on a free port with a 4096-byte body limit.
3. A fixed set of requests covers every route and every problem type the server can produce over HTTP (the
   HTTP edge's framing refusals written byte for byte on raw sockets, each then closed; the 408 from a second
   server with a 2 s --request-timeout); each response's body is validated against the schema the spec
   declares for its path, method, status and media type (OpenAPI 3.1 schemas are JSON Schema 2020-12; $refs
   resolve inside the spec), and each problem's `type` and `status` are the ones expected.
4. SIGTERM while a request is in flight: /readyz answers the 503 problem with Retry-After, the request still
   gets its 200, and the server exits 0.
5. HEAD on every GET path (the GET's headers, no body), OPTIONS on every path (204 with Allow), and a server
   with --cors-allow-origin: a preflight from the allowed origin, one from another origin, an error's CORS headers.

Prints one PASS or FAIL line per check and a summary; exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import atexit
import gzip
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field

import yaml
from jsonschema import Draft202012Validator
from openapi_spec_validator import OpenAPIV31SpecValidator, validate as validate_spec
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from load_check import read_chunked  # noqa: E402  (one strict chunked decoder for the Python checks)

SPEC_URI = "urn:snapdiff:openapi"
BODY_LIMIT = 4096
PROBLEM_PREFIX = "urn:snapdiff:problem:"


@dataclass
class Response:
    status: int
    headers: dict[str, str]  # lowercased names
    body: bytes

    @property
    def media_type(self) -> str:
        return self.headers.get("content-type", "").split(";")[0].strip().lower()

    def json(self):
        return json.loads(self.body)


class Connection:
    """A blocking HTTP/1.1 client on one TCP connection; reads Content-Length and chunked responses (a chunked
    body parsed strictly, RFC 9112 section 7.1), and close-delimited ones (neither, with Connection: close)."""

    def __init__(self, port: int, timeout: float = 30):
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=timeout)
        self.buffer = b""

    def close(self):
        self.sock.close()

    def send(self, data: bytes):
        self.sock.sendall(data)

    def request(self, method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                content_length: bool = True) -> Response:
        self.send(request_bytes(method, path, body, headers, content_length))
        return self.read_response(head_only=method == "HEAD")

    def _fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise ConnectionError("the server closed the connection")
        self.buffer += chunk

    def _line(self, what: str) -> bytes:
        """The next CRLF-ended line (without the CRLF); a bare CR or LF in it, or 4 KiB without CRLF, is refused."""
        while (end := self.buffer.find(b"\r\n")) < 0:
            if len(self.buffer) > 4096:
                raise ValueError(f"{what}: no CRLF within 4096 bytes: {self.buffer[:60]!r}")
            self._fill()
        line, self.buffer = self.buffer[:end], self.buffer[end + 2:]
        if b"\r" in line or b"\n" in line:
            raise ValueError(f"{what}: a bare CR or LF in {line[:60]!r}")
        return line

    def _take(self, n: int) -> bytes:
        while len(self.buffer) < n:
            self._fill()
        data, self.buffer = self.buffer[:n], self.buffer[n:]
        return data

    # read_chunked's reader interface (load_check.SocketReader's): a line within `limit` bytes, `n` bytes.
    def line(self, limit: int, what: str) -> bytes:
        return self._line(what)

    def take(self, n: int, what: str) -> bytes:
        return self._take(n)

    def _chunked_body(self) -> bytes:
        """A chunked body, decoded strictly (chunk sizes, extensions, CRLFs, trailer fields)."""
        return read_chunked(self)[0]

    def read_response(self, head_only: bool = False) -> Response:
        """One response; `head_only` for the answer to a HEAD, which has no body whatever its Content-Length."""
        while b"\r\n\r\n" not in self.buffer:
            self._fill()
        head, self.buffer = self.buffer.split(b"\r\n\r\n", 1)
        lines = head.decode("latin-1").split("\r\n")
        version, status, *_ = lines[0].split(" ", 2)
        if version != "HTTP/1.1":
            raise ValueError(f"bad status line {lines[0]!r}")
        headers = {}
        for line in lines[1:]:
            name, _, value = line.partition(":")
            headers[name.strip().lower()] = value.strip()
        encoding = headers.get("transfer-encoding")
        if encoding is not None and "content-length" in headers:
            raise ValueError(f"both Content-Length and Transfer-Encoding in a {status} response")
        if head_only or int(status) in (204, 304) or int(status) < 200:
            return Response(int(status), headers, b"")
        if encoding is not None:
            if encoding.lower() != "chunked":
                raise ValueError(f"Transfer-Encoding {encoding!r}: only chunked is understood")
            return Response(int(status), headers, self._chunked_body())
        closes = "close" in [token.strip() for token in headers.get("connection", "").lower().split(",")]
        if "content-length" not in headers and closes:
            try:  # close-delimited (RFC 9112 section 6.3): the body is everything until the server closes
                while True:
                    self._fill()
            except ConnectionError:
                body, self.buffer = self.buffer, b""
                return Response(int(status), headers, body)
        length = int(headers.get("content-length", "0"))
        while len(self.buffer) < length:
            self._fill()
        body, self.buffer = self.buffer[:length], self.buffer[length:]
        return Response(int(status), headers, body)


def request_bytes(method: str, path: str, body: bytes | None = None, headers: dict[str, str] | None = None,
                  content_length: bool = True) -> bytes:
    head = f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    for name, value in (headers or {}).items():
        head += f"{name}: {value}\r\n"
    if body is not None and content_length:
        head += f"Content-Length: {len(body)}\r\n"
    return (head + "\r\n").encode() + (body or b"")


def chunked(body: bytes, size: int = 1000) -> bytes:
    out = b""
    for start in range(0, len(body), size):
        piece = body[start:start + size]
        out += f"{len(piece):x}\r\n".encode() + piece + b"\r\n"
    return out + b"0\r\n\r\n"


JSON_HEADERS = {"Content-Type": "application/json"}


def diff_body(old, new, options=None, pad_to: int | None = None) -> bytes:
    request = {"old": old, "new": new}
    if options is not None:
        request["options"] = options
    body = json.dumps(request).encode()
    if pad_to is not None:
        body += b" " * (pad_to - len(body))
    return body


def items(ids):
    return {"items": [{"id": i} for i in ids]}


@dataclass
class Checker:
    spec: dict
    spec_bytes: bytes
    passed: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)
    problem_types_seen: set[str] = field(default_factory=set)
    operations_seen: set[tuple[str, str]] = field(default_factory=set)

    def __post_init__(self):
        resource = Resource.from_contents(self.spec, default_specification=DRAFT202012)
        self.registry = Registry().with_resource(SPEC_URI, resource)
        self.problem_enum = self.spec["components"]["schemas"]["Problem"]["properties"]["type"]["enum"]

    def result(self, name: str, errors: list[str]):
        if errors:
            self.failed.append(name)
            print(f"FAIL {name}")
            for error in errors:
                print(f"     {error}")
        else:
            self.passed.append(name)
            print(f"PASS {name}")

    def validator(self, pointer: str) -> Draft202012Validator:
        return Draft202012Validator({"$ref": f"{SPEC_URI}#{pointer}"}, registry=self.registry)

    def resolve(self, node: dict) -> dict:
        while "$ref" in node:
            ref = node["$ref"]
            assert ref.startswith("#/"), ref
            node = self.spec
            for part in ref[2:].split("/"):
                node = node[part.replace("~1", "/").replace("~0", "~")]
        return node

    def declared_response(self, path: str | None, method: str, status: int) -> tuple[str, dict] | None:
        """The spec's response object (and its JSON pointer) for an operation and status; `path` None for a
        path the spec does not have (then the shared Problem response applies)."""
        if path is None:
            return "/components/responses/Problem", self.spec["components"]["responses"]["Problem"]
        operation = self.spec["paths"].get(path, {}).get(method.lower())
        if operation is None:  # a method the path does not have: the 405 problem
            return "/components/responses/Problem", self.spec["components"]["responses"]["Problem"]
        responses = operation["responses"]
        key = str(status) if str(status) in responses else "default" if "default" in responses else None
        if key is None:
            return None
        response = responses[key]
        pointer = f"/paths/{path.replace('~', '~0').replace('/', '~1')}/{method.lower()}/responses/{key}"
        if "$ref" in response:
            pointer = response["$ref"][1:]
        return pointer, self.resolve(response)

    def check(self, name: str, response: Response, *, path: str | None, method: str, status: int,
              problem: str | None = None, extra=None):
        """Validates `response` against the spec; `problem` is the expected problem slug for an error."""
        errors: list[str] = []
        if response.status != status:
            errors.append(f"status {response.status}, expected {status}: {response.body[:300]!r}")
        if path is not None and path in self.spec["paths"] and method.lower() in self.spec["paths"][path]:
            self.operations_seen.add((path, method.lower()))
        declared = self.declared_response(path, method, response.status)
        if declared is None:
            errors.append(f"the spec declares no {response.status} (nor default) response for {method} {path}")
        else:
            pointer, declared_response = declared
            content = declared_response.get("content", {})
            if not content:  # HEAD and OPTIONS answers: headers only
                if response.body:
                    errors.append(f"{len(response.body)} body bytes where {pointer} declares none")
                elif extra is not None:
                    errors += extra(response, None) or []
            elif response.media_type not in content:
                errors.append(f"Content-Type {response.media_type!r} is not among {sorted(content)} at {pointer}")
            else:
                media_pointer = f"{pointer}/content/{response.media_type.replace('/', '~1')}/schema"
                try:
                    instance = response.json() if response.media_type.endswith("json") else response.body.decode()
                except (ValueError, UnicodeDecodeError) as error:
                    errors.append(f"body does not parse: {error}")
                else:
                    for error in sorted(self.validator(media_pointer).iter_errors(instance), key=str):
                        where = "/".join(str(part) for part in error.absolute_path) or "(root)"
                        errors.append(f"schema {media_pointer}: at {where}: {error.message[:300]}")
                    if problem is not None and isinstance(instance, dict):
                        errors += self.problem_errors(instance, response, problem)
                    if extra is not None and not errors:
                        errors += extra(response, instance) or []
            for header in declared_response.get("headers", {}):
                if header.lower() == "allow" and response.status == 405 and "allow" not in response.headers:
                    errors.append("405 without an Allow header")
                if header.lower() == "retry-after" and response.status == 503 \
                        and not response.headers.get("retry-after", "").isdigit():
                    errors.append(f"503 without a Retry-After of whole seconds: {response.headers.get('retry-after')!r}")
        self.result(name, errors)

    def problem_errors(self, instance: dict, response: Response, slug: str) -> list[str]:
        errors = []
        kind = instance.get("type")
        self.problem_types_seen.add(kind)
        if kind != PROBLEM_PREFIX + slug:
            errors.append(f"type {kind!r}, expected {PROBLEM_PREFIX + slug!r}")
        if kind not in self.problem_enum:
            errors.append(f"type {kind!r} is not in the Problem type enum")
        if instance.get("status") != response.status:
            errors.append(f"status member {instance.get('status')} differs from the HTTP status {response.status}")
        return errors


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class Server:
    def __init__(self, binary: str, *flags: str):
        self.binary = binary
        self.flags = list(flags) or ["--max-body-bytes", str(BODY_LIMIT)]
        self.process: subprocess.Popen | None = None
        self.log = tempfile.TemporaryFile()
        self.port = 0

    def start(self):
        for _ in range(3):
            self.port = free_port()
            self.process = subprocess.Popen(
                [self.binary, "serve", "--port", str(self.port), *self.flags, "--threads", "2", "--log-level", "warning"],
                stdout=self.log, stderr=self.log, stdin=subprocess.DEVNULL)
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline and self.process.poll() is None:
                try:
                    connection = Connection(self.port, timeout=2)
                    try:
                        if connection.request("GET", "/healthz").status == 200:
                            return
                    finally:
                        connection.close()
                except OSError:
                    time.sleep(0.05)
            self.stop()  # exited early (port taken meanwhile?) or never became healthy: try another port
        raise RuntimeError("snapdiff serve did not become healthy:\n" + self.output())

    def output(self) -> str:
        self.log.seek(0)
        return self.log.read().decode(errors="replace")[-4000:]

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def once_on(port, method, path, body=None, headers=None, content_length=True) -> "Response":
    """One request on a fresh connection to `port`."""
    connection = Connection(port)
    try:
        return connection.request(method, path, body, headers, content_length)
    finally:
        connection.close()


def raw_request(method: str, target: str, *fields: str, body: bytes = b"", version: str = "HTTP/1.1",
                host: bool = True) -> bytes:
    """A request written byte for byte (the framing checks need what an HTTP library would not send): `fields`
    are header lines as sent, a Host field first unless `host` is False."""
    head = f"{method} {target} {version}\r\n" + ("Host: 127.0.0.1\r\n" if host else "")
    return (head + "".join(f"{line}\r\n" for line in fields) + "\r\n").encode("latin-1") + body


def answered_and_closed(port: int, data: bytes, hang_guard: float = 60) -> tuple[Response, list[str]]:
    """Sends `data` on a fresh connection and reads the answer, which the server gives on its own: it must say
    `Connection: close` and then end the connection with a FIN (nothing more, no reset). `hang_guard` only
    stops a run that would otherwise wait forever."""
    connection = Connection(port, timeout=hang_guard)
    try:
        connection.send(data)
        response = connection.read_response()
        errors = []
        if response.headers.get("connection", "").lower() != "close":
            errors.append(f"Connection {response.headers.get('connection')!r}, expected close")
        rest = connection.buffer
        try:
            while chunk := connection.sock.recv(65536):
                rest += chunk
        except TimeoutError:
            errors.append(f"the connection was still open {hang_guard:g} s after the answer")
        except ConnectionResetError:
            errors.append("the connection was reset after the answer (expected a FIN)")
        if rest:
            errors.append(f"{len(rest)} bytes after the answer: {rest[:100]!r}")
        return response, errors
    finally:
        connection.close()


def run_checks(checker: Checker, server: Server):
    port = server.port

    def once(method, path, body=None, headers=None, content_length=True) -> Response:
        return once_on(port, method, path, body, headers, content_length)

    # Routes.
    checker.check("GET / is the Index", once("GET", "/"), path="/", method="GET", status=200,
                  extra=lambda r, i: [] if i.get("name") == "snapdiff" else ["name is not snapdiff"])
    checker.check("GET /healthz is the Status ok", once("GET", "/healthz"), path="/healthz", method="GET",
                  status=200, extra=lambda r, i: [] if i == {"status": "ok"} else [f"{i}"])
    checker.check("GET /readyz is the Status ready", once("GET", "/readyz"), path="/readyz", method="GET",
                  status=200, extra=lambda r, i: [] if i == {"status": "ready"} else [f"{i}"])
    checker.check("GET /metrics is the Prometheus exposition", once("GET", "/metrics"), path="/metrics",
                  method="GET", status=200,
                  extra=lambda r, i: [] if "snapdiff_http_requests_total{" in i else ["no request counter"])
    checker.check("GET /openapi.yaml is openapi.yaml byte for byte", once("GET", "/openapi.yaml"),
                  path="/openapi.yaml", method="GET", status=200,
                  extra=lambda r, i: [] if r.body == checker.spec_bytes else ["differs from openapi.yaml"])

    for path, media in (("/playground", "text/html"), ("/playground.js", "text/javascript"), ("/playground.css", "text/css")):
        checker.check(f"GET {path} is {media} with a Content-Security-Policy", once("GET", path), path=path,
                      method="GET", status=200,
                      extra=lambda r, i, media=media: [] if r.media_type == media
                      and r.headers.get("content-security-policy", "").startswith("default-src 'none'")
                      else [f"Content-Type {r.media_type!r}, CSP {r.headers.get('content-security-policy')!r}"])

    # HEAD on every GET path: the GET's status and headers, no body; OPTIONS on every path: 204 with Allow.
    for path, item in checker.spec["paths"].items():
        if "head" in item:
            get = once("GET", path)

            def same_head(r, _, get=get, path=path):
                varying = {"date", "x-request-id"} | ({"content-length"} if path == "/metrics" else set())
                fields = lambda response: {k: v for k, v in response.headers.items() if k not in varying}
                return [] if fields(r) == fields(get) else [f"HEAD headers {fields(r)} differ from GET's {fields(get)}"]
            checker.check(f"HEAD {path} is GET's head", once("HEAD", path), path=path, method="HEAD", status=200,
                          extra=same_head)
        allowed = ", ".join(method.upper() for method in item if method in ("get", "head", "post")) + ", OPTIONS"
        checker.check(f"OPTIONS {path} is 204 with Allow: {allowed}", once("OPTIONS", path), path=path,
                      method="OPTIONS", status=204,
                      extra=lambda r, _, allowed=allowed: [] if r.headers.get("allow") == allowed
                      else [f"Allow {r.headers.get('allow')!r}"])

    # POST /diff: the spec's own example, then every option.
    diff_operation = checker.spec["paths"]["/diff"]["post"]
    request_schema = diff_operation["requestBody"]["content"]["application/json"]
    for example_name, example in request_schema.get("examples", {}).items():
        request_errors = [error.message for error in checker.validator(
            "/paths/~1diff/post/requestBody/content/application~1json/schema").iter_errors(example["value"])]
        checker.result(f"request example {example_name!r} is a valid DiffRequest", request_errors)
        checker.check(f"POST /diff with example {example_name!r} is a DiffResponse",
                      once("POST", "/diff", json.dumps(example["value"]).encode(), JSON_HEADERS),
                      path="/diff", method="POST", status=200)
    sectioned = diff_body(
        {"sections": [{"id": "a", "items": [{"id": 1}, {"id": 2}]}, {"id": "b", "items": [{"id": 3}]},
                      {"id": "c", "title": "C", "items": [{"id": 4}, {"id": 5}]}, {"id": "d", "items": [{"id": 6}]}]},
        {"sections": [{"id": "c", "title": "C2", "items": [{"id": 5}, {"id": 4}]}, {"id": "e", "items": [{"id": 7}]},
                      {"id": "a", "items": [{"id": 1, "x": True}, {"id": 6}]}, {"id": "d", "items": []}]},
        {"renderings": ["staged", "sequential"]})
    checker.check("POST /diff sectioned, staged and sequential, is a DiffResponse",
                  once("POST", "/diff", sectioned, JSON_HEADERS), path="/diff", method="POST", status=200,
                  extra=lambda r, i: [] if len(i.get("staged", [])) == 5 and i.get("sequential") else ["renderings"])
    every_rendering = json.loads(sectioned)
    every_rendering["options"] = {"renderings": ["staged", "sequential", "ranges"], "ids": True}
    checker.check("POST /diff sectioned, every rendering with ids, is a DiffResponse",
                  once("POST", "/diff", json.dumps(every_rendering).encode(), JSON_HEADERS), path="/diff", method="POST",
                  status=200,
                  extra=lambda r, i: [] if all("ids" in stage for stage in i.get("staged", [])) and i.get("ranges")
                  and all("id" in op for op in i.get("sequential", [])) else ["renderings or ids"])
    bare_to_sections = diff_body(items(list(range(10))), {"sections": [{"id": "s", "items": [{"id": i} for i in range(30)]}]},
                                 {"renderings": ["ranges", "sequential", "staged"], "ids": True})
    checker.check("POST /diff bare list to sections, ranges with ids (null for the bare list's section), is a DiffResponse",
                  once("POST", "/diff", bare_to_sections, JSON_HEADERS), path="/diff", method="POST", status=200,
                  extra=lambda r, i: [] if i.get("ranges", [{}])[0].get("ids") == [None] else ["no null id"])
    keep_first = diff_body({"items": [{"id": 1}, {"id": 1}, {"id": "a"}]},
                           {"sections": [{"id": "s", "items": [{"id": "a"}]}, {"id": "s", "items": []}]},
                           {"duplicates": "keepFirst", "pretty": True, "renderings": ["sequential"]})
    checker.check("POST /diff keepFirst, pretty, is a DiffResponse with droppedDuplicates",
                  once("POST", "/diff", keep_first, {"Content-Type": "application/vnd.example+json; charset=utf-8"}),
                  path="/diff", method="POST", status=200,
                  extra=lambda r, i: [] if "droppedDuplicates" in i and b"\n  " in r.body else ["not as asked"])
    checker.check("POST /diff at exactly the body limit is a DiffResponse",
                  once("POST", "/diff", diff_body(items([1, 2]), items([2, 1]), pad_to=BODY_LIMIT), JSON_HEADERS),
                  path="/diff", method="POST", status=200)

    # Every problem the server produces over HTTP.
    valid = diff_body(items([1]), items([2]))
    checker.check("404 not-found", once("GET", "/nope"), path=None, method="GET", status=404, problem="not-found")
    checker.check("405 method-not-allowed (GET /diff)", once("GET", "/diff"), path="/diff", method="GET",
                  status=405, problem="method-not-allowed",
                  extra=lambda r, i: [] if r.headers.get("allow") == "POST, OPTIONS" else [f"Allow {r.headers.get('allow')}"])
    checker.check("405 method-not-allowed (POST /healthz)", once("POST", "/healthz", valid, JSON_HEADERS),
                  path="/healthz", method="POST", status=405, problem="method-not-allowed",
                  extra=lambda r, i: [] if r.headers.get("allow") == "GET, HEAD, OPTIONS" else [f"Allow {r.headers.get('allow')}"])
    checker.check("415 unsupported-media-type (text/plain)",
                  once("POST", "/diff", valid, {"Content-Type": "text/plain"}), path="/diff", method="POST",
                  status=415, problem="unsupported-media-type")
    checker.check("415 unsupported-media-type (no Content-Type)", once("POST", "/diff", valid), path="/diff",
                  method="POST", status=415, problem="unsupported-media-type")
    checker.check("400 empty-body", once("POST", "/diff", b"", JSON_HEADERS), path="/diff", method="POST",
                  status=400, problem="empty-body")
    malformed = b'{"old": {"items": []},\n "new": {"items": [1,,2]}}'
    checker.check("400 malformed-json with line, column and offset",
                  once("POST", "/diff", malformed, JSON_HEADERS), path="/diff", method="POST", status=400,
                  problem="malformed-json",
                  extra=lambda r, i: [] if (i.get("line"), i.get("offset")) == (2, malformed.index(b",,") + 1)
                  else [f"line {i.get('line')} offset {i.get('offset')}"])
    bad_utf8 = b'{"old": {"items": [{"id": "\xc3\x28"}]}, "new": {"items": []}}'
    checker.check("400 invalid-utf8 with offset", once("POST", "/diff", bad_utf8, JSON_HEADERS), path="/diff",
                  method="POST", status=400, problem="invalid-utf8",
                  extra=lambda r, i: [] if i.get("offset") == bad_utf8.index(b"\xc3") else [f"offset {i.get('offset')}"])
    deep = b'{"old": {"items": []}, "new": {"items": [{"id": 1, "x": ' + b"[" * 200 + b"]" * 200 + b"}]}}"
    checker.check("400 nesting-too-deep with limit and offset", once("POST", "/diff", deep, JSON_HEADERS),
                  path="/diff", method="POST", status=400, problem="nesting-too-deep")
    invalid = diff_body({"sections": [{"id": True, "items": [{"id": {}}]}]}, items([1]), {"renderings": ["x"]})
    checker.check("422 invalid-request with errors", once("POST", "/diff", invalid, JSON_HEADERS), path="/diff",
                  method="POST", status=422, problem="invalid-request",
                  extra=lambda r, i: [] if {e["path"] for e in i.get("errors", [])} ==
                  {"old.sections[0].id", "old.sections[0].items[0].id", "options.renderings[0]"}
                  else [f"errors {i.get('errors')}"])
    duplicates = diff_body({"items": [{"id": 1}, {"id": 1}]},
                           {"sections": [{"id": "s", "items": []}, {"id": "s", "items": []}]})
    checker.check("422 duplicate-ids with duplicates", once("POST", "/diff", duplicates, JSON_HEADERS),
                  path="/diff", method="POST", status=422, problem="duplicate-ids",
                  extra=lambda r, i: [] if len(i.get("duplicates", [])) == 2 else [f"{i.get('duplicates')}"])

    # POST /layout: the spec's example, the next page from its cursor, and the layout problems.
    layout_operation = checker.spec["paths"].get("/layout", {}).get("post")
    if layout_operation is not None:
        for example_name, example in layout_operation["requestBody"]["content"]["application/json"]["examples"].items():
            request_errors = [error.message for error in checker.validator(
                "/paths/~1layout/post/requestBody/content/application~1json/schema").iter_errors(example["value"])]
            checker.result(f"request example {example_name!r} is a valid LayoutRequest", request_errors)
            checker.check(f"POST /layout with example {example_name!r} is a LayoutPage",
                          once("POST", "/layout", json.dumps(example["value"]).encode(), JSON_HEADERS),
                          path="/layout", method="POST", status=200)
        settings = {"containerWidth": 375, "scale": 3, "columns": 2, "columnSpacing": 8, "itemSpacing": 8}
        first = once("POST", "/layout", json.dumps({"settings": settings, "pageSize": 2, "items": [
            {"id": i, "aspectRatio": 1 + i / 10} for i in range(3)]}).encode(), JSON_HEADERS)
        checker.check("POST /layout first page is a LayoutPage with nextCursor", first, path="/layout",
                      method="POST", status=200,
                      extra=lambda r, i: [] if isinstance(i.get("nextCursor"), str) else ["no nextCursor"])
        cursor = first.json().get("nextCursor", "") if first.status == 200 else ""
        checker.check("POST /layout next page from the cursor is a LayoutPage",
                      once("POST", "/layout", json.dumps({"settings": settings, "cursor": cursor, "items": [
                          {"id": 2, "aspectRatio": 1.2}]}).encode(), JSON_HEADERS),
                      path="/layout", method="POST", status=200,
                      extra=lambda r, i: [] if i.get("firstIndex") == 2 else [f"firstIndex {i.get('firstIndex')}"])
        altered = cursor[:-2] + ("AA" if not cursor.endswith("AA") else "BB")
        checker.check("400 invalid-cursor (altered cursor)",
                      once("POST", "/layout", json.dumps({"settings": settings, "cursor": altered, "items": []}).encode(),
                           JSON_HEADERS), path="/layout", method="POST", status=400, problem="invalid-cursor")
        checker.check("409 cursor-mismatch (cursor from other settings)",
                      once("POST", "/layout", json.dumps({"settings": {**settings, "columns": 3}, "cursor": cursor,
                                                          "items": []}).encode(), JSON_HEADERS),
                      path="/layout", method="POST", status=409, problem="cursor-mismatch")
        checker.check("422 layout-not-append-stable (pageSize with balanced)",
                      once("POST", "/layout", json.dumps({"settings": {**settings, "strategy": "balanced"}, "pageSize": 1,
                                                          "items": [{"id": 1, "aspectRatio": 1}]}).encode(), JSON_HEADERS),
                      path="/layout", method="POST", status=422, problem="layout-not-append-stable")
        checker.check("415 unsupported-media-type (POST /layout, text/plain)",
                      once("POST", "/layout", b"{}", {"Content-Type": "text/plain"}), path="/layout", method="POST",
                      status=415, problem="unsupported-media-type")
        with_layouts = diff_body({"items": [{"id": 1, "aspectRatio": 1}]},
                                 {"items": [{"id": 2, "aspectRatio": 2}, {"id": 1, "aspectRatio": 1}]},
                                 {"layouts": [{"settings": settings}]})
        checker.check("POST /diff with options.layouts is a DiffResponse with layouts",
                      once("POST", "/diff", with_layouts, JSON_HEADERS), path="/diff", method="POST", status=200,
                      extra=lambda r, i: [] if len(i.get("layouts", [])) == 1 else ["no layouts"])

    # Content codings: a gzipped answer (checked against the schema once decoded), a gzip request body, and the
    # refusals of a body's coding.
    large = diff_body(items(range(120)), items(reversed(range(120))), {"renderings": ["staged", "sequential"]})
    gzipped = once("POST", "/diff", large, {**JSON_HEADERS, "Accept-Encoding": "gzip"})
    coding_errors = [] if (gzipped.headers.get("content-encoding"), gzipped.headers.get("vary")) == \
        ("gzip", "Accept-Encoding") else [f"Content-Encoding {gzipped.headers.get('content-encoding')!r}, "
                                          f"Vary {gzipped.headers.get('vary')!r}"]
    try:
        decoded = Response(gzipped.status, gzipped.headers, gzip.decompress(gzipped.body))
    except OSError as error:
        decoded = gzipped
        coding_errors.append(f"the body does not gunzip: {error}")
    checker.check("POST /diff with Accept-Encoding: gzip is a gzipped DiffResponse", decoded, path="/diff",
                  method="POST", status=200, extra=lambda r, i: coding_errors)
    checker.check("POST /diff with a gzip body (Content-Encoding: gzip) is a DiffResponse",
                  once("POST", "/diff", gzip.compress(large), {**JSON_HEADERS, "Content-Encoding": "gzip"}),
                  path="/diff", method="POST", status=200,
                  extra=lambda r, i: [] if i["counts"]["elementMoved"] == 119 else [f"{i['counts']}"])
    checker.check("415 unsupported-content-coding (Content-Encoding: br) with Accept-Encoding",
                  once("POST", "/diff", valid, {**JSON_HEADERS, "Content-Encoding": "br"}), path="/diff",
                  method="POST", status=415, problem="unsupported-content-coding",
                  extra=lambda r, i: [] if r.headers.get("accept-encoding") == "gzip"
                  else [f"Accept-Encoding {r.headers.get('accept-encoding')!r}"])
    checker.check("400 undecodable-content (Content-Encoding: gzip, a plain body)",
                  once("POST", "/layout", b"{}", {**JSON_HEADERS, "Content-Encoding": "gzip"}), path="/layout",
                  method="POST", status=400, problem="undecodable-content")
    bomb = gzip.compress(b"[" + b" " * (64 * BODY_LIMIT))
    checker.check("413 content-too-large (a gzip body that decodes past the limit)",
                  once("POST", "/diff", bomb, {**JSON_HEADERS, "Content-Encoding": "gzip"}), path="/diff",
                  method="POST", status=413, problem="content-too-large",
                  extra=lambda r, i: [] if len(bomb) < BODY_LIMIT and i.get("limit") == BODY_LIMIT else [f"{len(bomb)}"])

    too_long = Connection(port)  # the head alone: the 413 must come without the body
    too_long.send(request_bytes("POST", "/diff", None, {**JSON_HEADERS, "Content-Length": str(BODY_LIMIT + 1)}))
    checker.check("413 content-too-large (Content-Length one byte over)", too_long.read_response(), path="/diff",
                  method="POST", status=413, problem="content-too-large",
                  extra=lambda r, i: [] if i.get("limit") == BODY_LIMIT else [f"limit {i.get('limit')}"])
    too_long.close()
    huge, huge_errors = answered_and_closed(
        port, raw_request("POST", "/diff", "Content-Type: application/json", f"Content-Length: {2 ** 64}"))
    checker.check("413 content-too-large (Content-Length 2^64)", huge, path="/diff", method="POST", status=413,
                  problem="content-too-large",
                  extra=lambda r, i: huge_errors + ([] if i.get("limit") == BODY_LIMIT else [f"limit {i.get('limit')}"]))

    # The HTTP edge (RFC 9112 framing): answered before routing, on every route and method, then closed. Each
    # operation gets at least one; `path` None where the target is no path of the spec (the shared Problem).
    json_type = "Content-Type: application/json"
    five = b'{"a":'
    edge_cases = [
        # (name, method, target, spec path, fields, body, version, host, status, problem)
        ("two Content-Length", "POST", "/diff", "/diff", [json_type, "Content-Length: 5", "Content-Length: 5"],
         five, "HTTP/1.1", True, 400, "malformed-request"),
        ("Content-Length abc", "POST", "/diff", "/diff", [json_type, "Content-Length: abc"], five, "HTTP/1.1",
         True, 400, "malformed-request"),
        ("Content-Length +5", "POST", "/layout", "/layout", [json_type, "Content-Length: +5"], five, "HTTP/1.1",
         True, 400, "malformed-request"),
        ("Content-Length -1", "POST", "/layout", "/layout", [json_type, "Content-Length: -1"], five, "HTTP/1.1",
         True, 400, "malformed-request"),
        ("Content-Length 5, 5", "POST", "/diff", "/diff", [json_type, "Content-Length: 5, 5"], five, "HTTP/1.1",
         True, 400, "malformed-request"),
        ("whitespace before a colon", "POST", "/layout", "/layout", [json_type, "Content-Length : 5"], five,
         "HTTP/1.1", True, 400, "malformed-request"),
        ("Transfer-Encoding with Content-Length", "POST", "/diff", "/diff",
         [json_type, "Transfer-Encoding: chunked", "Content-Length: 10"], b"5\r\n" + five + b"\r\n0\r\n\r\n",
         "HTTP/1.1", True, 400, "malformed-request"),
        ("Transfer-Encoding in HTTP/1.0", "POST", "/diff", "/diff", [json_type, "Transfer-Encoding: chunked"],
         b"5\r\n" + five + b"\r\n0\r\n\r\n", "HTTP/1.0", True, 400, "malformed-request"),
        ("Transfer-Encoding chunked, chunked", "POST", "/layout", "/layout",
         [json_type, "Transfer-Encoding: chunked, chunked"], b"5\r\n" + five + b"\r\n0\r\n\r\n", "HTTP/1.1",
         True, 400, "malformed-request"),
        ("HTTP/1.1 without Host", "GET", "/", "/", [], b"", "HTTP/1.1", False, 400, "malformed-request"),
        ("two Host fields", "GET", "/healthz", "/healthz", ["Host: 127.0.0.1"], b"", "HTTP/1.1", True, 400,
         "malformed-request"),
        ("NUL in a header", "GET", "/readyz", "/readyz", ["X-Note: a\x00b"], b"", "HTTP/1.1", True, 400,
         "malformed-request"),
        ("bare CR in a header", "GET", "/metrics", "/metrics", ["X-Note: a\rb"], b"", "HTTP/1.1", True, 400,
         "malformed-request"),
        ("obs-fold", "GET", "/openapi.yaml", "/openapi.yaml", ["X-Note: a", " b"], b"", "HTTP/1.1", True, 400,
         "malformed-request"),
        ("a space in the target", "GET", "/heal thz", None, [], b"", "HTTP/1.1", True, 400, "malformed-request"),
        ("a control byte in the target", "GET", "/healthz\x01", None, [], b"", "HTTP/1.1", True, 400,
         "malformed-request"),
        ("unknown path and method", "DELETE", "/nope", None, ["Content-Length: abc"], b"", "HTTP/1.1", True, 400,
         "malformed-request"),
        ("a body over the limit", "GET", "/openapi.yaml", "/openapi.yaml", [f"Content-Length: {BODY_LIMIT + 1}"],
         b"x" * (BODY_LIMIT + 1), "HTTP/1.1", True, 413, "content-too-large"),
        ("chunked body", "POST", "/diff", "/diff", [json_type, "Transfer-Encoding: chunked"],
         chunked(diff_body(items([1]), items([2]))), "HTTP/1.1", True, 411, "length-required"),
        ("GET with an empty chunked body", "GET", "/healthz", "/healthz", ["Transfer-Encoding: chunked"],
         b"0\r\n\r\n", "HTTP/1.1", True, 411, "length-required"),
        ("Transfer-Encoding gzip, chunked", "POST", "/layout", "/layout",
         [json_type, "Transfer-Encoding: gzip, chunked"], b"5\r\n" + five + b"\r\n0\r\n\r\n", "HTTP/1.1", True,
         501, "not-implemented"),
        ("Transfer-Encoding identity", "GET", "/metrics", "/metrics", ["Transfer-Encoding: identity"], b"",
         "HTTP/1.1", True, 501, "not-implemented"),
    ]
    for name, method, target, spec_path, fields, body, version, host, status, slug in edge_cases:
        response, connection_errors = answered_and_closed(
            port, raw_request(method, target, *fields, body=body, version=version, host=host))
        checker.check(f"{status} {slug} ({name}, {method} {target!r})", response, path=spec_path, method=method,
                      status=status, problem=slug, extra=lambda r, i, errors=connection_errors: errors)

    # Shutdown: SIGTERM while a request is in flight. The readiness probe turns 503 on a connection opened
    # before, the in-flight request still gets its 200, and the process exits 0.
    body = diff_body(items(range(100)), items(reversed(range(100))))
    in_flight = Connection(port)
    probe = Connection(port)
    in_flight.send(request_bytes("POST", "/diff", None, {**JSON_HEADERS, "Content-Length": str(len(body))})
                   + body[:10])
    time.sleep(0.2)  # the head is read: the request is in flight
    server.process.send_signal(signal.SIGTERM)
    draining = None
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        response = probe.request("GET", "/readyz")
        if response.status != 200:
            draining = response
            break
        time.sleep(0.02)
    if draining is None:
        checker.result("503 shutting-down from /readyz after SIGTERM", ["/readyz stayed 200 for 10 s"])
    else:
        checker.check("503 shutting-down from /readyz after SIGTERM", draining, path="/readyz", method="GET",
                      status=503, problem="shutting-down")
    in_flight.send(body[10:])
    checker.check("POST /diff in flight at SIGTERM is answered in full", in_flight.read_response(), path="/diff",
                  method="POST", status=200,
                  extra=lambda r, i: [] if i["counts"]["elementMoved"] == 99 else [f"{i['counts']}"])
    try:
        code = server.process.wait(timeout=20)
        checker.result("snapdiff exits 0 on SIGTERM", [] if code == 0 else [f"exit status {code}"])
    except subprocess.TimeoutExpired:
        checker.result("snapdiff exits 0 on SIGTERM", ["still running 20 s after SIGTERM"])

    # Overload: a server whose memory budget holds one 60 KB /diff at a time and waits for no room. One request's
    # head (its body still to come) holds its reservation; a second one meanwhile is answered 503 overloaded.
    crowded = Server(server.binary, "--max-body-bytes", "65536", "--memory-budget", "1600000",
                     "--admission-timeout", "0")
    crowded.start()
    try:
        body = diff_body(items([1]), items([2]), pad_to=60000)
        holder = Connection(crowded.port)
        holder.send(request_bytes("POST", "/diff", None, {**JSON_HEADERS, "Content-Length": str(len(body))}))
        time.sleep(0.2)  # the head is read: its reservation is held
        checker.check("503 overloaded (the memory budget has no room)",
                      once_on(crowded.port, "POST", "/diff", body, JSON_HEADERS), path="/diff", method="POST",
                      status=503, problem="overloaded",
                      extra=lambda r, i: [] if r.headers.get("retry-after", "").isdigit() else ["no Retry-After"])
        holder.send(body)
        checker.check("POST /diff holding the budget is answered once its body is in", holder.read_response(),
                      path="/diff", method="POST", status=200)
        holder.close()
    finally:
        crowded.stop()

    # Request timeout: a server that waits 2 s for a whole request. A client that sends a head and part of its
    # body, then nothing, is answered 408 and closed; so is one whose head never ends. (The timings are the
    # server's; the check only waits for the answer, with a hang guard.)
    slow = Server(server.binary, "--max-body-bytes", str(BODY_LIMIT), "--request-timeout", "2")
    slow.start()
    try:
        stalled, stalled_errors = answered_and_closed(
            slow.port, raw_request("POST", "/diff", "Content-Type: application/json", "Content-Length: 100",
                                   body=b'{"old": '))
        checker.check("408 request-timeout (POST /diff, the body stops)", stalled, path="/diff", method="POST",
                      status=408, problem="request-timeout", extra=lambda r, i: stalled_errors)
        partial, partial_errors = answered_and_closed(slow.port, b"GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n")
        checker.check("408 request-timeout (GET /readyz, the head stops)", partial, path="/readyz", method="GET",
                      status=408, problem="request-timeout", extra=lambda r, i: partial_errors)
    finally:
        slow.stop()

    # CORS: a server that allows one origin. A preflight from it gets the Options response's CORS headers, an
    # actual answer (here a 405) the origin and the exposed headers, and another origin none of them. Every answer
    # of a route varies by Origin and (compression is on) Accept-Encoding, in one Vary line.
    app = "https://app.example.com"
    cors = Server(server.binary, "--max-body-bytes", str(BODY_LIMIT), "--cors-allow-origin", app)
    cors.start()
    try:
        def cors_errors(expected):
            def extra(r, _):
                return [f"{name}: {r.headers.get(name.lower())!r}, expected {value!r}" for name, value in expected.items()
                        if r.headers.get(name.lower()) != value]
            return extra
        checker.check("OPTIONS /diff preflight from an allowed origin", once_on(
            cors.port, "OPTIONS", "/diff", headers={"Origin": app, "Access-Control-Request-Method": "POST"}),
            path="/diff", method="OPTIONS", status=204, extra=cors_errors({
                "Access-Control-Allow-Origin": app, "Access-Control-Allow-Methods": "POST",
                "Access-Control-Allow-Headers": "Content-Type, X-Request-ID, Content-Encoding",
                "Access-Control-Max-Age": "600", "Vary": "Origin, Accept-Encoding", "Allow": "POST, OPTIONS"}))
        checker.check("OPTIONS /healthz preflight from another origin has no CORS headers", once_on(
            cors.port, "OPTIONS", "/healthz", headers={"Origin": "https://evil.example",
                                                       "Access-Control-Request-Method": "GET"}),
            path="/healthz", method="OPTIONS", status=204, extra=cors_errors({
                "Access-Control-Allow-Origin": None, "Access-Control-Allow-Methods": None,
                "Vary": "Origin, Accept-Encoding"}))
        checker.check("405 from an allowed origin carries the CORS headers", once_on(
            cors.port, "GET", "/layout", headers={"Origin": app}), path="/layout", method="GET", status=405,
            problem="method-not-allowed", extra=cors_errors({
                "Access-Control-Allow-Origin": app, "Access-Control-Expose-Headers": "X-Request-ID, Retry-After",
                "Vary": "Origin, Accept-Encoding"}))
    finally:
        cors.stop()

    # Coverage of the spec.
    missing = set(checker.problem_types_seen) ^ set(checker.problem_enum)
    checker.result("every problem type of the spec was produced",
                   [f"not produced or not listed: {sorted(missing)}"] if missing else [])
    operations = {(path, method) for path, item in checker.spec["paths"].items() for method in item
                  if method in ("get", "put", "post", "delete", "patch", "head", "options", "trace")}
    unexercised = operations - checker.operations_seen
    checker.result("every operation of the spec was exercised",
                   [f"not exercised: {sorted(unexercised)}"] if unexercised else [])


def discriminator_errors(spec: dict) -> list[str]:
    """JSON Schema validation ignores `discriminator`, but generated clients decode by it: each mapping key must
    be the one value (`enum` of one) of the discriminating property in the schema it maps to, and the oneOf must
    list exactly the mapped schemas."""
    errors = []
    for name, schema in spec["components"]["schemas"].items():
        discriminator = schema.get("discriminator")
        if discriminator is None:
            continue
        property_name = discriminator["propertyName"]
        mapping = discriminator.get("mapping", {})
        listed = {variant.get("$ref") for variant in schema.get("oneOf", [])}
        if listed != set(mapping.values()):
            errors.append(f"{name}: oneOf lists {sorted(listed)}, the mapping {sorted(mapping.values())}")
        for key, ref in mapping.items():
            target = spec["components"]["schemas"].get(ref.rsplit("/", 1)[-1], {})
            values = target.get("properties", {}).get(property_name, {}).get("enum")
            if values != [key] or property_name not in target.get("required", []):
                errors.append(f"{name}: {key} maps to {ref}, whose required {property_name} allows {values}")
    return errors


def duplicate_keys(spec_bytes):
    """Every key written twice in one mapping of the YAML document, with its line."""
    found = []

    class Loader(yaml.SafeLoader):
        pass

    def construct_mapping(loader, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)
            if key in seen:
                found.append(f"{key!r} twice (line {key_node.start_mark.line + 1})")
            seen.add(key)
        return yaml.SafeLoader.construct_mapping(loader, node, deep)

    Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    yaml.load(spec_bytes, Loader=Loader)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the snapdiff executable")
    parser.add_argument("--spec", default="openapi.yaml")
    arguments = parser.parse_args()

    with open(arguments.spec, "rb") as file:
        spec_bytes = file.read()
    spec = yaml.safe_load(spec_bytes)
    checker = Checker(spec, spec_bytes)
    # YAML forbids a key twice in one mapping; PyYAML keeps the last silently, the client generators refuse it.
    checker.result("openapi.yaml repeats no key in a mapping", duplicate_keys(spec_bytes))
    try:
        validate_spec(spec, cls=OpenAPIV31SpecValidator)
        checker.result("openapi.yaml is valid OpenAPI 3.1", [])
    except Exception as error:  # the validator's errors are many types
        checker.result("openapi.yaml is valid OpenAPI 3.1", [str(error)[:2000]])

    checker.result("every discriminator mapping names a schema whose property has exactly that value",
                   discriminator_errors(spec))

    server = Server(arguments.binary)
    atexit.register(server.stop)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    server.start()
    try:
        run_checks(checker, server)
    except Exception as error:
        checker.result("the checks ran to the end", [f"{type(error).__name__}: {error}"])
    finally:
        server.stop()
    if checker.failed:
        print("server log (tail):\n" + server.output())
    print(f"openapi-check: {len(checker.passed)} passed, {len(checker.failed)} failed")
    return 1 if checker.failed else 0


if __name__ == "__main__":
    sys.exit(main())
