"""Calls every operation of a live snapdiff through the client that openapi-python-client generated from
openapi.yaml, and checks each answer (run by scripts/client-check, which generates the client and starts the
server with --max-body-bytes 65536).

Every request is built with the generated models (`Model.from_dict`) and must serialise back to what was
meant (`to_dict()`), so a member the generator drops fails here; every JSON answer is decoded by the generated
operation into its declared model and must re-encode to the body the server sent, member for member.

    python check.py --client-dir DIR --spec openapi.yaml http://127.0.0.1:PORT

DIR holds the generated package `snapdiff_client`. Prints one PASS or FAIL line per check; exits 1 on any
failure.
"""

from __future__ import annotations

import argparse
import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

BODY_LIMIT = 65536  # scripts/client-check starts the server with this --max-body-bytes

failures: list[str] = []


class Mismatch(Exception):
    pass


def expect(condition: bool, message: str):
    if not condition:
        raise Mismatch(message)


def check(name: str, body: Callable[[], None]):
    try:
        body()
    except Mismatch as error:
        failures.append(name)
        print(f"FAIL {name}: {error}")
    except Exception:  # a decoding error of the generated code is a failure too, with its trace
        failures.append(name)
        print(f"FAIL {name}: {traceback.format_exc(limit=4)}")
    else:
        print(f"PASS {name}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--client-dir", required=True, help="the folder holding the generated snapdiff_client")
    parser.add_argument("--spec", required=True, help="openapi.yaml, compared with GET /openapi.yaml")
    parser.add_argument("base_url")
    arguments = parser.parse_args()
    sys.path.insert(0, arguments.client_dir)

    # Imported here: the package is generated at test time into --client-dir.
    from snapdiff_client import Client
    from snapdiff_client.api.diff import diff
    from snapdiff_client.api.layout import layout
    from snapdiff_client.api.operations import (
        head_health, head_index, head_metrics, head_open_api, head_ready, health, index, metrics, openapi,
        options_diff, options_health, options_index, options_layout, options_metrics, options_open_api, options_ready,
        ready)
    from snapdiff_client.models import (
        DiffRequest, DiffResponse, Index, InsertElement, InsertSection, LayoutPage, LayoutRequest, MoveElement,
        MoveSection, Problem, ProblemType, RemoveElement, RemoveSection, Status, UpdateElement, UpdateSection)
    from snapdiff_client.types import Unset

    client = Client(base_url=arguments.base_url, timeout=30, raise_on_unexpected_status=True)

    def request(model, value: dict):
        """The generated model of a request body; it must serialise back to `value` unchanged."""
        built = model.from_dict(value)
        expect(built.to_dict() == value, f"{model.__name__} does not serialise back to the request: "
                                         f"{built.to_dict()} != {value}")
        return built

    def answer(response, model, status: int):
        """The decoded answer: the status expected, the declared model, and nothing lost in decoding."""
        expect(response.status_code == status,
               f"status {int(response.status_code)}, expected {status}: {response.content[:300]!r}")
        expect(isinstance(response.parsed, model),
               f"decoded as {type(response.parsed).__name__}, expected {model.__name__}")
        raw = json.loads(response.content)
        expect(response.parsed.to_dict() == raw,
               f"{model.__name__} does not re-encode to the body: {response.parsed.to_dict()} != {raw}")
        return response.parsed

    def problem(response, status: int, kind: str):
        """A problem answer decoded as Problem, of the type and status expected."""
        decoded = answer(response, Problem, status)
        expect(decoded.type_ == ProblemType("urn:snapdiff:problem:" + kind),
               f"problem type {decoded.type_}, expected {kind}")
        expect(decoded.status == status, f"problem status {decoded.status}")
        expect(response.headers.get("content-type", "").startswith("application/problem+json"),
               f"Content-Type {response.headers.get('content-type')}")
        return decoded

    # Renderings: the README's example (staged and sequential).
    def readme_diff():
        body = request(DiffRequest, {
            "old": {"sections": [{"id": "news", "items": [{"id": "n1"}, {"id": "n2"}, {"id": "n3"}]}]},
            "new": {"sections": [{"id": "news", "items": [{"id": "n3"}, {"id": "n2"},
                                                          {"id": "n1", "title": "Updated"}]}]},
            "options": {"renderings": ["staged", "sequential"]}})
        decoded = answer(diff.sync_detailed(client=client, body=body), DiffResponse, 200)
        expect((decoded.counts.element_moved, decoded.counts.element_updated) == (2, 1), f"{decoded.counts}")
        expect(len(decoded.staged) == 2, f"{len(decoded.staged)} stages")
        expect(decoded.staged[0].element_updated == [[0, 0]], f"stage 1 {decoded.staged[0].to_dict()}")
        expect(decoded.staged[1].element_moved == [[[0, 2], [0, 0]], [[0, 0], [0, 2]]],
               f"stage 2 {decoded.staged[1].to_dict()}")
        operations = decoded.sequential
        expect([type(operation) for operation in operations] == [MoveElement, MoveElement, UpdateElement],
               f"sequential {[operation.to_dict() for operation in operations]}")
        expect((operations[0].from_, operations[0].to) == ([0, 2], [0, 0]), f"{operations[0].to_dict()}")
        expect(operations[2].path == [0, 2], f"{operations[2].to_dict()}")
    check("POST /diff staged and sequential (the README's example)", readme_diff)

    # Every sequential operation decodes as its own model.
    def every_operation():
        body = request(DiffRequest, {
            "old": {"sections": [{"id": "a", "items": [{"id": 1}, {"id": 2}]}, {"id": "b", "items": [{"id": 3}]},
                                 {"id": "c", "title": "C", "items": [{"id": 4}, {"id": 5}]},
                                 {"id": "d", "items": [{"id": 6}]}]},
            "new": {"sections": [{"id": "c", "title": "C2", "items": [{"id": 5}, {"id": 4}]},
                                 {"id": "e", "items": [{"id": 7}]},
                                 {"id": "a", "items": [{"id": 1, "x": True}, {"id": 8}]}, {"id": "d", "items": []}]},
            "options": {"renderings": ["sequential"]}})
        decoded = answer(diff.sync_detailed(client=client, body=body), DiffResponse, 200)
        expect(isinstance(decoded.staged, Unset), "staged sent although not asked for")
        every = {RemoveSection: "removeSection", RemoveElement: "removeElement", MoveSection: "moveSection",
                 InsertSection: "insertSection", MoveElement: "moveElement", InsertElement: "insertElement",
                 UpdateElement: "updateElement", UpdateSection: "updateSection"}
        kinds = {type(operation) for operation in decoded.sequential}
        expect(kinds == set(every), f"operation kinds {sorted(kind.__name__ for kind in kinds)}")
        for operation in decoded.sequential:
            expect(operation.op.value == every[type(operation)],
                   f"{type(operation).__name__} carries op {operation.op.value}")
    check("POST /diff sequential: all eight operations, each its own model", every_operation)

    # Ranges and ids: every range kind decodes as its own model, ids beside every entry.
    def ranges_with_ids():
        body = request(DiffRequest, {
            "old": {"sections": [{"id": "a", "items": [{"id": 1}, {"id": 2}, {"id": 3}]}, {"id": "b", "items": []},
                                 {"id": "c", "title": "C", "items": [{"id": 4}]}]},
            "new": {"sections": [{"id": "c", "title": "C2", "items": [{"id": 4, "x": 1}]}, {"id": "e", "items": []},
                                 {"id": "a", "items": [{"id": 3}, {"id": 8}, {"id": 9}]}]},
            "options": {"renderings": ["staged", "sequential", "ranges"], "ids": True}})
        decoded = answer(diff.sync_detailed(client=client, body=body), DiffResponse, 200)
        expect(all(not isinstance(stage.ids, Unset) for stage in decoded.staged), "a stage without ids")
        kinds = {type(operation).__name__ for operation in decoded.ranges}
        expect(kinds == {"RemoveSections", "RemoveElements", "MoveSection", "InsertSections", "InsertElements",
                         "UpdateElements", "UpdateSections"}, f"range kinds {sorted(kinds)}")
        ids = [i for operation in decoded.ranges
               for i in (operation.ids if hasattr(operation, "ids") else [operation.id])]
        expect(ids == ["b", 1, 2, "a", "e", 8, 9, 4, "c"], f"ids {ids}")
    check("POST /diff ranges with ids: each range its own model, ids beside every entry", ranges_with_ids)

    # Layouts in /diff: a named section, paged, a full-width item (column null).
    settings = {"containerWidth": 375, "scale": 3, "columns": 2, "columnSpacing": 8, "itemSpacing": 8}

    def diff_layouts():
        body = request(DiffRequest, {
            "old": {"sections": [{"id": "photos", "items": [{"id": "p1", "aspectRatio": 1}]}]},
            "new": {"sections": [{"id": "photos", "items": [
                {"id": "banner", "fixedHeight": 40, "fullWidth": True}, {"id": "p1", "aspectRatio": 1},
                {"id": 2, "width": 800, "height": 1200}]}]},
            "options": {"layouts": [{"section": "photos", "settings": settings, "pageSize": 2}]}})
        decoded = answer(diff.sync_detailed(client=client, body=body), DiffResponse, 200)
        expect(len(decoded.layouts) == 1, f"{len(decoded.layouts)} layouts")
        page = decoded.layouts[0]
        expect(page.section == "photos", f"section {page.section!r}")
        expect([(item.id, item.column) for item in page.items] == [("banner", None), ("p1", 0)],
               f"items {[item.to_dict() for item in page.items]}")
        expect(page.changed_frames == ["p1"], f"changedFrames {page.changed_frames}")
        expect(isinstance(page.next_cursor, str) and page.next_cursor, "no nextCursor")
    check("POST /diff with layouts (named section, full-width item, pageSize)", diff_layouts)

    def diff_layouts_bare():
        body = request(DiffRequest, {
            "old": {"items": [{"id": 1, "aspectRatio": 1}]},
            "new": {"items": [{"id": 2, "aspectRatio": 2}, {"id": 1, "aspectRatio": 1}]},
            "options": {"layouts": [{"settings": settings}]}})
        decoded = answer(diff.sync_detailed(client=client, body=body), DiffResponse, 200)
        expect(decoded.layouts[0].section is None, f"section {decoded.layouts[0].section!r}")
        expect([item.id for item in decoded.layouts[0].items] == [2, 1], "items")
    check("POST /diff with a layout of a bare item list (section null)", diff_layouts_bare)

    # /layout: the README's two pages through the cursor, then a cursor from other settings.
    pages: dict[str, Any] = {}

    def layout_pages():
        first = answer(layout.sync_detailed(client=client, body=request(LayoutRequest, {
            "settings": settings, "pageSize": 2,
            "items": [{"id": "p1", "aspectRatio": 1.5}, {"id": "p2", "width": 800, "height": 1200},
                      {"id": "p3", "aspectRatio": 1, "extraHeight": 24}]})), LayoutPage, 200)
        expect([(item.id, item.column) for item in first.items] == [("p1", 0), ("p2", 1)], "first page items")
        expect(first.column_heights == [122.0, 275.0], f"columnHeights {first.column_heights}")
        pages["cursor"] = first.next_cursor
        second = answer(layout.sync_detailed(client=client, body=request(LayoutRequest, {
            "settings": settings, "cursor": first.next_cursor,
            "items": [{"id": "p3", "aspectRatio": 1, "extraHeight": 24},
                      {"id": "footer", "fixedHeight": 10, "fullWidth": True}]})), LayoutPage, 200)
        expect(second.first_index == 2, f"firstIndex {second.first_index}")
        p3, footer = second.items
        expect((p3.id, p3.column, p3.frame.y) == ("p3", 0, 130.0), f"{p3.to_dict()}")
        expect((footer.column, footer.frame.x) == (None, 0.0), f"{footer.to_dict()}")
        expect(second.columns == [["p3"], []], f"columns {second.columns}")
    check("POST /layout: two pages through the cursor (the README's example)", layout_pages)

    # The operations routes.
    def operations():
        expect(answer(health.sync_detailed(client=client), Status, 200).status.value == "ok", "healthz")
        expect(answer(ready.sync_detailed(client=client), Status, 200).status.value == "ready", "readyz")
        about = answer(index.sync_detailed(client=client), Index, 200)
        expect(about.name == "snapdiff" and about.links["diff"] == "/diff", f"{about.to_dict()}")
        text = metrics.sync_detailed(client=client)
        expect(text.status_code == 200 and isinstance(text.parsed, str), f"metrics {text.status_code}")
        expect("snapdiff_http_requests_total{" in text.parsed, "no request counter in /metrics")
        document = openapi.sync_detailed(client=client)
        expect(document.status_code == 200 and isinstance(document.parsed, str), f"openapi {document.status_code}")
        with open(arguments.spec, encoding="utf-8") as file:
            expect(document.parsed == file.read(), "GET /openapi.yaml differs from openapi.yaml")
    check("GET /healthz, /readyz, /, /metrics and /openapi.yaml", operations)

    # HEAD on every GET path (the GET's head, no body) and OPTIONS on every path (204 with Allow).
    def heads_and_options():
        for operation in (head_index, head_health, head_ready, head_metrics, head_open_api):
            sent = operation.sync_detailed(client=client)
            expect(sent.status_code == 200 and sent.content == b"", f"{operation.__name__} {int(sent.status_code)}")
            expect(int(sent.headers.get("content-length", "0")) > 0, f"{operation.__name__} without Content-Length")
        for operation, allow in ((options_index, "GET, HEAD, OPTIONS"), (options_diff, "POST, OPTIONS"),
                                 (options_layout, "POST, OPTIONS"), (options_health, "GET, HEAD, OPTIONS"),
                                 (options_ready, "GET, HEAD, OPTIONS"), (options_metrics, "GET, HEAD, OPTIONS"),
                                 (options_open_api, "GET, HEAD, OPTIONS")):
            sent = operation.sync_detailed(client=client)
            expect(sent.status_code == 204 and sent.headers.get("allow") == allow,
                   f"{operation.__name__} {int(sent.status_code)} Allow {sent.headers.get('allow')}")
    check("HEAD on every GET path, OPTIONS on every path", heads_and_options)

    # Each error class, decoded by the generated operation (or the Problem model where no operation has
    # the route or method) as the problem it is.
    raw = client.get_httpx_client()

    def malformed():
        sent = raw.post("/diff", content=b'{"old": {"items": []},\n "new": {"items": [1,,2]}}',
                        headers={"Content-Type": "application/json"})
        decoded = problem(diff._build_response(client=client, response=sent), 400, "malformed-json")
        expect((decoded.line, decoded.column) == (2, 22), f"line {decoded.line} column {decoded.column}")
    check("400 malformed-json", malformed)

    def not_found():
        sent = raw.get("/nope")
        expect(sent.status_code == 404, f"status {sent.status_code}")
        decoded = Problem.from_dict(sent.json())
        expect(decoded.to_dict() == sent.json(), "Problem does not re-encode to the body")
        expect(decoded.type_ == ProblemType("urn:snapdiff:problem:not-found"), f"type {decoded.type_}")
    check("404 not-found", not_found)

    def not_allowed():
        sent = raw.get("/diff")
        decoded = problem(diff._build_response(client=client, response=sent), 405, "method-not-allowed")
        expect(sent.headers.get("allow") == "POST, OPTIONS", f"Allow {sent.headers.get('allow')}")
        expect(decoded.instance == "/diff", f"instance {decoded.instance}")
    check("405 method-not-allowed", not_allowed)

    def mismatch():
        expect("cursor" in pages, "no cursor from the /layout check")
        body = request(LayoutRequest, {"settings": {**settings, "columns": 3}, "cursor": pages["cursor"],
                                       "items": []})
        problem(layout.sync_detailed(client=client, body=body), 409, "cursor-mismatch")
    check("409 cursor-mismatch (a cursor from other settings)", mismatch)

    def too_large():
        count = BODY_LIMIT // 10
        body = request(DiffRequest, {"old": {"items": [{"id": i} for i in range(count)]}, "new": {"items": []}})
        decoded = problem(diff.sync_detailed(client=client, body=body), 413, "content-too-large")
        expect(decoded.limit == BODY_LIMIT, f"limit {decoded.limit}")
    check("413 content-too-large", too_large)

    def unsupported():
        sent = raw.post("/diff", content=b"{}", headers={"Content-Type": "text/plain"})
        problem(diff._build_response(client=client, response=sent), 415, "unsupported-media-type")
    check("415 unsupported-media-type", unsupported)

    def duplicates():
        body = request(DiffRequest, {"old": {"items": [{"id": 7}, {"id": 7}]}, "new": {"items": [{"id": "7"}]}})
        decoded = problem(diff.sync_detailed(client=client, body=body), 422, "duplicate-ids")
        expect([(d.snapshot.value, d.kind.value, d.id, d.paths) for d in decoded.duplicates] ==
               [("old", "item", 7, ["old.items[0]", "old.items[1]"])],
               f"duplicates {[d.to_dict() for d in decoded.duplicates]}")
    check("422 duplicate-ids", duplicates)

    def field_errors():
        body = request(LayoutRequest, {"settings": settings, "items": [{"id": "a", "aspectRatio": 1}, {"id": "b"}]})
        decoded = problem(layout.sync_detailed(client=client, body=body), 422, "invalid-request")
        expect([error.path for error in decoded.errors] == ["items[1]"], f"errors {decoded.to_dict()}")
        body = request(DiffRequest, {"old": {"items": []}, "new": {"items": []},
                                     "options": {"layouts": [{"section": 5, "settings": settings}]}})
        decoded = problem(diff.sync_detailed(client=client, body=body), 422, "invalid-request")
        expect([error.path for error in decoded.errors] == ["options.layouts[0].section"],
               f"errors {decoded.to_dict()}")
    check("422 invalid-request with field errors (/layout and /diff)", field_errors)

    print(f"python client check: {'all passed' if not failures else f'{len(failures)} failed'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
