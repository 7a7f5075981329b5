#!/usr/bin/env python3
"""The playground check: GET /playground in headless Chromium (Playwright), against a live `snapdiff serve`.

What must hold (each a named check; the first failure stops the run with what was seen):
  headers      /playground, its script and style sheet carry a Content-Security-Policy that allows only this
               origin and X-Content-Type-Options: nosniff; GET / links /playground.
  property     for --cases seeded random sectioned cases (section and item moves, moves across sections,
               deletes, inserts, section and item updates, bare lists, changes of form, integer and string ids,
               empty snapshots; now and then repeated ids with duplicates: keepFirst), the two snapshots put in the
               editors, Diff pressed, and every stage played with
               Play all: the cells shown equal `new`, section by section and item by item (ids and their kinds),
               and the page's own verdict says so. The same for the sequential rendering, an operation a step.
               Cases alternate between reduced motion and full animation (which must reach the same end).
  stepping     Next stage and Previous stage walk the stages one at a time: after k stages the cells equal
               old with the first k stages applied (computed here, independently of the page).
  malformed    a syntax error in either editor: the caret lands at the line and column the server reported,
               translated into that editor (the 400's offset located in the body the page sent).
  problems     a 422 for repeated ids lists every id with every path of the answer, and a click on a path
               selects exactly that member in the editor that holds it; a 422 for a wrong value likewise.
  waterfall    the control named Waterfall lays out the first preset at once; every drawn box is its frame in
               points (1 CSS pixel per point) and at least one device pixel tall; Next page adds the next page
               below without moving any box drawn before, until every item is drawn, and page by page equals
               /layout of all the items at once; Compare strategies draws every strategy's frames side by side.
  markup       ids and titles holding markup are shown as text: no element is created from them, no script runs.
  origin       no request of any check went to another origin than the server's.
  widths       at 375 and 1280 CSS pixels wide the page does not scroll sideways, in both views.
  keyboard     every control has an accessible name; the listed names exist; Diff and Next stage work from the
               keyboard (focus and Enter); reduced motion starts no animation, full motion does.

With --screenshots DIR it also writes playground-changeset.png (mid-animation) and playground-waterfall.png.
Nothing here waits a fixed time: every wait is for a state of the page.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import sys

from playwright.sync_api import sync_playwright

from snapdiff_server import Server

# ---------------------------------------------------------------------------------------------------------
# The service


def request(server, method, path, body=None):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=60)
    conn.request(method, path, body=body, headers={"Content-Type": "application/json"} if body is not None else {})
    response = conn.getresponse()
    data = response.read()
    conn.close()
    return response.status, dict(response.getheaders()), data


class CheckFailed(Exception):
    pass


def expect(condition, message):
    if not condition:
        raise CheckFailed(message)


# ---------------------------------------------------------------------------------------------------------
# Random cases


class Ids:
    """Fresh ids, strings and integers; now and then an integer's string twin (`7` and `"7"` are two ids)."""

    def __init__(self, rng):
        self.rng = rng
        self.next = 1
        self.integers = []

    def fresh(self, prefix):
        self.next += 1
        if self.integers and self.rng.random() < 0.05:
            return str(self.integers.pop())
        if self.rng.random() < 0.3:
            self.integers.append(100000 + self.next)
            return 100000 + self.next
        return f"{prefix}{self.next}"


def random_case(rng):
    ids = Ids(rng)
    words = ["Kyoto", "ramen", "trains", "snow", "tea", "onsen", "news", "photo", "sale", "Ω", "日本", "café"]

    def title():
        return " ".join(rng.choice(words) for _ in range(rng.randint(1, 3)))

    def item():
        value = {"id": ids.fresh("i")}
        if rng.random() < 0.8:
            value["title"] = title()
        if rng.random() < 0.4:
            value["likes"] = rng.randint(0, 50)
        return value

    def section():
        value = {"id": ids.fresh("s"), "items": [item() for _ in range(rng.randint(0, 5))]}
        if rng.random() < 0.6:
            value["title"] = title()
        return value

    def updated(value):
        value = dict(value)
        choice = rng.random()
        if choice < 0.5:
            value["title"] = title() + "!"
        elif choice < 0.8:
            value["likes"] = value.get("likes", 0) + 1
        else:
            value.pop("title", None)
            value["badge"] = "new"
        return value

    old_bare = rng.random() < 0.15
    new_bare = old_bare if rng.random() < 0.85 else not old_bare
    old_sections = [{"id": None, "items": [item() for _ in range(rng.randint(0, 8))]}] if old_bare \
        else [section() for _ in range(rng.randint(0, 5))]

    if new_bare:
        kept = [i for s in old_sections for i in s["items"] if rng.random() < 0.75]
        kept = [updated(i) if rng.random() < 0.2 else i for i in kept]
        partially_shuffled(rng, kept)
        for _ in range(rng.randint(0, 3)):
            kept.insert(rng.randint(0, len(kept)), item())
        new_sections = [{"id": None, "items": kept}]
    else:
        sections = [] if old_bare else [s for s in old_sections if rng.random() < 0.8]
        sections = [dict(s, items=[]) for s in sections]
        sections = [updated(s) if rng.random() < 0.15 else s for s in sections]
        partially_shuffled(rng, sections)
        for _ in range(rng.randint(0, 2)):
            sections.insert(rng.randint(0, len(sections)), section())
        fresh_ids = {id(s) for s in sections if s.get("items")}
        targets = [s for s in sections if id(s) not in fresh_ids] or sections
        old_positions = {}
        for s_index, s in enumerate(old_sections):
            for i in s["items"]:
                old_positions[json.dumps(i["id"])] = s_index
        if targets:
            for s_index, s in enumerate(old_sections):
                for i in s["items"]:
                    if rng.random() < 0.2:
                        continue  # deleted
                    i = updated(i) if rng.random() < 0.2 else i
                    home = next((t for t in targets if t["id"] == s["id"]), None)
                    if home is None or rng.random() < 0.2:
                        home = rng.choice(targets)  # moved across sections
                    home["items"].append(i)
            for s in targets:
                partially_shuffled(rng, s["items"])
                for _ in range(rng.randint(0, 2) if rng.random() < 0.5 else 0):
                    s["items"].insert(rng.randint(0, len(s["items"])), item())
        new_sections = sections

    def snapshot(sections, bare):
        return {"items": sections[0]["items"]} if bare else {"sections": sections}

    old, new = snapshot(old_sections, old_bare), snapshot(new_sections, new_bare)
    repeats = rng.random() < 0.12
    if repeats:
        for side in rng.sample([old, new], rng.randint(1, 2)):
            with_repeats(rng, side, item)
    return old, new, repeats


def with_repeats(rng, snapshot, item):
    """Repeats an id or two in a snapshot (for duplicates: keepFirst): an item's id elsewhere with other content,
    and now and then a section's id, with items of its own and a repeated one."""
    sections = snapshot["sections"] if "sections" in snapshot else [snapshot]
    every = [i for s in sections for i in s["items"]]
    if every and sections:
        repeated = dict(rng.choice(every), title="a repeat")
        rng.choice(sections)["items"].insert(0, repeated)
    if "sections" in snapshot and sections and rng.random() < 0.5:
        again = {"id": rng.choice(sections)["id"], "items": [item()] + ([dict(rng.choice(every))] if every else [])}
        sections.insert(rng.randint(1, len(sections)), again)


def kept_first(snapshot):
    """The snapshot as duplicates: keepFirst diffs it: a repeated section dropped with its items, then every
    later occurrence of an item id among the sections kept."""
    if "sections" not in snapshot:
        seen, items = set(), []
        for i in snapshot["items"]:
            if json.dumps(i["id"]) not in seen:
                seen.add(json.dumps(i["id"]))
                items.append(i)
        return {"items": items}
    seen_sections, sections = set(), []
    for s in snapshot["sections"]:
        if json.dumps(s["id"]) not in seen_sections:
            seen_sections.add(json.dumps(s["id"]))
            sections.append(dict(s))
    seen = set()
    for s in sections:
        kept = []
        for i in s["items"]:
            if json.dumps(i["id"]) not in seen:
                seen.add(json.dumps(i["id"]))
                kept.append(i)
        s["items"] = kept
    return {"sections": sections}


def partially_shuffled(rng, values):
    for _ in range(rng.randint(0, 3)):
        if len(values) > 1:
            a, b = rng.randrange(len(values)), rng.randrange(len(values))
            values.insert(b, values.pop(a))


def encode(value, rng):
    """The snapshot as an editor would hold it: pretty, compact, or with odd whitespace."""
    choice = rng.random()
    if choice < 0.4:
        return json.dumps(value, indent=2, ensure_ascii=False)
    if choice < 0.8:
        return json.dumps(value, ensure_ascii=False)
    return json.dumps(value, indent="\t", ensure_ascii=rng.random() < 0.5, separators=(" ,", " : "))


def expected_cells(snapshot):
    """[(section id, [item ids])] as the preview must show them: ids as (kind, text)."""
    def key(value):
        if value is None:
            return ("null", "")
        if isinstance(value, int):
            return ("integer", str(value))
        return ("string", value)

    if "sections" in snapshot:
        return [(key(s["id"]), [key(i["id"]) for i in s["items"]]) for s in snapshot["sections"]]
    return [(key(None), [key(i["id"]) for i in snapshot["items"]])]


# ---------------------------------------------------------------------------------------------------------
# The page

READ_PREVIEW = """() => [...document.querySelectorAll('#preview [data-section-id]')].map(s => [
  [s.dataset.idType, s.dataset.sectionId],
  [...s.querySelectorAll('[data-item-id]')].map(c => [c.dataset.idType, c.dataset.itemId])])"""


def shown_cells(page):
    return [(tuple(section), [tuple(cell) for cell in cells]) for section, cells in page.evaluate(READ_PREVIEW)]


class Playground:
    def __init__(self, browser, server, requests, reduced):
        self.server = server
        self.context = browser.new_context(viewport={"width": 1280, "height": 900},
                                           reduced_motion="reduce" if reduced else "no-preference")
        self.context.set_default_timeout(120_000)  # a busy machine may be slow; every wait is for a state
        self.page = self.context.new_page()
        self.page.on("request", lambda request: requests.append(request.url))
        self.errors = []
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.page.on("console", lambda message: self.errors.append(message.text)
                     if message.type == "error" and not message.text.startswith("Failed to load resource") else None)
        # Counts every animation the page starts, finished or not (document.getAnimations() forgets finished ones).
        self.page.add_init_script("""(() => { window.__animations = 0; const animate = Element.prototype.animate;
            Element.prototype.animate = function (...args) { window.__animations += 1; return animate.apply(this, args); };
        })()""")
        self.response = self.page.goto(f"{server.origin}/playground")
        self.page.wait_for_selector("body[data-ready=true]")

    def close(self):
        self.context.close()

    def expect_no_errors(self):
        expect(not self.errors, f"the page reported errors: {self.errors}")

    def button(self, name):
        return self.page.get_by_role("button", name=name, exact=True)

    def set_snapshots(self, old_text, new_text):
        self.page.get_by_label("Old snapshot", exact=True).fill(old_text)
        self.page.get_by_label("New snapshot", exact=True).fill(new_text)

    def set_options(self, renderings=("staged", "sequential"), ids=True, changed=False, duplicates="reject"):
        for box in self.page.locator('input[name="rendering"]').all():
            box.set_checked(box.get_attribute("value") in renderings)
        self.page.locator("#opt-ids").set_checked(ids)
        self.page.locator("#opt-changed").set_checked(changed)
        self.page.locator("#opt-duplicates").select_option(duplicates)

    def diff(self):
        with self.page.expect_response(lambda r: r.url.endswith("/diff")) as info:
            self.button("Diff").click()
        response = info.value
        self.page.wait_for_function("() => !document.getElementById('diff').disabled")
        return response

    def play(self, mode):
        page = self.page
        page.locator("#play-mode").select_option(mode)
        page.wait_for_selector("#preview:is([data-state=ready], [data-state=done])")
        if page.locator("#preview").get_attribute("data-state") == "ready":
            self.button("Play all").click()
        page.wait_for_selector("#preview[data-state=done]")
        return shown_cells(page)

    def verdict(self):
        return self.page.locator("#verdict").get_attribute("data-verdict"), self.page.locator("#verdict").inner_text()


# ---------------------------------------------------------------------------------------------------------
# Checks


def check_headers(server):
    for path, kind in [("/playground", "text/html"), ("/playground.js", "text/javascript"), ("/playground.css", "text/css")]:
        status, headers, body = request(server, "GET", path)
        expect(status == 200, f"GET {path}: {status}")
        expect(headers.get("Content-Type", "").startswith(kind), f"GET {path}: Content-Type {headers.get('Content-Type')}")
        policy = headers.get("Content-Security-Policy", "")
        for directive in ["default-src 'none'", "script-src 'self'", "style-src 'self'", "connect-src 'self'",
                          "frame-ancestors 'none'"]:
            expect(directive in policy, f"GET {path}: the CSP lacks {directive!r}: {policy!r}")
        expect("unsafe-inline" not in policy and "unsafe-eval" not in policy and "http" not in policy,
               f"GET {path}: the CSP allows more than this origin: {policy!r}")
        expect(headers.get("X-Content-Type-Options") == "nosniff", f"GET {path}: no X-Content-Type-Options: nosniff")
    status, _, body = request(server, "GET", "/")
    expect(json.loads(body)["links"].get("playground") == "/playground", f"GET / does not link /playground: {body!r}")
    _, _, html = request(server, "GET", "/playground")
    expect(b"<script>" not in html and b" style=" not in html and b"http://" not in html and b"https://" not in html,
           "the page has inline script or style, or names another origin")
    print("headers: ok (CSP on the page, its script and its style sheet; GET / links /playground)")


def check_property(browser, server, requests, cases, seed):
    rng = random.Random(seed)
    played = {"staged": 0, "sequential": 0}
    steps = {"staged": 0, "sequential": 0}
    shapes = {"bare": 0, "sectioned": 0, "change of form": 0, "keepFirst": 0}
    animated = 0
    playgrounds = {reduced: Playground(browser, server, requests, reduced) for reduced in (True, False)}
    try:
        for case in range(cases):
            old, new, repeats = random_case(rng)
            shapes["keepFirst"] += repeats
            reduced = case % 25 != 0  # every 25th case plays with full animation
            animated += not reduced
            playground = playgrounds[reduced]
            shapes["change of form" if ("items" in old) != ("items" in new) else "bare" if "items" in old else "sectioned"] += 1
            playground.set_snapshots(encode(old, rng), encode(new, rng))
            playground.set_options(ids=rng.random() < 0.5, duplicates="keepFirst" if repeats else "reject")
            response = playground.diff()
            context = f"case {case} (seed {seed}):\nold {json.dumps(old)}\nnew {json.dumps(new)}"
            expect(response.status == 200, f"{context}\n/diff answered {response.status}: {response.text()}")
            answer = response.json()
            want = expected_cells(kept_first(new))
            for mode in ("staged", "sequential"):
                cells = playground.play(mode)
                verdict, text = playground.verdict()
                expect(cells == want, f"{context}\nafter playing {mode} the preview shows\n{cells}\nnew is\n{want}\nanswer {json.dumps(answer)}")
                expect(verdict == "equal", f"{context}\nthe page's verdict after {mode}: {text}")
                played[mode] += 1
                steps[mode] += len(answer[mode])
            for p in playgrounds.values():
                expect(not p.errors, f"{context}\nthe page reported errors: {p.errors}")
    finally:
        for p in playgrounds.values():
            p.close()
    print(f"property: ok ({cases} random cases, seed {seed}: {shapes['sectioned']} sectioned, {shapes['bare']} bare, "
          f"{shapes['change of form']} changes of form, {shapes['keepFirst']} with repeated ids kept first; {steps['staged']} stages and {steps['sequential']} sequential "
          f"operations played, each case ending equal to new; {animated} with full animation)")


def apply_stage_reference(sections, stage, new_sections):
    """Old with one stage applied, as UIKit applies one batch update: sections as [(id, [item ids])]."""
    sections = [[sid, list(items)] for sid, items in sections]
    for s, i in sorted(stage["elementDeleted"], reverse=True):
        del sections[s][1][i]
    for s in sorted(stage["sectionDeleted"], reverse=True):
        del sections[s]
    if stage["sectionInserted"] or stage["sectionMoved"]:
        moved = {f for f, _ in stage["sectionMoved"]}
        result = [None] * (len(sections) + len(stage["sectionInserted"]))
        for f, t in stage["sectionMoved"]:
            result[t] = sections[f]
        for t in stage["sectionInserted"]:
            result[t] = [new_sections[t][0], list(new_sections[t][1])]
        rest = iter(s for k, s in enumerate(sections) if k not in moved)
        sections = [slot if slot is not None else next(rest) for slot in result]
    if stage["elementInserted"] or stage["elementMoved"]:
        moved = {tuple(f) for f, _ in stage["elementMoved"]}
        placed = [dict() for _ in sections]
        for (fs, fi), (ts, ti) in stage["elementMoved"]:
            placed[ts][ti] = sections[fs][1][fi]
        for ts, ti in stage["elementInserted"]:
            placed[ts][ti] = new_sections[ts][1][ti]
        kept = [[item for k, item in enumerate(items) if (s, k) not in moved] for s, (_, items) in enumerate(sections)]
        for s, (sid, _) in enumerate(sections):
            rest = iter(kept[s])
            size = len(kept[s]) + len(placed[s])
            sections[s] = [sid, [placed[s][k] if k in placed[s] else next(rest) for k in range(size)]]
    return [(sid, items) for sid, items in sections]


def apply_operation_reference(sections, op, new_sections):
    """A list with one sequential operation applied (each index refers to the list the previous ones left)."""
    sections = [[sid, list(items)] for sid, items in sections]
    kind = op["op"]
    if kind == "removeSection":
        del sections[op["section"]]
    elif kind == "removeElement":
        del sections[op["path"][0]][1][op["path"][1]]
    elif kind == "moveSection":
        sections.insert(op["to"], sections.pop(op["from"]))
    elif kind == "insertSection":
        sections.insert(op["section"], [new_sections[op["section"]][0], list(new_sections[op["section"]][1])])
    elif kind == "moveElement":
        (fs, fi), (ts, ti) = op["from"], op["to"]
        sections[ts][1].insert(ti, sections[fs][1].pop(fi))
    elif kind == "insertElement":
        s_, i = op["path"]
        sections[s_][1].insert(i, new_sections[s_][1][i])
    return [(sid, items) for sid, items in sections]


def check_stepping(browser, server, requests):
    playground = Playground(browser, server, requests, reduced=True)
    page = playground.page
    try:
        page.locator("#preset").select_option(index=0)  # the home screen: five stages
        playground.set_options()
        response = playground.diff()
        expect(response.status == 200, f"the home screen preset: {response.status}")
        answer = response.json()
        old = json.loads(page.get_by_label("Old snapshot", exact=True).input_value())
        new = json.loads(page.get_by_label("New snapshot", exact=True).input_value())
        page.locator("#play-mode").select_option("staged")
        expected = [expected_cells(old)]
        for stage in answer["staged"]:
            expected.append(apply_stage_reference(expected[-1], stage, expected_cells(new)))
        expect(expected[-1] == expected_cells(new), "the reference applier does not reach new (the check is wrong)")
        expect(len(answer["staged"]) >= 4, f"the home screen preset should show several stages: {answer['staged']}")
        expect(shown_cells(page) == expected[0], "before the first stage the preview is not old")
        for k in range(1, len(expected)):
            playground.button("Next stage").click()
            page.wait_for_selector(f"#preview[data-step='{k}']:is([data-state=ready], [data-state=done])")
            expect(shown_cells(page) == expected[k], f"after stage {k}: {shown_cells(page)}, want {expected[k]}")
        expect(playground.button("Next stage").is_disabled(), "Next stage is enabled after the last stage")
        for k in range(len(expected) - 2, -1, -1):
            playground.button("Previous stage").click()
            page.wait_for_selector(f"#preview[data-step='{k}']")
            expect(shown_cells(page) == expected[k], f"back to stage {k}: {shown_cells(page)}, want {expected[k]}")
        expect(playground.button("Previous stage").is_disabled(), "Previous stage is enabled at old")
        # The sequential rendering, an operation a step.
        page.locator("#play-mode").select_option("sequential")
        page.wait_for_selector("#preview[data-step='0'][data-state=ready]")
        reference = expected_cells(old)
        for k, op in enumerate(answer["sequential"], start=1):
            reference = apply_operation_reference(reference, op, expected_cells(new))
            playground.button("Next stage").click()
            page.wait_for_selector(f"#preview[data-step='{k}']:is([data-state=ready], [data-state=done])")
            expect(shown_cells(page) == reference, f"after operation {k} ({op}): {shown_cells(page)}, want {reference}")
        expect(reference == expected_cells(new), "the sequential reference does not reach new (the check is wrong)")
        playground.expect_no_errors()
    finally:
        playground.close()
    print(f"stepping: ok (the home screen's {len(expected) - 1} stages forward and back, and its "
          f"{len(answer['sequential'])} sequential operations, each equal to an independent applier)")


def caret(page, label):
    return page.evaluate("""(label) => {
      const area = [...document.querySelectorAll('textarea')].find(a => a.labels[0].textContent === label);
      const before = area.value.slice(0, area.selectionStart);
      return {line: before.split('\\n').length, column: [...before.slice(before.lastIndexOf('\\n') + 1)].length + 1,
              focused: document.activeElement === area};
    }""", label)


def place_in(text, byte_offset):
    """(line, column) of a byte offset of a UTF-8 text, columns in characters."""
    prefix = text.encode()[:byte_offset].decode(errors="ignore")
    return prefix.count("\n") + 1, len(prefix) - (prefix.rfind("\n") + 1) + 1


def check_malformed(browser, server, requests):
    playground = Playground(browser, server, requests, reduced=True)
    page = playground.page
    cases = [
        # (editor, its text, the line the error is on)
        ("New snapshot", '{\n  "items": [\n    {"id": "a", "title": "Café"}\n    {"id": "b"}\n  ]\n}', 4),
        ("Old snapshot", '{\n  "sections": [\n    {"id": "日本", "items": [{"id": 1, "title": "unterminated}]}\n  ]\n}', 3),
        ("New snapshot", '{"items": [{"id": "x"}, {"id": "y", "likes": 01}]}', 1),
    ]
    try:
        for editor, text, line in cases:
            good = '{"items": [{"id": "x"}]}'
            playground.set_snapshots(text if editor == "Old snapshot" else good, text if editor == "New snapshot" else good)
            with page.expect_request(lambda r: r.url.endswith("/diff")) as sent:
                response = playground.diff()
            expect(response.status == 400, f"{editor} malformed: {response.status} {response.text()}")
            problem = response.json()
            body = sent.value.post_data
            start = body.encode().index(text.encode())
            want_line, want_column = place_in(text, problem["offset"] - start)
            expect(0 <= problem["offset"] - start <= len(text.encode()), f"the server's offset {problem['offset']} is outside {editor}")
            got = caret(page, editor)
            expect(got["focused"], f"{editor} is not focused after a 400")
            expect((got["line"], got["column"]) == (want_line, want_column),
                   f"{editor}: the caret is at {got}, the server reported offset {problem['offset']} = line {want_line}, column {want_column} there")
            expect(want_line == line, f"{editor}: the server placed the error on line {want_line}, expected {line}")
            listed = page.locator("#problem-list button[data-editor]").first
            expect(listed.get_attribute("data-editor") == editor and listed.get_attribute("data-line") == str(want_line)
                   and listed.get_attribute("data-column") == str(want_column), "the problem does not name the place")
        # An Old snapshot whose brackets are never closed: the server reads on into the New snapshot's text and
        # reports its error there; the page names Old, where its own reader stopped (the end of the text).
        unclosed = '{\n  "items": [\n    {"id": 1},\n    {"id": 2}\n'
        playground.set_snapshots(unclosed, '{"items": [{"id": 1}]}')
        response = playground.diff()
        expect(response.status == 400, f"an unclosed Old snapshot: {response.status}")
        got = caret(page, "Old snapshot")
        expect(got["focused"] and (got["line"], got["column"]) == (5, 1),
               f"an unclosed Old snapshot: the caret is at {got}, not at its end (line 5, column 1)")
        playground.expect_no_errors()
    finally:
        playground.close()
    print(f"malformed: ok ({len(cases)} syntax errors, in both editors and after non-ASCII text: the caret at the server's "
          f"place; an unclosed editor named itself)")


def value_at(document, path):
    """The value a path of the answer (old.sections[1].items[0]) names in a parsed snapshot, and whether it
    ends in a member name."""
    value = document
    rest = path.split(".", 1)[1] if "." in path else ""
    named = False
    for token in rest.replace("[", ".[").split("."):
        if not token:
            continue
        if token.startswith("["):
            value = value[int(token[1:-1])]
            named = False
        else:
            value = value[token]
            named = True
    return value, named


def check_problems(browser, server, requests):
    playground = Playground(browser, server, requests, reduced=True)
    page = playground.page
    try:
        page.locator("#preset").select_option(label="Duplicate ids")
        playground.set_options(duplicates="reject")
        response = playground.diff()
        expect(response.status == 422, f"the duplicate ids preset: {response.status}")
        answer = response.json()
        expect(answer["duplicates"], "no duplicates in the answer")
        documents = {"old": json.loads(page.get_by_label("Old snapshot", exact=True).input_value()),
                     "new": json.loads(page.get_by_label("New snapshot", exact=True).input_value())}
        listed = page.locator("#problem-list li[data-problem=duplicate]")
        expect(listed.count() == len(answer["duplicates"]), f"{listed.count()} duplicates listed, the answer has {len(answer['duplicates'])}")
        clicked = 0
        for k, duplicate in enumerate(answer["duplicates"]):
            row = listed.nth(k)
            expect(str(duplicate["id"]) in row.inner_text() and duplicate["kind"] in row.inner_text(), f"row {k} does not name {duplicate}")
            for path in duplicate["paths"]:
                button = row.locator(f'button[data-path="{path}"]')
                expect(button.count() == 1, f"{path} of {duplicate['id']} is not listed")
                button.click()
                label = "Old snapshot" if path.startswith("old") else "New snapshot"
                selected = page.evaluate("""(label) => {
                  const area = [...document.querySelectorAll('textarea')].find(a => a.labels[0].textContent === label);
                  return {text: area.value.slice(area.selectionStart, area.selectionEnd), focused: document.activeElement === area};
                }""", label)
                value, _ = value_at(documents[path.split(".")[0]], path)
                expect(selected["focused"], f"{label} is not focused after clicking {path}")
                expect(json.loads(selected["text"]) == value, f"clicking {path} selected {selected['text']!r}, not {value}")
                clicked += 1
        # A wrong value: an object as an id, a string as items.
        playground.set_snapshots('{"sections": [{"id": "a", "items": [{"id": {"x": 1}}, {"id": "b"}]}]}',
                                 '{"sections": [{"id": "a", "items": "none"}]}')
        response = playground.diff()
        expect(response.status == 422, f"wrong values: {response.status}")
        errors = response.json()["errors"]
        for error in errors:
            button = page.locator(f'#problem-list button[data-path="{error["path"]}"]')
            expect(button.count() == 1, f"{error['path']} is not listed")
            button.click()
            label = "Old snapshot" if error["path"].startswith("old") else "New snapshot"
            text = page.evaluate("""(label) => {
              const area = [...document.querySelectorAll('textarea')].find(a => a.labels[0].textContent === label);
              return area.value.slice(area.selectionStart, area.selectionEnd); }""", label)
            value, named = value_at(json.loads(page.get_by_label(label, exact=True).input_value()), error["path"])
            expect(json.loads("{" + text + "}" if named else text) == ({error["path"].rsplit(".", 1)[1]: value} if named else value),
                   f"clicking {error['path']} selected {text!r}")
            clicked += 1
        playground.expect_no_errors()
    finally:
        playground.close()
    print(f"problems: ok ({len(answer['duplicates'])} repeated ids with all their paths, {len(errors)} wrong values; "
          f"{clicked} paths clicked, each selecting its member)")


READ_BOXES = """(canvas) => {
  const origin = canvas.getBoundingClientRect();
  return [...canvas.querySelectorAll('[data-item-id]')].map(node => {
    const box = node.getBoundingClientRect();
    return [node.dataset.itemId, box.left - origin.left, box.top - origin.top, box.width, box.height];
  });
}"""


def same_box(box, frame, tolerance=0.035):
    """Equal within two 1/64 pixel steps (Chromium lays boxes out in 1/64 pixels; a box and its canvas each snap)."""
    return all(abs(a - b) <= tolerance for a, b in zip(box, (frame["x"], frame["y"], frame["width"], frame["height"])))


def check_waterfall(browser, server, requests):
    playground = Playground(browser, server, requests, reduced=False)
    page = playground.page
    pages = []
    try:
        with page.expect_response(lambda r: r.url.endswith("/layout")) as info:
            page.get_by_role("button", name="Waterfall", exact=True).click()
        first = info.value.json()
        expect(info.value.status == 200, f"the first page: {info.value.status}")
        settings = json.loads(page.get_by_label("Layout settings", exact=True).input_value())
        items = json.loads(page.get_by_label("Layout items", exact=True).input_value())
        page.wait_for_selector(".wf-canvas[data-pages='1']")
        canvas = page.locator("#wf-stage .wf-canvas")
        drawn = {}
        pages.append(first)
        while True:
            boxes = {b[0]: b[1:] for b in canvas.evaluate(READ_BOXES)}
            for item in pages[-1]["items"]:
                key = str(item["id"])
                expect(key in boxes, f"{key} is not drawn")
                expect(same_box(boxes[key], item["frame"]), f"{key} is drawn at {boxes[key]}, its frame is {item['frame']}")
                expect(boxes[key][3] >= 1 / settings.get("scale", 1) - 1e-9, f"{key} is drawn less than one device pixel tall")
                drawn[key] = item["frame"]
            for key, frame in drawn.items():
                expect(same_box(boxes[key], frame), f"{key} moved when page {len(pages)} was added: {boxes[key]}, was {frame}")
            expect(len(boxes) == len(drawn), f"{len(boxes)} boxes drawn for {len(drawn)} items")
            if page.get_by_role("button", name="Next page", exact=True).is_disabled():
                break
            with page.expect_response(lambda r: r.url.endswith("/layout")) as info:
                page.get_by_role("button", name="Next page", exact=True).click()
            expect(info.value.status == 200, f"page {len(pages) + 1}: {info.value.status} {info.value.text()}")
            pages.append(info.value.json())
            page.wait_for_selector(f".wf-canvas[data-pages='{len(pages)}']")
            expect(canvas.get_attribute("data-moved") == "0", f"the page reports {canvas.get_attribute('data-moved')} moved items")
        expect(len(pages) >= 3 and len(drawn) == len(items), f"{len(pages)} pages drew {len(drawn)} of {len(items)} items")
        status, _, whole = request(server, "POST", "/layout", json.dumps({"settings": settings, "items": items}).encode())
        expect(status == 200, f"/layout of every item: {status}")
        for item in json.loads(whole)["items"]:
            expect(drawn[str(item["id"])] == item["frame"], f"{item['id']}: page by page {drawn[str(item['id'])]}, at once {item['frame']}")
        # Strategies side by side.
        responses = []
        page.on("response", lambda r: responses.append(r) if r.url.endswith("/layout") else None)
        page.get_by_role("button", name="Compare strategies", exact=True).click()
        page.wait_for_selector("#wf-compare-stage figure[data-strategy=balanced]")
        strategies = {}
        for response in responses:
            answer = response.json()
            strategies[answer["strategy"]] = answer
        expect(sorted(strategies) == ["balanced", "roundRobin", "sequentialSplit", "shortestColumn"], f"strategies laid out: {sorted(strategies)}")
        for strategy, answer in strategies.items():
            boxes = {b[0]: b[1:] for b in page.locator(f"#wf-compare-stage figure[data-strategy={strategy}] .wf-canvas").evaluate(READ_BOXES)}
            expect(len(boxes) == len(answer["items"]) == len(items), f"{strategy}: {len(boxes)} boxes")
            for item in answer["items"]:
                expect(same_box(boxes[str(item["id"])], item["frame"]), f"{strategy}: {item['id']} at {boxes[str(item['id'])]}, frame {item['frame']}")
        # Every preset lays out at once when picked.
        for index in range(1, page.locator("#wf-preset option").count()):
            before = int(page.locator("#wf-stage .wf-canvas").get_attribute("data-layout"))
            with page.expect_response(lambda r: r.url.endswith("/layout")) as info:
                page.locator("#wf-preset").select_option(index=index)
            expect(info.value.status == 200, f"waterfall preset {index}: {info.value.status}")
            page.wait_for_selector(f"#wf-stage .wf-canvas[data-layout='{before + 1}']")
            boxes = {b[0]: b[1:] for b in page.locator("#wf-stage .wf-canvas").evaluate(READ_BOXES)}
            for item in info.value.json()["items"]:
                expect(same_box(boxes[str(item["id"])], item["frame"]), f"preset {index}: {item['id']} misdrawn")
        expect(not playground.errors, f"the page reported errors: {playground.errors}")
        playground.expect_no_errors()
    finally:
        playground.close()
    print(f"waterfall: ok ({len(pages)} pages of {len(items)} items, every box its frame, none moved by a later page, "
          f"page by page equal to all at once; 4 strategies side by side; every preset)")


REGRESSIONS = [
    # Found by review: `-0` and `0` are one id to the server, so an update of `0` written `-0` must play.
    ('{"items": [{"id": 0}, {"id": 1}]}', '{"items": [{"id": 1}, {"id": -0, "t": 1}]}'),
    ('{"sections": [{"id": 0, "items": []}]}', '{"sections": [{"id": -0, "title": "x", "items": [{"id": 2}]}]}'),
    # `1` and `"1"` are two ids, in one snapshot and across sections.
    ('{"sections": [{"id": 1, "items": [{"id": 1}, {"id": "1"}]}, {"id": "1", "items": [{"id": 2}]}]}',
     '{"sections": [{"id": "1", "items": [{"id": "1"}, {"id": 2, "t": 1}]}, {"id": 1, "items": [{"id": 1}]}]}'),
    # Every item moved across sections, and into a section inserted beside a moved one.
    ('{"sections": [{"id": "a", "items": [{"id": 1}, {"id": 2}]}, {"id": "b", "items": [{"id": 3}]}]}',
     '{"sections": [{"id": "c", "items": [{"id": 4}]}, {"id": "b", "items": [{"id": 2}, {"id": 1}]}, '
     '{"id": "a", "items": [{"id": 3}]}]}'),
]


def check_presets_and_races(browser, server, requests):
    """Every preset answers as it says; the fixed regression cases play to new; a Diff pressed with Next stage
    (or Play all) in the same moment, and Next page pressed on broken items, leave the page consistent."""
    playground = Playground(browser, server, requests, reduced=False)
    page = playground.page
    try:
        names = page.locator("#preset option").all_inner_texts()
        for index, name in enumerate(names):
            page.locator("#preset").select_option(index=index)
            playground.set_options()
            status = playground.diff().status
            want = 400 if "Malformed" in name else 422 if "Duplicate" in name else 200
            expect(status == want, f"the preset {name!r} answered {status}, not {want}")
        for old, new in REGRESSIONS:  # as text: Python would write -0 as 0
            playground.set_snapshots(old, new)
            expect(playground.diff().status == 200, f"regression {old} -> {new} was not diffed")
            for mode in ("staged", "sequential"):
                cells = playground.play(mode)
                verdict, text = playground.verdict()
                expect(cells == expected_cells(json.loads(new)) and verdict == "equal",
                       f"regression {old} -> {new}, {mode}: {cells}; {text}")
        # Diff and a step in the same moment: the step waits for the answer (or the Diff for the step), and playing
        # the answer shown still reaches its new.
        for second in ("next-stage", "play-all"):
            page.locator("#preset").select_option(label="Chat list")
            playground.diff()
            page.wait_for_selector("#preview[data-state=ready]")
            page.locator("#preset").select_option(index=0)
            page.evaluate(f"() => {{ document.getElementById('diff').click(); document.getElementById('{second}').click(); }}")
            page.wait_for_function("() => document.getElementById('diff-status').textContent.startsWith('POST /diff answered')"
                                   " && !document.getElementById('diff').disabled")
            cells = playground.play("staged")
            new = json.loads(page.get_by_label("New snapshot", exact=True).input_value())
            expect(cells == expected_cells(new) and playground.verdict()[0] == "equal",
                   f"Diff with {second} at once: the preview ends as {cells}")
        # Next page on items that no longer parse: a message, and the view works again once they are fixed.
        with page.expect_response(lambda r: r.url.endswith("/layout")):
            page.get_by_role("button", name="Waterfall", exact=True).click()
        page.wait_for_selector(".wf-canvas[data-pages='1']")
        items = page.get_by_label("Layout items", exact=True)
        text = items.input_value()
        items.fill(text.rstrip() + ",")
        playground.button("Next page").click()
        page.wait_for_function("() => document.getElementById('wf-status').textContent.includes('not valid JSON')")
        items.fill(text)
        with page.expect_response(lambda r: r.url.endswith("/layout")) as info:
            playground.button("Next page").click()
        expect(info.value.status == 200, f"Next page after the items were fixed: {info.value.status}")
        page.wait_for_selector(".wf-canvas[data-pages='2']")
        playground.expect_no_errors()
    finally:
        playground.close()
    print(f"presets and races: ok ({len(names)} presets answer as named; {len(REGRESSIONS)} regressions played to new; "
          "Diff with Next stage or Play all at once; Next page on broken items, then fixed)")


def check_markup(browser, server, requests):
    playground = Playground(browser, server, requests, reduced=True)
    page = playground.page
    hostile = '<img src=x onerror="window.__owned=1"><b>bold</b>'
    try:
        old = {"sections": [{"id": hostile, "title": "<script>window.__owned=2</script>",
                             "items": [{"id": "<i>a</i>", "title": hostile}, {"id": "b"}]}]}
        new = {"sections": [{"id": hostile, "title": "<u>x</u>",
                             "items": [{"id": "b"}, {"id": "<i>a</i>", "title": hostile + "!"}, {"id": "</li><li>c"}]}]}
        playground.set_snapshots(json.dumps(old), json.dumps(new))
        playground.set_options(renderings=("staged", "sequential", "ranges", "jsonPatch"), changed=True)
        expect(playground.diff().status == 200, "the markup case was not diffed")
        cells = playground.play("staged")
        expect(cells == expected_cells(new), f"markup ids: {cells}")
        injected = page.evaluate("""() => ({
          images: document.querySelectorAll('main img, main b, main i, main u, main script').length,
          owned: window.__owned === undefined ? null : window.__owned,
          text: document.getElementById('preview').innerText + document.getElementById('answer').innerText })""")
        expect(injected["images"] == 0 and injected["owned"] is None, f"markup from the snapshots became elements: {injected}")
        expect(hostile in injected["text"] and "</li><li>c" in injected["text"], "the markup is not shown as text")
        playground.expect_no_errors()
    finally:
        playground.close()
    print("markup: ok (ids and titles with <img onerror>, <script> and </li> shown as text in the preview and the answer)")


def check_widths(browser, server, requests):
    for width in (375, 1280):
        context = browser.new_context(viewport={"width": width, "height": 800}, reduced_motion="reduce")
        context.set_default_timeout(120_000)
        page = context.new_page()
        page.on("request", lambda request: requests.append(request.url))
        page.goto(f"{server.origin}/playground")
        page.wait_for_selector("body[data-ready=true]")
        page.get_by_role("button", name="Diff", exact=True).click()
        page.wait_for_selector("#preview[data-state=ready]")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        expect(overflow <= 0, f"at {width} pixels the changeset view scrolls sideways by {overflow}")
        with page.expect_response(lambda r: r.url.endswith("/layout")):
            page.get_by_role("button", name="Waterfall", exact=True).click()
        page.wait_for_selector(".wf-canvas[data-pages='1']")
        overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
        expect(overflow <= 0, f"at {width} pixels the waterfall view scrolls sideways by {overflow}")
        context.close()
    print("widths: ok (375 and 1280 pixels wide, both views, no sideways scrolling)")


def check_keyboard(browser, server, requests):
    playground = Playground(browser, server, requests, reduced=True)
    page = playground.page
    try:
        unnamed = page.evaluate("""() => [...document.querySelectorAll('button, input, select, textarea')].filter(node => {
            const label = node.getAttribute('aria-label') || (node.labels && [...node.labels].map(l => l.textContent).join('')) || node.textContent;
            return !label.trim(); }).map(node => node.outerHTML)""")
        expect(not unnamed, f"controls without an accessible name: {unnamed}")
        for name in ["Diff", "Next stage", "Previous stage", "Play all", "Waterfall", "Changeset"]:
            expect(page.get_by_role("button", name=name, exact=True).count() == 1, f"no button named {name}")
        expect(page.get_by_role("region", name="List preview", exact=True).count() == 1, "no region named List preview")
        for label in ["Old snapshot", "New snapshot"]:
            expect(page.get_by_label(label, exact=True).evaluate("n => n.tagName") == "TEXTAREA", f"no editor labelled {label}")
        # Diff from the keyboard: Tab from the New snapshot through the options to the Diff button, then Enter.
        page.get_by_label("New snapshot", exact=True).focus()
        for _ in range(20):
            page.keyboard.press("Tab")
            if page.evaluate("() => document.activeElement.id") == "diff":
                break
        expect(page.evaluate("() => document.activeElement.id") == "diff", "Tab does not reach the Diff button")
        with page.expect_response(lambda r: r.url.endswith("/diff")):
            page.keyboard.press("Enter")
        page.wait_for_selector("#preview[data-state=ready]")
        page.get_by_role("button", name="Next stage", exact=True).focus()
        page.keyboard.press("Enter")
        page.wait_for_selector("#preview[data-step='1']:is([data-state=ready], [data-state=done])")
        expect(page.evaluate("() => window.__animations") == 0, "reduced motion still animates")
        playground.expect_no_errors()
    finally:
        playground.close()
    # Full motion: a step animates (moves slide, deletions leave) and still ends on the stage's list.
    playground = Playground(browser, server, requests, reduced=False)
    page = playground.page
    try:
        playground.diff()
        page.wait_for_selector("#preview[data-state=ready]")
        page.evaluate("""() => { window.__phases = []; new MutationObserver(() => window.__phases.push(
            document.getElementById('preview').dataset.phase)).observe(document.getElementById('preview'),
            {attributes: true, attributeFilter: ['data-phase']}); }""")
        page.get_by_role("button", name="Next stage", exact=True).click()
        page.wait_for_selector("#preview[data-step='1'][data-state=ready]")
        phases = page.evaluate("() => window.__phases")
        expect("moving" in phases and page.evaluate("() => window.__animations") > 0,
               f"a stage played without animation under full motion: {phases}")
        playground.expect_no_errors()
    finally:
        playground.close()
    print("keyboard: ok (every control named; Diff and Next stage by keyboard; reduced motion animates nothing, full motion does)")


def screenshot_changeset(browser, server, requests, directory):
    """The home screen preset mid-animation: its fourth stage (inserts and moves) paused halfway."""
    playground = Playground(browser, server, requests, reduced=False)
    page = playground.page
    try:
        page.set_viewport_size({"width": 1280, "height": 1100})
        playground.diff()
        page.wait_for_selector("#preview[data-state=ready]")
        for step in range(3):
            playground.button("Next stage").click()
            page.wait_for_selector(f"#preview[data-step='{step + 1}'][data-state=ready]")
        page.evaluate("""() => new Promise(resolve => {
            const preview = document.getElementById('preview');
            new MutationObserver((_, observer) => {
              if (preview.dataset.phase !== 'moving') return;
              observer.disconnect();
              for (const animation of document.getAnimations()) { animation.pause(); animation.currentTime = 200; }
              resolve();
            }).observe(preview, {attributes: true, attributeFilter: ['data-phase']});
            document.getElementById('next-stage').click();
        })""")
        box = page.locator(".results").bounding_box()
        page.screenshot(path=os.path.join(directory, "playground-changeset.png"), full_page=True,
                        clip={"x": 0, "y": box["y"] - 8, "width": 1280, "height": min(box["height"] + 16, 900)})
        playground.expect_no_errors()
    finally:
        playground.close()


def screenshot_waterfall(browser, server, requests, directory):
    """The three-column feed with full-width ads after Next page: the new page outlined below the first."""
    playground = Playground(browser, server, requests, reduced=False)
    page = playground.page
    try:
        page.set_viewport_size({"width": 900, "height": 1000})
        with page.expect_response(lambda r: r.url.endswith("/layout")):
            page.get_by_role("button", name="Waterfall", exact=True).click()
        with page.expect_response(lambda r: r.url.endswith("/layout")):
            page.locator("#wf-preset").select_option(index=1)
        page.wait_for_selector(".wf-canvas[data-pages='1']")
        with page.expect_response(lambda r: r.url.endswith("/layout")):
            playground.button("Next page").click()
        page.wait_for_selector(".wf-canvas[data-pages='2']")
        page.locator("#wf-stage").evaluate("(stage) => { stage.scrollTop = stage.scrollHeight / 4; }")
        top = page.locator("#wf-status").bounding_box()["y"] - 8
        page.screenshot(path=os.path.join(directory, "playground-waterfall.png"), full_page=True,
                        clip={"x": 0, "y": top, "width": 900, "height": 820})
        playground.expect_no_errors()
    finally:
        playground.close()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", required=True)
    parser.add_argument("--chromium", required=True)
    parser.add_argument("--cases", type=int, default=200)
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--screenshots", default=None)
    arguments = parser.parse_args()
    seed = arguments.seed if arguments.seed is not None else random.randrange(2**32)
    print(f"playground-check: seed {seed}, {arguments.cases} random cases")
    server = Server(arguments.binary, "playground-check")
    requests = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=arguments.chromium)
            print(f"playground-check: Chromium {browser.version}, server {server.origin}")
            check_headers(server)
            check_keyboard(browser, server, requests)
            check_stepping(browser, server, requests)
            check_malformed(browser, server, requests)
            check_problems(browser, server, requests)
            check_presets_and_races(browser, server, requests)
            check_markup(browser, server, requests)
            check_widths(browser, server, requests)
            if arguments.screenshots:
                os.makedirs(arguments.screenshots, exist_ok=True)
                screenshot_changeset(browser, server, requests, arguments.screenshots)
                screenshot_waterfall(browser, server, requests, arguments.screenshots)
            check_waterfall(browser, server, requests)
            check_property(browser, server, requests, arguments.cases, seed)
            others = sorted({r for r in requests if not r.startswith(server.origin + "/") and not r.startswith("data:")})
            expect(not others, f"requests to other origins: {others}")
            print(f"origin: ok ({len(requests)} requests, every one to {server.origin})")
            browser.close()
    except CheckFailed as failure:
        print(f"playground-check: FAILED (seed {seed}): {failure}", file=sys.stderr)
        sys.exit(1)
    finally:
        server.stop()
    print("playground-check: all passed")


if __name__ == "__main__":
    main()
