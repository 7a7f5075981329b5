"""The jsonPatch check behind scripts/jsonpatch-check (issue 17 item 4): POST /diff's `jsonPatch` rendering,
applied by an implementation written by others (PyPI `jsonpatch`), turns `old` into `new`.

For every case: POST /diff {"old", "new", "options": {"renderings": ["jsonPatch"], ...}} must answer 200
application/json with `counts` and `jsonPatch` (an array of RFC 6902 operations, only add, remove, move and
replace; no member name repeated in an object). Then:

1. `jsonpatch.JsonPatch(patch).apply(copy.deepcopy(old))` succeeds, and the result equals `new` as sent:
   the same JSON values, members in any order, numbers by exact decimal value (as the service compares
   content: 1 == 1.0 == 1e0, 9007199254740993 != 9007199254740992; true is not 1), strings by code points.
   This is all that is required with `duplicates: keepFirst` and when the snapshot changes form (a bare
   list on one side, sections on the other).
2. Otherwise, `counts`: the `move`s of items (`/sections/i/items/j`, or `/items/j` in a bare list) are
   `elementMoved` and those of sections (`/sections/i`) `sectionMoved`; the `remove`s and `add`s of items
   and sections are `elementDeleted`, `elementInserted`, `sectionDeleted`, `sectionInserted` (a moved item
   is one move, never a remove and an add); no `move` between an item and a section position.
3. And what openapi.yaml promises for the operations (check_operations): every path is a section, an item
   or a top-level member of one; an added (or replaced) item or section is the new snapshot's one with that
   id, written as sent (members in the same order, 1.0 still 1.0); an update is one add, replace or remove
   per top-level member that differs (never `id`, never a section's `items`, never a member whose value is
   the same, e.g. 1 and 1.0), each giving the member its value in new, as sent.
4. With `options.changedMembers` (a quarter of the cases): each listed item and section, found at its path
   in new, lists exactly its top-level members that differ from the old one with that id, in new's order,
   then those new no longer has, in old's order.

Requests are sent as plain UTF-8, with \\u escapes, or "wild" (escapes such as \\/ \\u007E \\uD83D\\uDE00 and
whitespace between tokens at random), since the service echoes values and reads member names as sent.

The fixed regression cases (REGRESSIONS) run first, then `--cases` random cases from `--seed` (printed): each
case has its own generator seeded by (seed, index), so `--seed S --case I` replays one case alone. A failing
case is shrunk while it keeps failing the same way (sections, items, members removed, values simplified) and
printed as the request and the answer (with its operations numbered), the first difference or the operation
that broke, and a curl command.

    jsonpatch_check.py --binary PATH [--cases N] [--seed S] [--case I] [--keep-going] [--no-shrink]
                       [--accept-only] [--reference sequential]

--keep-going reports every failing case (the first of each kind shrunk, the others one line each).
--accept-only sends the cases without asking for jsonPatch and checks only that each is accepted (200): the
generator against a build without the rendering. --reference sequential checks a patch translated here from
the `sequential` rendering instead of the service's own (a test of this checker; check 3 and the keepFirst
and form-change cases are skipped).
"""

from __future__ import annotations

import argparse
import copy
import http.client
import json
import os
import random
import shlex
import sys
import time
from decimal import Decimal

import jsonpatch
import jsonpointer

from snapdiff_server import Server

# ---------------------------------------------------------------------------------------------------------
# JSON: exact numbers, strict equality, an encoder for integers and decimal number tokens


class Num:
    """A JSON number token written as given (`1.0`, `1e0`, `2.5E-3`); its value is Decimal(text)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self):
        return self.text


def _members(pairs):
    out = dict(pairs)
    if len(out) != len(pairs):
        seen = set()
        repeated = next(k for k, _ in pairs if k in seen or seen.add(k))
        raise ValueError(f"member {repeated!r} repeated in one object")
    return out


def loads(data):
    """Parses JSON keeping every number exact (integers as int, the rest as Decimal); a member name repeated
    in one object is an error (Python would keep the last silently)."""
    return json.loads(data, parse_float=Decimal, object_pairs_hook=_members)


def encode(value, ascii_only=False) -> str:
    """Compact JSON; Num and Decimal are written as their text, dict members in their order."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, Num):
        return value.text
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=ascii_only)
    if isinstance(value, list):
        return "[" + ",".join(encode(v, ascii_only) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=ascii_only) + ":" + encode(v, ascii_only)
                              for k, v in value.items()) + "}"
    raise TypeError(f"not JSON: {value!r}")


def wild_string(text, rng):
    """A JSON string for text with escapes chosen at random: \\uXXXX in either case (surrogate pairs too),
    \\/ for /, the short forms or \\u for control characters, quote and backslash."""
    out = ['"']
    for ch in text:
        r, cp = rng.random(), ord(ch)
        hexed = lambda c: ("\\u%04X" if rng.random() < 0.5 else "\\u%04x") % c  # noqa: E731
        if ch in '"\\':
            out.append("\\" + ch if r < 0.6 else hexed(cp))
        elif cp < 0x20:
            out.append(json.dumps(ch)[1:-1] if r < 0.5 else hexed(cp))
        elif ch == "/":
            out.append("/" if r < 0.4 else "\\/" if r < 0.7 else hexed(cp))
        elif r < 0.25:
            if cp > 0xFFFF:
                cp -= 0x10000
                out.append(hexed(0xD800 + (cp >> 10)) + hexed(0xDC00 + (cp & 0x3FF)))
            else:
                out.append(hexed(cp))
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def wild_encode(value, rng) -> str:
    """JSON for value with random whitespace between tokens and random string escapes (same value)."""
    ws = lambda: rng.choice(["", "", "", "", " ", "\n", "\t", "\r\n  ", "  "])  # noqa: E731
    if isinstance(value, str):
        return wild_string(value, rng)
    if isinstance(value, list):
        return "[" + ws() + ",".join(ws() + wild_encode(v, rng) + ws() for v in value) + ws() + "]"
    if isinstance(value, dict):
        return "{" + ws() + ",".join(ws() + wild_string(k, rng) + ws() + ":" + ws() + wild_encode(v, rng) + ws()
                                     for k, v in value.items()) + ws() + "}"
    return encode(value)


def _kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, Decimal)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def first_difference(a, b, path=""):
    """The JSON Pointer of the first place where a and b differ (see the module doc), or None if equal."""
    kind = _kind(a)
    if kind != _kind(b):
        return path
    if kind == "number":
        return None if Decimal(a) == Decimal(b) else path
    if kind == "array":
        for i, (x, y) in enumerate(zip(a, b)):
            found = first_difference(x, y, f"{path}/{i}")
            if found is not None:
                return found
        return None if len(a) == len(b) else f"{path}/{min(len(a), len(b))}"
    if kind == "object":
        for key in a:
            step = f"{path}/{escape(key)}"
            if key not in b:
                return step
            found = first_difference(a[key], b[key], step)
            if found is not None:
                return found
        for key in b:
            if key not in a:
                return f"{path}/{escape(key)}"
        return None
    return None if a == b else path


def escape(name: str) -> str:
    return name.replace("~", "~0").replace("/", "~1")


def resolve(document, pointer):
    try:
        return encode(jsonpointer.resolve_pointer(document, pointer))
    except jsonpointer.JsonPointerException:
        return "(absent)"


# ---------------------------------------------------------------------------------------------------------
# Random cases

PLAIN_NAMES = ["title", "likes", "tags", "meta", "body", "rank", "x", "y", "flags", "author", "score", "kind"]
TRICKY_NAMES = ["a/b", "/", "~", "~0", "~1", "~01", "a~b/c", "~/~/", "", "0", "-", "01", " ", "é", "名前", "😀",
                '"', '\\', "quote\"d", "\u2028", "tab\there", "nl\nx", "\u0001", "$ref", "a.b", "sections",
                "items", "id", "%2F", "\ufeff"]
STRING_PARTS = ["a", "b", "Z", "0", " ", "/", "~", "~0", "~1", '"', "\\", "\n", "\t", "\r", "\u0001", "\u001f",
                "é", "e\u0301", "中", "😀", "\u2028", "\ufeff", "<", "&", "'", "\u007f", "ü", "\\u0041"]
INTS = [0, 1, -1, 2, 7, 42, -13, 255, 65536, 2**31, 2**53, 2**53 + 1, -(2**53 + 1), 2**63 - 1, -(2**63),
        2**64, 10**30, 9007199254740993]
DECIMALS = ["1.5", "-0.25", "0.1", "3.0", "1e3", "2.5E-3", "-7.125", "1.0", "0.0", "1E+2", "123456789.123456789",
            "0.30000000000000004", "6.02e23"]
# The same value spelled differently: the service sees no change, and the check's equality agrees.
SAME_VALUE = {1: ["1.0", "1e0", "10E-1", "0.1e1"], 0: ["0.0", "0e5", "-0"], 42: ["42.0", "4.2e1", "420e-1"],
              7: ["7.00", "7E0"], 2: ["2.0", "20e-1"]}


class Ids:
    """Unique ids of one namespace (items, or sections) for one case: integers and strings, tricky ones too;
    the same counter feeds both namespaces, so section and item ids, and 3 and "3", collide often."""

    TRICKY = ["", "a/b", "~", "~0", "~1", "/", " ", "é", "😀", '"', "\\", "\n", "\u0000", "1", "-1", "0", "01",
              "null", "true", "\u2028", "items", "sections", "id"]

    def __init__(self, rng, namespace_seed):
        self.rng = rng
        self.used = set()
        self.counter = namespace_seed
        self.style = rng.choice(["int", "str", "mixed", "mixed", "tricky"])

    def _key(self, value):
        return (type(value).__name__, value)

    def fresh(self):
        rng = self.rng
        while True:
            self.counter += 1
            style = self.style if self.style != "mixed" else rng.choice(["int", "str"])
            if style == "tricky":
                style = rng.choice(["int", "str", "trick"])
            if style == "int":
                value = rng.choice([self.counter, self.counter, -self.counter, 2**63 - self.counter,
                                    -(2**63) + self.counter - 1])
            elif style == "str":
                value = rng.choice([str(self.counter), f"i{self.counter}", f"n/{self.counter}~"])
            else:
                value = rng.choice(self.TRICKY) + rng.choice(["", str(self.counter)])
            if self._key(value) not in self.used:
                self.used.add(self._key(value))
                return value


class Gen:
    def __init__(self, rng):
        self.rng = rng

    def string(self):
        rng = self.rng
        return "".join(rng.choice(STRING_PARTS) for _ in range(rng.choice([0, 1, 2, 3, 5, 8])))

    def name(self, reserved=()):
        rng = self.rng
        while True:
            name = rng.choice(TRICKY_NAMES) if rng.random() < 0.3 else rng.choice(PLAIN_NAMES)
            if name not in reserved:
                return name

    def scalar(self):
        rng = self.rng
        r = rng.random()
        if r < 0.3:
            return self.string()
        if r < 0.55:
            return rng.choice(INTS) if rng.random() < 0.5 else rng.randint(-1000, 1000)
        if r < 0.7:
            return Num(rng.choice(DECIMALS))
        if r < 0.85:
            return rng.choice([True, False])
        return None

    def value(self, depth=0):
        rng = self.rng
        r = rng.random()
        if depth < 3 and r < 0.15:
            return [self.value(depth + 1) for _ in range(rng.randint(0, 4))]
        if depth < 3 and r < 0.3:
            return self.members(rng.randint(0, 4), depth + 1)
        return self.scalar()

    def members(self, count, depth=0, reserved=()):
        out = {}
        for _ in range(count):
            out[self.name(reserved + tuple(out))] = self.value(depth)
        return out

    def content(self, reserved):
        rng = self.rng
        return self.members(rng.choice([0, 0, 1, 1, 2, 2, 3, 4]), 1, reserved)

    def shuffled(self, value):
        """The same value with every object's members in a new order."""
        if isinstance(value, dict):
            keys = list(value)
            self.rng.shuffle(keys)
            return {k: self.shuffled(value[k]) for k in keys}
        if isinstance(value, list):
            return [self.shuffled(v) for v in value]
        return value

    def respelled(self, value):
        """The same value with some numbers written differently (1 as 1.0, 1e0, ...)."""
        if isinstance(value, dict):
            return {k: self.respelled(v) for k, v in value.items()}
        if isinstance(value, list):
            return [self.respelled(v) for v in value]
        if isinstance(value, int) and not isinstance(value, bool) and value in SAME_VALUE:
            return Num(self.rng.choice(SAME_VALUE[value]))
        return value

    def changed(self, value, depth):
        """A different value, or the same one changed somewhere inside."""
        rng = self.rng
        if isinstance(value, dict) and value and rng.random() < 0.6:
            return self.mutated(value, (), depth + 1)
        if isinstance(value, list) and rng.random() < 0.6:
            out = list(value)
            r = rng.random()
            if out and r < 0.3:
                i = rng.randrange(len(out))
                out[i] = self.changed(out[i], depth + 1)
            elif out and r < 0.5:
                del out[rng.randrange(len(out))]
            elif len(out) > 1 and r < 0.7:
                out.append(out.pop(0))
            else:
                out.insert(rng.randint(0, len(out)), self.value(depth + 1))
            return out
        return self.value(depth)

    def mutated(self, content, reserved, depth=1):
        """Content with members added, removed or changed (at least one change attempted)."""
        rng = self.rng
        out = dict(content)
        for _ in range(rng.choice([1, 1, 1, 2, 3])):
            r = rng.random()
            if out and r < 0.25:
                del out[rng.choice(list(out))]
            elif out and r < 0.65:
                key = rng.choice(list(out))
                out[key] = self.changed(out[key], depth)
            else:
                out[self.name(reserved + tuple(out))] = self.value(depth)
        if rng.random() < 0.3:
            out = self.shuffled(out)
        return out

    def evolved(self, content, reserved, update_rate):
        """New content for a kept item or section: updated, or the same value possibly re-spelled/reordered."""
        rng = self.rng
        if rng.random() < update_rate:
            changed = self.mutated(content, reserved)
            return self.respelled(changed) if rng.random() < 0.25 else changed
        r = rng.random()
        if r < 0.15:
            return self.shuffled(content)
        if r < 0.25:
            return self.respelled(content)
        return content


def place(rng, seq, value):
    seq.insert(rng.randint(0, len(seq)), value)


def reorder(rng, seq, rate):
    """Moves some elements of seq: none, a few relocated, reversed, rotated or shuffled."""
    if len(seq) < 2 or rng.random() >= rate:
        return
    r = rng.random()
    if r < 0.55:
        for _ in range(rng.randint(1, max(1, min(4, len(seq) // 2)))):
            place(rng, seq, seq.pop(rng.randrange(len(seq))))
    elif r < 0.65:
        seq.reverse()
    elif r < 0.75:
        k = rng.randrange(1, len(seq))
        seq[:] = seq[k:] + seq[:k]
    elif r < 0.85:
        rng.shuffle(seq)
    else:  # many relocations: a large minimal move set
        for _ in range(rng.randint(1, len(seq))):
            place(rng, seq, seq.pop(rng.randrange(len(seq))))


def section_json(gen, sid, content, items):
    """A section object, `id` and `items` among its members at random places."""
    rng = gen.rng
    members = list(content.items())
    members.insert(rng.randint(0, len(members)), ("id", sid))
    members.insert(rng.randint(0, len(members)), ("items", items))
    return dict(members)


def item_json(gen, iid, content):
    members = list(content.items())
    members.insert(gen.rng.randint(0, len(members)) if gen.rng.random() < 0.3 else 0, ("id", iid))
    return dict(members)


def random_case(seed, index):
    """(name, request as Python values with Num tokens, keep_first, wire style) for case `index` of `seed`."""
    rng = random.Random(f"{seed}:{index}")
    gen = Gen(rng)
    bare = rng.random() < 0.15
    keep_first = rng.random() < 0.12
    r = rng.random()
    size = "empty" if r < 0.04 else "large" if r < 0.14 else "small"
    # Rates for this case: some cases are calm, some all moves, some all deletes...
    pick = lambda: rng.choice([0.0, 0.05, 0.15, 0.3, 0.6])  # noqa: E731
    rates = dict(section_delete=pick(), section_insert=pick(), section_update=pick(), section_reorder=pick() * 1.5,
                 item_delete=pick(), item_insert=pick(), item_update=pick(), item_reorder=pick() * 1.5,
                 item_cross=pick() if not bare else 0.0, rescue=pick())
    item_ids = Ids(rng, rng.choice([0, 0, 100]))
    section_ids = Ids(rng, 0)

    if size == "empty":
        n_sections, n_items = (0 if not bare else 1), 0
    elif size == "large":
        n_sections, n_items = rng.randint(1, 10), rng.randint(50, 200)
    else:
        n_sections, n_items = rng.randint(0, 8), rng.randint(0, 12)
    if bare:
        n_sections = 1
    if n_sections == 0:
        n_items = 0

    # old: [(sid, content, [(iid, content)])]
    old = []
    for _ in range(n_sections):
        old.append([section_ids.fresh(), gen.content(("id", "items")) if not bare else {}, []])
    for _ in range(n_items):
        old[rng.randrange(n_sections)][2].append((item_ids.fresh(), gen.content(("id",))))
    if size != "empty" and rng.random() < 0.1 and old:
        rng.choice(old)[2].clear()  # an empty section

    # new sections: kept (maybe updated), deleted, inserted; then reordered
    new = []
    orphans = []  # items of deleted sections that survive elsewhere
    for sid, content, items in old:
        if not bare and rng.random() < rates["section_delete"]:
            orphans.extend(it for it in items if rng.random() < rates["rescue"])
            continue
        new.append([sid, gen.evolved(content, ("id", "items"), rates["section_update"]) if not bare else {},
                    list(items)])
    if not bare:
        inserts = rng.randint(0, 3) if rng.random() < rates["section_insert"] * 2 else 0
        if size == "empty" and rng.random() < 0.5:
            inserts = rng.randint(0, 3)
        for _ in range(inserts):
            place(rng, new, [section_ids.fresh(), gen.content(("id", "items")), []])
        reorder(rng, new, rates["section_reorder"])

    # items: deleted, updated, moved within and across sections, inserted
    crossing = list(orphans)
    for section in new:
        kept = []
        for item in section[2]:
            if rng.random() < rates["item_delete"]:
                continue
            if new and rng.random() < rates["item_cross"]:
                crossing.append(item)
            else:
                kept.append(item)
        section[2] = kept
    if new:
        for item in crossing:
            place(rng, rng.choice(new)[2], item)
    for section in new:
        section[2] = [(iid, gen.evolved(content, ("id",), rates["item_update"])) for iid, content in section[2]]
        reorder(rng, section[2], rates["item_reorder"])
        fresh = rng.randint(1, 4) if rng.random() < rates["item_insert"] * 2 else 0
        if size == "large":
            fresh = int(len(section[2]) * rates["item_insert"])
        if size == "empty" or not section[2] and rng.random() < 0.3:
            fresh = rng.randint(0, 3)
        for _ in range(fresh):
            place(rng, section[2], (item_ids.fresh(), gen.content(("id",))))
    if size == "empty" and rng.random() < 0.5:
        old, new = new, old  # non-empty to empty as well as empty to non-empty

    def snapshot(sections):
        if bare:
            return {"items": [item_json(gen, iid, c) for iid, c in (sections[0][2] if sections else [])]}
        return {"sections": [section_json(gen, sid, c, [item_json(gen, iid, ic) for iid, ic in items])
                             for sid, c, items in sections]}

    old_json, new_json = snapshot(old), snapshot(new)
    mixed = not bare and rng.random() < 0.04
    if mixed:  # one side a bare list: the service answers a change of form (equality is checked, not counts)
        flat = lambda snap: {"items": [it for items in items_of(snap) for it in items]}  # noqa: E731
        if rng.random() < 0.5:
            old_json = flat(old_json)
        else:
            new_json = flat(new_json)
    if keep_first:
        add_duplicates(gen, old_json, "items" in old_json, item_ids)
        add_duplicates(gen, new_json, "items" in new_json, item_ids)

    options = {"renderings": ["jsonPatch"]}
    r = rng.random()
    if r < 0.08:
        options["renderings"] = rng.choice([["staged", "jsonPatch"], ["jsonPatch", "sequential"],
                                            ["sequential", "jsonPatch", "staged"]])
    if rng.random() < 0.05:
        options["pretty"] = True
    if keep_first:
        options["duplicates"] = "keepFirst"
    elif rng.random() < 0.05:
        options["duplicates"] = "reject"
    if rng.random() < 0.25:
        options["changedMembers"] = True
    request = {"old": old_json, "new": new_json, "options": options}
    if rng.random() < 0.2:
        request = dict(reversed(list(request.items())))
    shape = "bare" if bare else "old bare, new sectioned" if "items" in old_json else \
        "old sectioned, new bare" if mixed else "sectioned"
    label = f"{shape}, {size}{', keepFirst' if keep_first else ''}"
    r = rng.random()
    style = "ascii" if r < 0.15 else f"wild:{seed}:{index}" if r < 0.35 else "plain"
    return label, request, keep_first, style


def items_of(snapshot):
    if "items" in snapshot:
        return [snapshot["items"]]
    return [s["items"] for s in snapshot["sections"]]


def add_duplicates(gen, snapshot, bare, item_ids):
    """Repeated item ids (anywhere, before or after the first) and repeated section ids (with their items)."""
    rng = gen.rng
    lists = items_of(snapshot)
    existing = [it["id"] for items in lists for it in items]
    for _ in range(rng.randint(0, 3)):
        if not existing or not lists:
            break
        iid = rng.choice(existing)
        body = gen.content(("id",)) if rng.random() < 0.7 else {}
        place(rng, rng.choice(lists), item_json(gen, iid, body))
    if not bare and snapshot["sections"] and rng.random() < 0.5:
        for _ in range(rng.randint(1, 2)):
            sid = rng.choice(snapshot["sections"])["id"]
            items = []
            for _ in range(rng.randint(0, 3)):
                iid = rng.choice(existing) if existing and rng.random() < 0.5 else item_ids.fresh()
                items.append(item_json(gen, iid, gen.content(("id",))))
            place(rng, snapshot["sections"], section_json(gen, sid, gen.content(("id", "items")), items))


# ---------------------------------------------------------------------------------------------------------
# Fixed regression cases, run first

REGRESSIONS = [
    ("an item moves across sections into an inserted section; another leaves a deleted section", {
        "old": {"sections": [{"id": "a", "items": [{"id": 1, "t": "one"}, {"id": 2}, {"id": 3}]},
                             {"id": "gone", "items": [{"id": 4, "t": "four"}, {"id": 5}]}]},
        "new": {"sections": [{"id": "b", "title": "new", "items": [{"id": 6}, {"id": 2}]},
                             {"id": "a", "items": [{"id": 4, "t": "four"}, {"id": 1, "t": "one"}, {"id": 3}]}]},
        "options": {"renderings": ["jsonPatch"]}}),
    ("an item updated and moved, within and across sections", {
        "old": {"sections": [{"id": "s", "items": [{"id": "x", "title": "X", "tags": ["a", "b"]}, {"id": "y"},
                                                    {"id": "z", "n": 1}]},
                             {"id": "t", "items": [{"id": "w", "meta": {"k": [1, {"deep": True}]}}]}]},
        "new": {"sections": [{"id": "s", "items": [{"id": "z", "n": 2}, {"id": "y"},
                                                    {"id": "x", "tags": ["b", "a", "c"], "title": "X2"}]},
                             {"id": "t", "items": [{"id": "v"}]}]},
        "options": {"renderings": ["jsonPatch"]}}),
    ("a section updated and moved, one emptied, one deleted", {
        "old": {"sections": [{"id": 1, "title": "One", "meta": {"a": 1}, "items": [{"id": 10}]},
                             {"id": 2, "title": "Two", "items": [{"id": 20}, {"id": 21}]},
                             {"id": 3, "items": []}]},
        "new": {"sections": [{"items": [], "id": 2, "title": "Two, renamed", "badge": [1, 2]},
                             {"id": 1, "meta": {"a": 1, "b": None}, "items": [{"id": 10}, {"id": 21}]}]},
        "options": {"renderings": ["jsonPatch"]}}),
    ("member names and ids with ~ and /, escapes and unicode", {
        "old": {"sections": [{"id": "a/b~c", "c~/d": "x", "": 0, "items": [
            {"id": "~/", "a/b": 1, "~0": 2, "~1": {"x/y~": [1, "/~"]}, "é\"\\": "\u2028", "0": "zero"},
            {"id": "~1", "-": ["q"]}]}]},
        "new": {"sections": [{"id": "a/b~c", "c~/d": "y", "": 1, "items": [
            {"id": "~1", "-": ["q", "r"]},
            {"id": "~/", "a/b": 2, "~01": 2, "~1": {"x/y~": [1, "/~", "😀"]}, "é\"\\": "\n", "0": "zero"}]}]},
        "options": {"renderings": ["jsonPatch"]}}),
    ("a bare list: ids 1 and \"1\" differ, numbers by exact value", {
        "old": {"items": [{"id": 1, "n": 9007199254740992}, {"id": "1", "n": 1}, {"id": 2, "v": 0.1}]},
        "new": {"items": [{"id": "1", "n": Num("1.0")}, {"id": 2, "v": Num("0.10")},
                          {"id": 1, "n": 9007199254740993}, {"id": 3}]},
        "options": {"renderings": ["jsonPatch"]}}),
    ("empty to full and a bare list to empty", {
        "old": {"sections": []},
        "new": {"sections": [{"id": "a", "items": [{"id": 1}]}, {"id": "b", "items": []}]},
        "options": {"renderings": ["jsonPatch"]}}),
    ("a bare list emptied", {
        "old": {"items": [{"id": 1}, {"id": 2, "x": [1]}]},
        "new": {"items": []},
        "options": {"renderings": ["jsonPatch"]}}),
    ("README's unavoidable move: [x0, x1, x2, x3] to [N, x3, x2, x0, x1], x2 moves to where it came from", {
        "old": {"sections": [{"id": 0, "items": [{"id": "x0"}, {"id": "x1"}, {"id": "x2"}, {"id": "x3"}]}]},
        "new": {"sections": [{"id": 0, "items": [{"id": "N"}, {"id": "x3"}, {"id": "x2"}, {"id": "x0"},
                                                  {"id": "x1"}]}]},
        "options": {"renderings": ["jsonPatch"]}}),
    ("keepFirst: an inserted section carries a dropped duplicate (it arrives whole, not added again)", {
        "old": {"sections": [{"id": "a", "items": [{"id": 1}, {"id": 2}]}]},
        "new": {"sections": [{"id": "b", "items": [{"id": 2}, {"id": 1}, {"id": 2, "again": True}]},
                             {"id": "a", "items": []}]},
        "options": {"renderings": ["jsonPatch"], "duplicates": "keepFirst"}}),
    ("keepFirst: repeated item and section ids on both sides stay in the result", {
        "old": {"sections": [{"id": "a", "items": [{"id": 1, "v": "first"}, {"id": 2}, {"id": 1, "v": "again"}]},
                             {"id": "a", "title": "dup", "items": [{"id": 3}, {"id": 2, "v": "dup"}]},
                             {"id": "b", "items": [{"id": 4}]}]},
        "new": {"sections": [{"id": "b", "items": [{"id": 2}, {"id": 4}, {"id": 2, "w": 1}]},
                             {"id": "a", "items": [{"id": 1, "v": "first"}]},
                             {"id": "b", "items": [{"id": 1}]}]},
        "options": {"renderings": ["jsonPatch"], "duplicates": "keepFirst"}}),
]


# ---------------------------------------------------------------------------------------------------------
# The service

class Client:
    """POST /diff on one keep-alive connection (a new one only if the server closed it)."""

    def __init__(self, port):
        self.port = port
        self.conn = None
        self.connections = 0

    def post(self, body: bytes):
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
                self.connections += 1
            try:
                self.conn.request("POST", "/diff", body, {"Content-Type": "application/json"})
                response = self.conn.getresponse()
                data = response.read()
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError,
                    http.client.CannotSendRequest, http.client.BadStatusLine):
                self.close()
                if attempt:
                    raise
                continue
            if response.will_close:
                self.close()
            return response.status, response.getheader("Content-Type", ""), data
        raise AssertionError("unreachable")

    def close(self):
        if self.conn is not None:
            self.conn.close()
            self.conn = None


# ---------------------------------------------------------------------------------------------------------
# One case

class Failure(Exception):
    def __init__(self, kind, message, detail=""):
        super().__init__(message)
        self.kind = kind
        self.message = message
        self.detail = detail


def position_class(pointer: str, bare: bool):
    """'item', 'section', 'items' (a section's whole array) or 'content' for a path of the old document."""
    try:
        parts = jsonpointer.JsonPointer(pointer).parts
    except jsonpointer.JsonPointerException:
        return "invalid"
    index = lambda p: p == "-" or p.isdigit()  # noqa: E731
    if bare:
        if len(parts) == 2 and parts[0] == "items" and index(parts[1]):
            return "item"
        if parts == ["items"]:
            return "items"
        return "content" if len(parts) > 2 and parts[0] == "items" else "other"
    if not parts or parts[0] != "sections":
        return "other"
    if len(parts) == 1:
        return "sections"
    if len(parts) == 2 and index(parts[1]):
        return "section"
    if len(parts) == 3 and parts[2] == "items":
        return "items"
    if len(parts) == 4 and parts[2] == "items" and index(parts[3]):
        return "item"
    return "content"


COUNTED = {("move", "item"): "elementMoved", ("move", "section"): "sectionMoved",
           ("remove", "item"): "elementDeleted", ("add", "item"): "elementInserted",
           ("remove", "section"): "sectionDeleted", ("add", "section"): "sectionInserted"}


def check_answer(request, status, content_type, body, keep_first, reference=None):
    """Raises Failure unless the answer is a jsonPatch that turns old into new (and matches counts)."""
    if status != 200:
        raise Failure(f"status {status}", f"expected 200, got {status}")
    if not content_type.lower().startswith("application/json"):
        raise Failure("content type", f"expected application/json, got {content_type!r}")
    try:
        answer = loads(body)
    except ValueError as error:
        raise Failure("invalid JSON", f"the answer is not JSON: {error}")
    if not isinstance(answer, dict) or not isinstance(answer.get("counts"), dict):
        raise Failure("shape", "the answer has no `counts` object")
    patch = reference(request, answer) if reference else answer.get("jsonPatch")
    if not isinstance(patch, list):
        raise Failure("shape", "the answer has no `jsonPatch` array")
    old, new = request["old"], request["new"]
    bare = "items" in old
    tally = {}
    for number, op in enumerate(patch):
        if not isinstance(op, dict) or op.get("op") not in ("add", "remove", "move", "replace"):
            raise Failure("operation", f"operation {number} is not add, remove, move or replace: {encode(op)}")
        if not isinstance(op.get("path"), str) or (op["op"] == "move" and not isinstance(op.get("from"), str)):
            raise Failure("operation", f"operation {number} has no string path/from: {encode(op)}")
        where = position_class(op["path"], bare)
        if op["op"] == "move":
            source = position_class(op["from"], bare)
            if {where, source} & {"item", "section"} and where != source:
                raise Failure("operation", f"operation {number} moves a {source} to a {where} position: "
                                           f"{encode(op)}")
        key = COUNTED.get((op["op"], where))
        if key:
            tally[key] = tally.get(key, 0) + 1
    try:
        result = jsonpatch.JsonPatch(copy.deepcopy(patch)).apply(copy.deepcopy(old))
    except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as error:
        broken = getattr(error, "op", None)
        which = ""
        if broken is not None:
            operation = getattr(broken, "operation", broken)
            for number, op in enumerate(patch):
                if op == operation:
                    which = f" at operation {number} {encode(op)}"
                    break
        raise Failure("apply", f"jsonpatch refused the patch{which}: {type(error).__name__}: {error}")
    difference = first_difference(result, new)
    if difference is not None:
        raise Failure("mismatch", f"the patched old differs from new at {difference!r}: "
                                  f"{resolve(result, difference)} instead of {resolve(new, difference)}",
                      "patched old: " + encode(result))
    mixed = ("items" in old) != ("items" in new)
    if not keep_first and not mixed:
        counts = answer["counts"]
        wrong = [f"{key} {tally.get(key, 0)} operations, counts {counts.get(key)}" for key in COUNTED.values()
                 if tally.get(key, 0) != counts.get(key)]
        if wrong:
            raise Failure("counts", "the patch does not match counts: " + "; ".join(wrong))
        if not reference:  # the translation from `sequential` replaces whole items
            check_operations(old, new, patch)
        if "changedMembers" in answer or request.get("options", {}).get("changedMembers"):
            check_changed_members(old, new, answer.get("changedMembers"))
    return answer, patch, tally


MISSING = object()


def spelled_alike(a, b):
    """Equal and written alike: the same types (1 is not 1.0), digits and exponent, members in the same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, Decimal):
        return a.as_tuple() == b.as_tuple()
    if isinstance(a, dict):
        return list(a) == list(b) and all(spelled_alike(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(spelled_alike(x, y) for x, y in zip(a, b))
    return a == b


def id_key(value):
    return (type(value).__name__, value)


def check_operations(old, new, patch):
    """What the rendering promises beyond equality (unique ids, one form): an added or replaced item or section
    is the new snapshot's one with that id as sent; an update is one add, replace or remove per top-level
    member that differs, each giving that member its new value as sent, and nothing else."""
    bare = "items" in old
    new_items = {id_key(it["id"]): it for it in all_items(new)}
    new_sections = {id_key(s["id"]): s for s in new.get("sections", [])}
    document = copy.deepcopy(old)
    for number, op in enumerate(patch):
        where = position_class(op["path"], bare)
        parts = jsonpointer.JsonPointer(op["path"]).parts
        said = f"operation {number} {encode(op)}"
        if where in ("item", "section") and op["op"] in ("add", "replace"):
            table = new_items if where == "item" else new_sections
            value = op.get("value")
            wanted = table.get(id_key(value.get("id"))) if isinstance(value, dict) else None
            if wanted is None or not spelled_alike(value, wanted):
                raise Failure("operations", f"{said} is not the new snapshot's {where} with that id as sent"
                                            f" ({encode(wanted) if wanted is not None else 'no such id in new'})")
        elif where == "content":
            owner, rest = (parts[:2], parts[2:]) if bare or parts[2] != "items" else (parts[:4], parts[4:])
            kind = "item" if len(owner) == (2 if bare else 4) else "section"
            if len(rest) != 1:
                raise Failure("operations", f"{said} changes a value inside a member, not a top-level member "
                                            f"of the {kind}")
            try:
                target = jsonpointer.resolve_pointer(document, "/" + "/".join(escape(p) for p in owner))
            except jsonpointer.JsonPointerException:
                target = None
            if not isinstance(target, dict):
                raise Failure("operations", f"{said}: no {kind} at its position")
            name = rest[0]
            if name == "id" or (kind == "section" and name == "items"):
                raise Failure("operations", f"{said} changes the {kind}'s {name!r}")
            wanted_owner = (new_items if kind == "item" else new_sections).get(id_key(target.get("id")))
            if wanted_owner is None:
                raise Failure("operations", f"{said} updates {kind} {encode(target.get('id'))}, which new lacks")
            now, wanted = target.get(name, MISSING), wanted_owner.get(name, MISSING)
            if now is not MISSING and wanted is not MISSING and first_difference(now, wanted) is None:
                raise Failure("operations", f"{said}: member {name!r} of {kind} {encode(target.get('id'))} does "
                                            f"not differ ({encode(now)} and {encode(wanted)})")
            if op["op"] == "remove" and wanted is not MISSING:
                raise Failure("operations", f"{said} removes a member new has: {encode(wanted)}")
            if op["op"] in ("add", "replace") and (wanted is MISSING or not spelled_alike(op.get("value"), wanted)):
                raise Failure("operations", f"{said}: the new {kind}'s member is "
                                            f"{'absent' if wanted is MISSING else encode(wanted)} (as sent)")
        elif where not in ("item", "section"):
            raise Failure("operations", f"{said}: not a section, an item or a member of one")
        document = jsonpatch.JsonPatch([op]).apply(document, in_place=True)


def check_changed_members(old, new, listed):
    """changedMembers: per updated item and section at its position in new, the top-level members that differ,
    in new's order, then those new no longer has (in old's order)."""
    if not isinstance(listed, dict):
        raise Failure("changedMembers", "asked for, but the answer has no `changedMembers` object")
    bare = "items" in new
    old_items = {id_key(it["id"]): it for it in all_items(old)}
    old_sections = {id_key(s["id"]): s for s in old.get("sections", [])}

    def expected(was, now, reserved):
        changed = [k for k in now if k not in reserved and (k not in was or first_difference(was[k], now[k]) is not None)]
        return changed + [k for k in was if k not in reserved and k not in now]

    for entry in listed.get("elements", []):
        section, element = entry["path"]
        try:
            item = new["items"][element] if bare else new["sections"][section]["items"][element]
        except (IndexError, KeyError):
            raise Failure("changedMembers", f"{encode(entry)}: no item at that path in new")
        was = old_items.get(id_key(item["id"]))
        want = expected(was, item, ("id",)) if was is not None else None
        if not want or entry["members"] != want:
            raise Failure("changedMembers", f"{encode(entry)}: item {encode(item['id'])} should list {want}")
    for entry in listed.get("sections", []):
        try:
            section = new["sections"][entry["section"]]
        except (IndexError, KeyError):
            raise Failure("changedMembers", f"{encode(entry)}: no section at that index in new")
        was = old_sections.get(id_key(section["id"]))
        want = expected(was, section, ("id", "items")) if was is not None else None
        if not want or entry["members"] != want:
            raise Failure("changedMembers", f"{encode(entry)}: section {encode(section['id'])} should list {want}")


# ---------------------------------------------------------------------------------------------------------
# A reference patch from the `sequential` rendering (a test of this checker, --reference sequential)

def patch_from_sequential(request, answer):
    """The `sequential` operations as RFC 6902 operations (insertions and updates take the new snapshot's
    values; a section update rewrites the section's own members)."""
    new = request["new"]
    bare = "items" in new
    if "sequential" not in answer:
        raise Failure("shape", "no `sequential` rendering to translate")
    document = copy.deepcopy(request["old"])

    def item_path(path):
        return f"/items/{path[1]}" if bare else f"/sections/{path[0]}/items/{path[1]}"

    def new_item(path):
        return new["items"][path[1]] if bare else new["sections"][path[0]]["items"][path[1]]

    patch = []
    for op in answer["sequential"]:
        kind = op["op"]
        step = []
        if kind == "removeSection":
            step.append({"op": "remove", "path": f"/sections/{op['section']}"})
        elif kind == "removeElement":
            step.append({"op": "remove", "path": item_path(op["path"])})
        elif kind == "moveSection":
            step.append({"op": "move", "from": f"/sections/{op['from']}", "path": f"/sections/{op['to']}"})
        elif kind == "insertSection":
            step.append({"op": "add", "path": f"/sections/{op['section']}",
                         "value": copy.deepcopy(new["sections"][op["section"]])})
        elif kind == "moveElement":
            step.append({"op": "move", "from": item_path(op["from"]), "path": item_path(op["to"])})
        elif kind == "insertElement":
            step.append({"op": "add", "path": item_path(op["path"]), "value": copy.deepcopy(new_item(op["path"]))})
        elif kind == "updateElement":
            step.append({"op": "replace", "path": item_path(op["path"]),
                         "value": copy.deepcopy(new_item(op["path"]))})
        elif kind == "updateSection":
            now, wanted = document["sections"][op["section"]], new["sections"][op["section"]]
            for key in now:
                if key not in wanted:
                    step.append({"op": "remove", "path": f"/sections/{op['section']}/{escape(key)}"})
            for key, value in wanted.items():
                if key != "items":
                    step.append({"op": "add", "path": f"/sections/{op['section']}/{escape(key)}",
                                 "value": copy.deepcopy(value)})
        try:
            document = jsonpatch.JsonPatch(copy.deepcopy(step)).apply(document)
        except (jsonpatch.JsonPatchException, jsonpointer.JsonPointerException) as error:
            raise Failure("apply", f"sequential operation {encode(op)} does not apply: {error}")
        patch += step
    return patch


# ---------------------------------------------------------------------------------------------------------
# Shrinking

def all_items(snapshot):
    for items in items_of(snapshot):
        yield from items


def shrink(request, fails, budget_seconds=60, budget_tries=6000):
    """A smaller request for which fails(request) still gives the same failure kind (greedy, chunked)."""
    start, tries = time.time(), 0
    current = request

    def attempt(candidate):
        nonlocal current, tries
        if tries >= budget_tries or time.time() - start > budget_seconds:
            return False
        tries += 1
        if fails(candidate):
            current = candidate
            return True
        return False

    def reduce(units, without):
        """Removes chunks of units (halves, quarters, ... single ones) while the failure holds."""
        units = list(units)
        chunk = max(1, len(units) // 2)
        while units:
            progress = False
            i = 0
            while i < len(units):
                removed = units[i:i + chunk]
                if attempt(without(current, removed)):
                    units = units[:i] + units[i + chunk:]
                    progress = True
                else:
                    i += chunk
            if chunk == 1 and not progress:
                break
            chunk = max(1, chunk // 2) if not progress or chunk > 1 else 1

    def ids_key(value):
        return (type(value).__name__, value)

    def drop_items(req, keys, sides=("old", "new")):
        req = copy.deepcopy(req)
        for side in sides:
            for items in items_of(req[side]):
                items[:] = [it for it in items if ids_key(it.get("id")) not in keys]
        return req

    def drop_sections(req, keys, sides=("old", "new")):
        req = copy.deepcopy(req)
        for side in sides:
            if "sections" in req[side]:
                req[side]["sections"] = [s for s in req[side]["sections"] if ids_key(s.get("id")) not in keys]
        return req

    def drop_members(req, units):
        req = copy.deepcopy(req)
        for side, owner, key in units:
            for obj in owners(req, side, owner):
                obj.pop(key, None)
        return req

    def owners(req, side, owner):
        sides = ("old", "new") if side == "both" else (side,)
        for s in sides:
            snapshot = req[s]
            if owner[0] == "section":
                yield from (sec for sec in snapshot.get("sections", []) if ids_key(sec.get("id")) == owner[1])
            else:
                yield from (it for it in all_items(snapshot) if ids_key(it.get("id")) == owner[1])

    def member_units(req, side):
        units = []
        for s in (("old", "new") if side == "both" else (side,)):
            for sec in req[s].get("sections", []):
                units += [(side, ("section", ids_key(sec["id"])), k) for k in sec if k not in ("id", "items")]
            for it in all_items(req[s]):
                units += [(side, ("item", ids_key(it["id"])), k) for k in it if k != "id"]
        return list(dict.fromkeys(units))

    def simplify_values(req):
        """Nested values replaced by 0, one member at a time (both sides, then each)."""
        for side in ("both", "old", "new"):
            for unit in member_units(current, side):
                _, owner, key = unit
                values = [obj[key] for obj in owners(current, side, owner) if key in obj]
                if all(v == 0 and not isinstance(v, bool) for v in values):
                    continue
                candidate = copy.deepcopy(current)
                for obj in owners(candidate, side, owner):
                    if key in obj:
                        obj[key] = 0
                attempt(candidate)

    for _ in range(3):
        before = encode(current)
        options = current.get("options", {})
        if set(options) - {"renderings", "duplicates"} or options.get("renderings") != ["jsonPatch"]:
            candidate = copy.deepcopy(current)
            candidate["options"] = {k: v for k, v in options.items() if k == "duplicates"}
            candidate["options"]["renderings"] = ["jsonPatch"] if "jsonPatch" in options.get("renderings", []) \
                else options.get("renderings")
            attempt(candidate)
        section_keys = list(dict.fromkeys(ids_key(s["id"]) for side in ("old", "new")
                                          for s in current[side].get("sections", [])))
        reduce(section_keys, lambda req, keys: drop_sections(req, set(keys)))
        item_keys = list(dict.fromkeys(ids_key(it["id"]) for side in ("old", "new") for it in all_items(current[side])))
        reduce(item_keys, lambda req, keys: drop_items(req, set(keys)))
        for side in ("old", "new"):
            reduce([ids_key(s["id"]) for s in current[side].get("sections", [])],
                   lambda req, keys, side=side: drop_sections(req, set(keys), (side,)))
            reduce([ids_key(it["id"]) for it in all_items(current[side])],
                   lambda req, keys, side=side: drop_items(req, set(keys), (side,)))
        for side in ("both", "old", "new"):
            reduce(member_units(current, side), drop_members)
        simplify_values(current)
        if encode(current) == before:
            break
    return current, tries


# ---------------------------------------------------------------------------------------------------------
# The run

def request_bytes(request, style="plain"):
    """The request's JSON: "plain" (UTF-8), "ascii" (\\u escapes) or "wild:N" (escapes and whitespace drawn
    from a generator seeded by N)."""
    if style.startswith("wild:"):
        return wild_encode(request, random.Random(style)).encode()
    return encode(request, style == "ascii").encode()


def run_case(client, body: bytes, keep_first, accept_only, reference):
    request = loads(body)
    status, content_type, answer = client.post(body)
    if accept_only:
        if status != 200:
            raise Failure(f"status {status}", f"expected 200, got {status}")
        return loads(answer), [], {}
    answer_json, patch, tally = check_answer(request, status, content_type, answer, keep_first, reference)
    return answer_json, patch, tally


def report_failure(client, label, body, keep_first, failure, accept_only, reference, shrink_it, replay):
    print(f"\nFAIL {label}: {failure.kind}: {failure.message}", flush=True)
    request = loads(body)

    def fails(candidate):
        try:
            run_case(client, request_bytes(candidate), keep_first, accept_only, reference)
        except Failure as again:
            return again.kind == failure.kind
        except (OSError, http.client.HTTPException):
            client.close()
        return False

    if shrink_it:
        small, tries = shrink(request, fails)
        if encode(small) != encode(request):
            count = lambda req: sum(1 for side in ("old", "new") for _ in all_items(req[side]))  # noqa: E731
            body = request_bytes(small)
            print(f"shrunk in {tries} requests ({count(request)} items in old and new to {count(small)}); the "
                  f"smallest request that still fails the same way:")
        else:
            print("(it does not shrink)")
    status, _, answer = client.post(body)
    try:
        run_case(client, body, keep_first, accept_only, reference)
        print("  (this request passed when sent again: the failure is not repeatable)")
    except Failure as again:
        failure = again
    print(f"  {failure.kind}: {failure.message}")
    print(f"  request:  {body.decode()}")
    print(f"  answer ({status}): {answer.decode(errors='replace')}")
    try:
        patch = loads(answer).get("jsonPatch")
    except (ValueError, AttributeError):
        patch = None
    if isinstance(patch, list) and 1 < len(patch) <= 60:
        for number, op in enumerate(patch):
            print(f"    {number:3d} {encode(op)}")
    if failure.detail:
        print(f"  {failure.detail}")
    print(f"  replay:   {replay}")
    print(f"  by hand:  curl -s -H 'Content-Type: application/json' --data-binary {shlex.quote(body.decode())} "
          f"http://127.0.0.1:8080/diff", flush=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--cases", type=int, default=1000)
    parser.add_argument("--seed", type=int)
    parser.add_argument("--case", type=int, help="run only this random case of --seed (no regressions)")
    parser.add_argument("--keep-going", action="store_true", help="report every failing case, not only the first")
    parser.add_argument("--no-shrink", action="store_true")
    parser.add_argument("--accept-only", action="store_true")
    parser.add_argument("--reference", choices=["sequential"])
    args = parser.parse_args()
    if args.case is not None and args.seed is None:
        parser.error("--case needs --seed")
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    print(f"jsonpatch-check: seed {seed} (replay with --seed {seed}), jsonpatch {jsonpatch.__version__}", flush=True)

    reference = patch_from_sequential if args.reference == "sequential" else None

    def prepared(request):
        request = copy.deepcopy(request)
        if reference:
            request.setdefault("options", {})["renderings"] = ["sequential"]
        elif args.accept_only:
            request.setdefault("options", {})["renderings"] = ["staged"]
        return request

    server = Server(args.binary, "jsonpatch-check")
    client = Client(server.port)
    failures, ran, skipped = [], 0, 0
    totals = {}
    with_change = {}
    shapes = dict.fromkeys(("bare", "form change", "keepFirst", "large", "empty"), 0)
    started = time.time()

    def one(label, request, keep_first, style, replay):
        nonlocal ran, skipped
        if reference and (keep_first or ("items" in request["old"]) != ("items" in request["new"])):
            skipped += 1
            return True
        body = request_bytes(prepared(request), style)
        try:
            answer, patch, tally = run_case(client, body, keep_first, args.accept_only, reference)
        except Failure as failure:
            failures.append((label, failure.kind))
            if sum(1 for _, kind in failures if kind == failure.kind) > 1:
                print(f"FAIL {label}: {failure.kind}: {failure.message} (replay: {replay})", flush=True)
                return True
            try:
                report_failure(client, label, body, keep_first, failure, args.accept_only, reference,
                               not args.no_shrink, replay)
            except (OSError, http.client.HTTPException) as error:
                print(f"  (no answer while reporting it: {type(error).__name__}: {error})\n"
                      f"  request: {body.decode()}\n  replay:  {replay}", flush=True)
                client.close()
                if not server.alive():
                    return False
            return args.keep_going
        except (OSError, http.client.HTTPException) as error:
            alive = "running" if server.alive() else f"exited {server.proc.returncode}"
            print(f"\nFAIL {label}: no answer ({type(error).__name__}: {error}); the server is {alive}\n"
                  f"  request: {body.decode()}\n  replay: {replay}\n{server.log_text()}", flush=True)
            failures.append((label, "no answer"))
            if not server.alive():
                return False
            client.close()
            return args.keep_going
        ran += 1
        if label.startswith("case "):  # the random cases' shapes
            shapes["bare"] += "(bare," in label
            shapes["form change"] += "new " in label
            for part in ("keepFirst", "large", "empty"):
                shapes[part] += part in label
        counts = answer.get("counts", {})
        for key, value in counts.items():
            totals[key] = totals.get(key, 0) + value
            with_change[key] = with_change.get(key, 0) + (1 if value else 0)
        totals["operations"] = totals.get("operations", 0) + len(patch)
        return True

    try:
        going = True
        if args.case is None:
            for number, (name, request) in enumerate(REGRESSIONS):
                going = one(f"regression {number} ({name})", request,
                            request.get("options", {}).get("duplicates") == "keepFirst",
                            "wild:regression" if "escapes" in name else "plain",
                            "scripts/jsonpatch-check (the regressions run first)")
                if not going:
                    break
        indices = [args.case] if args.case is not None else range(args.cases)
        for index in indices if going else []:
            label, request, keep_first, style = random_case(seed, index)
            if not one(f"case {index} of seed {seed} ({label})", request, keep_first, style,
                       f"scripts/jsonpatch-check --seed {seed} --case {index}"):
                break
    finally:
        client.close()
        status = server.stop()
    elapsed = time.time() - started
    log = server.log_text()
    problems = []
    if status != 0:
        problems.append(f"the server exited {status} after SIGTERM")
    if log.strip():
        problems.append("the server logged errors:\n" + log)
    summary = ", ".join(f"{k} {totals.get(k, 0)} in {with_change.get(k, 0)} cases" for k in
                        ["sectionDeleted", "sectionInserted", "sectionUpdated", "sectionMoved", "elementDeleted",
                         "elementInserted", "elementUpdated", "elementMoved"])
    print(f"jsonpatch-check: {ran} cases passed, {len(failures)} failed{f', {skipped} skipped' if skipped else ''} "
          f"in {elapsed:.1f} s on {client.connections} connection(s); seed {seed}")
    print(f"  shapes: " + ", ".join(f"{n} {k}" for k, n in shapes.items()) + f"; changes: {summary}; "
          f"{totals.get('operations', 0)} patch operations applied")
    for problem in problems:
        print(f"jsonpatch-check: {problem}", file=sys.stderr)
    if failures or problems:
        kinds = {}
        for _, kind in failures:
            kinds[kind] = kinds.get(kind, 0) + 1
        if failures:
            print("jsonpatch-check: FAILED (" + ", ".join(f"{n} {k}" for k, n in kinds.items()) + ")",
                  file=sys.stderr)
        sys.exit(1)
    print("jsonpatch-check: passed")


if __name__ == "__main__":
    main()
