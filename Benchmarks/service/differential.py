#!/usr/bin/env python3
"""Differential check of two snapdiff builds: the same random requests to both, the answers compared byte for byte.

    python3 Benchmarks/service/differential.py --base OLD_BINARY --head NEW_BINARY \\
        [--count 20000] [--seed 1] [--first 0] [--workers 4] [--out DIR] [--keep 20] [--progress N]
    python3 Benchmarks/service/differential.py --base OLD_BINARY --head NEW_BINARY --seed S --case I [--show]

Python 3.11 standard library only. Starts `OLD_BINARY serve` and `NEW_BINARY serve` on free loopback ports
(scripts/snapdiff_server.py) with the same settings: `--log-level error`, `--max-body-bytes 262144`,
`--memory-budget 256Mi` and one fixed SNAPDIFF_CURSOR_KEY, so that /layout cursors are comparable and a cursor
from one continues on the other. Then generates `--count` cases from `--seed` (case I has a generator of its own,
seeded by (seed, I), so `--case I` replays it alone), in eleven categories taken in turn:

    diff-items         valid /diff of bare item lists: integer and string ids (escapes, non-ASCII, "1" beside 1,
                       -0), content of every JSON kind, nested, members reordered between old and new, numbers
                       written differently but equal (1, 1.0, 10e-1), deletes, inserts, moves, updates
    diff-sections      the same with sections (and section content), moves across sections, section changes
    diff-options       every option of DiffOptions: renderings (staged, sequential, ranges, jsonPatch, any order),
                       ids, changedMembers, pretty; a few large answers (streamed, chunked)
    diff-duplicates    repeated item and section ids, with duplicates reject (422) and keepFirst
    diff-layouts       options.layouts (waterfall settings, pageSize, sections named or null), valid and not
    diff-syntax        bodies broken at a random place: truncated, stray bytes, bad escapes, invalid UTF-8, bad
                       numbers and literals, nesting 127 to 140 deep, exponents at the limit, trailing bytes
    diff-schema        schema violations: wrong kinds anywhere, missing, unknown and repeated members, bad ids
                       (fractions, exponents, out of range, booleans, null), both sections and items
    diff-bad-options   bad option values and bad layouts values
    diff-many          more than 100 and more than 1,000 violations (or repeated ids) in one body
    layout             /layout: valid pages in any member order, paged with the nextCursor the base returned (also
                       the one a /diff layout returned), and invalid ones (settings, items, pageSize, cursors:
                       altered, forged, from other settings)
    transport          content codings (gzip bodies good and damaged, x-gzip, identity, 415 codings), media types,
                       empty bodies, bodies over the limit, wrong methods and paths

and, on top of any category, a body gzipped (Content-Encoding: gzip) one time in eight and an Accept-Encoding
(gzip or another preference) one time in three. A case is one request, or a few in a row (pages): a later one is
built from the base's answer to the one before, and both servers get it.

Each answer is compared: the status, the headers other than Date and X-Request-ID (Content-Type,
Content-Encoding, Content-Length, Transfer-Encoding, Vary, Allow, Retry-After, Connection ...: names and values,
in any order), and the body byte for byte (a gzipped body as sent). Prints the inputs, then per category the
cases, requests, base statuses and mismatches, then what else looked odd (5xx answers, transport errors, lines
in the servers' error logs). The first `--keep` mismatches are written to `--out` (default
/tmp/snapdiff-differential), one directory each: request.txt (method, path, headers, the body as sent),
request.body (raw), base.txt and head.txt (status, headers, body; gunzipped beside it when gzipped), and
curl.sh. Exits 1 on any mismatch or if a server died, 0 otherwise. Timing is printed, never asserted.
"""

from __future__ import annotations

import argparse
import base64
import collections
import gzip
import hashlib
import hmac
import http.client
import json
import os
import platform
import random
import re
import shlex
import shutil
import sys
import threading
import time
from decimal import Decimal

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
from snapdiff_server import Server  # noqa: E402

CURSOR_KEY = "differential-check-cursor-key-0001"
BODY_LIMIT = 262144
SERVER_ARGUMENTS = ("--max-body-bytes", str(BODY_LIMIT), "--memory-budget", "256Mi")
IGNORED_HEADERS = {"date", "x-request-id"}

# ---------------------------------------------------------------------------------------------------------
# JSON written exactly as chosen: number tokens as text, members in any order (repeats allowed), string escapes


class Raw:
    """Text written verbatim: a number token (`1.0`, `10e-1`) or a deliberately broken fragment."""

    __slots__ = ("text",)

    def __init__(self, text):
        self.text = text


class Obj:
    """An object as a list of (name, value) pairs, written in that order; a name may repeat."""

    __slots__ = ("pairs",)

    def __init__(self, pairs):
        self.pairs = list(pairs)


SHORT_ESCAPES = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}


class Writer:
    """Serialises values with a style drawn per request: how often characters are \\u-escaped, whether non-ASCII
    is written raw, and whether whitespace is scattered between tokens."""

    def __init__(self, rng, escape=0.0, spaces=0.0, indent=False):
        self.rng, self.escape, self.spaces, self.indent = rng, escape, spaces, indent

    def string(self, text):
        out = ['"']
        for ch in text:
            code = ord(ch)
            if self.escape and self.rng.random() < self.escape:
                if ch == "/" and self.rng.random() < 0.5:
                    out.append("\\/")
                elif code > 0xFFFF:
                    code -= 0x10000
                    high, low = 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)
                    form = "\\u%04x\\u%04x" if self.rng.random() < 0.5 else "\\u%04X\\u%04X"
                    out.append(form % (high, low))
                else:
                    out.append(("\\u%04x" if self.rng.random() < 0.5 else "\\u%04X") % code)
            elif ch in SHORT_ESCAPES:
                out.append(SHORT_ESCAPES[ch])
            elif code < 0x20:
                out.append("\\u%04x" % code)
            else:
                out.append(ch)
        out.append('"')
        return "".join(out)

    def gap(self):
        if self.spaces and self.rng.random() < self.spaces:
            return self.rng.choice([" ", "\n", "\t", "\r\n", "  "])
        return ""

    def write(self, value, level=0):
        if isinstance(value, Raw):
            return value.text
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if isinstance(value, int):
            return str(value)
        if isinstance(value, str):
            return self.string(value)
        if isinstance(value, dict):
            value = Obj(value.items())
        g = self.gap
        if isinstance(value, Obj):
            if not value.pairs:
                return "{" + g() + "}"
            parts = [g() + self.string(k) + g() + ":" + g() + self.write(v, level + 1) + g() for k, v in value.pairs]
            if self.indent:
                pad = "\n" + "  " * (level + 1)
                return "{" + ",".join(pad + p for p in parts) + "\n" + "  " * level + "}"
            return "{" + ",".join(parts) + "}"
        if isinstance(value, list):
            if not value:
                return "[" + g() + "]"
            return "[" + ",".join(g() + self.write(v, level + 1) + g() for v in value) + "]"
        raise TypeError(type(value))


def encode(value, rng, plain=False):
    """The UTF-8 bytes of `value`, in a random style (or compact and unescaped with `plain`)."""
    if plain:
        writer = Writer(rng)
    else:
        style = rng.random()
        writer = Writer(rng, escape=rng.choice([0, 0, 0.05, 0.3]) if style < 0.6 else 0,
                        spaces=rng.choice([0, 0, 0.1, 0.5]), indent=style > 0.9)
    return writer.write(value).encode("utf-8", "surrogatepass")


# ---------------------------------------------------------------------------------------------------------
# Values, ids and numbers

WORDS = ["news", "photo", "title", "likes", "a", "b", "é", "日本", "😀", "a\"b", "back\\slash", "tab\there", "/",
         "line\nbreak", "\u0000nul", "e\u0301", "éé", "\u2028", "", " ", "id ", "ID", "items", "sections", "id"]
STRING_IDS = ["1", "2", "0", "-0", "a", "b", "x/y", "é", "e\u0301", "😀", "日本語", "a\"q", "\\", "\u0000", "",
              " ", "id", "\ud7ff", "\ue000", "\U0010ffff", "tab\t", "9223372036854775808", "1.0", "null", "true"]
INT_IDS = [0, 1, 2, 3, 7, 10, 42, -1, -7, 100, 9223372036854775807, -9223372036854775808, 2 ** 53, 2 ** 53 + 1]


def rand_id(rng, used):
    """A new id (string or integer) not in `used`; also adds it."""
    while True:
        roll = rng.random()
        if roll < 0.3:
            value = rng.choice(INT_IDS) if rng.random() < 0.3 else rng.randrange(-50, 10000)
        elif roll < 0.45:
            value = rng.choice(STRING_IDS)
        elif roll < 0.55:
            value = str(rng.randrange(0, 1000))  # "1" beside 1
        else:
            value = rng.choice(["p", "n", "item-", "s", "\u00e9-", "\U0001F600"]) + str(rng.randrange(100000))
        key = (type(value), value)
        if key not in used:
            used.add(key)
            return value


def write_id(value, rng):
    """An id as written: integers sometimes as -0 when zero; strings as they are (escaped by the writer)."""
    if value == 0 and isinstance(value, int) and rng.random() < 0.3:
        return Raw("-0")
    return value


def number_forms(text):
    """Other ways to write the number `text` with the same exact decimal value (zero: any sign, any exponent)."""
    d = Decimal(text)
    sign, digits, exponent = d.as_tuple()
    if not isinstance(exponent, int) or abs(exponent) > 1000:
        return [text]
    s = "-" if sign else ""
    digit_text = "".join(map(str, digits)).lstrip("0")
    if not digit_text:
        return [s + "0", s + "0.0", s + "0e5", s + "0E-3", s + "0.000", text]
    forms = {text, f"{s}{digit_text}e{exponent}", f"{s}{digit_text}0E{exponent - 1}",
             f"{s}{digit_text}00e-{2 - exponent}" if exponent < 2 else f"{s}{digit_text}e+{exponent}"}
    if 0 <= exponent < 30:
        forms.add(s + digit_text + "0" * exponent + ".0")
        forms.add(s + digit_text + "0" * exponent + ".000")
    elif -30 < exponent < 0:
        whole = digit_text.rjust(-exponent + 1, "0")
        forms.add(s + whole[:exponent] + "." + whole[exponent:] + "0")
    return sorted(forms)


NUMBERS = ["0", "-0", "1", "-1", "1.5", "0.1", "1e2", "1E+2", "2.5e-3", "123456789012345678901234567890",
           "9007199254740993", "9007199254740992", "1e400", "-1e-400", "3.14159265358979323846264338327950288",
           "100", "7", "0.0", "1e1000000000", "-1E-1000000000", "12345678901234567890123456789012345678901"]


def rand_number(rng):
    if rng.random() < 0.4:
        return Raw(rng.choice(NUMBERS))
    if rng.random() < 0.5:
        return rng.randrange(-1000, 1000)
    return Raw(f"{rng.randrange(-10**6, 10**6)}.{rng.randrange(0, 1000):03d}")


def rand_value(rng, depth=0):
    roll = rng.random()
    if depth > 3 or roll < 0.55:
        kind = rng.randrange(6)
        if kind == 0:
            return None
        if kind == 1:
            return rng.random() < 0.5
        if kind in (2, 3):
            return rand_number(rng)
        return rng.choice(WORDS) + (str(rng.randrange(100)) if rng.random() < 0.5 else "")
    if roll < 0.8:
        return [rand_value(rng, depth + 1) for _ in range(rng.randrange(0, 4))]
    names = rng.sample(WORDS, rng.randrange(0, 4))
    return Obj((name, rand_value(rng, depth + 1)) for name in names)


def rewrite_equal(value, rng):
    """The same JSON value written another way: numbers in another form, members in another order."""
    if isinstance(value, Raw):
        try:
            return Raw(rng.choice(number_forms(value.text)))
        except Exception:
            return value
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, int):
        return Raw(rng.choice(number_forms(str(value)))) if rng.random() < 0.5 else value
    if isinstance(value, list):
        return [rewrite_equal(v, rng) for v in value]
    if isinstance(value, Obj):
        pairs = [(k, rewrite_equal(v, rng)) for k, v in value.pairs]
        rng.shuffle(pairs)
        return Obj(pairs)
    return value


def nearly_equal(value, rng):
    """A value that differs from `value`, often only just (2^53 + 1 beside 2^53, 1 beside true, "1" beside 1)."""
    choices = [lambda: rand_value(rng), lambda: None, lambda: [value], lambda: Obj([("v", value)])]
    if isinstance(value, bool):
        choices.append(lambda: 1 if value else 0)
        choices.append(lambda: not value)
    if isinstance(value, int) and not isinstance(value, bool):
        choices += [lambda: value + 1, lambda: str(value), lambda: Raw(f"{value}.0000000000000000000001")]
    if isinstance(value, Raw):
        choices += [lambda: Raw(value.text + "1") if "." in value.text and "e" not in value.text.lower() else Raw("0.5"),
                    lambda: value.text]
    if isinstance(value, str):
        choices += [lambda: value + " ", lambda: value.upper(), lambda: value[::-1] + "x"]
    if isinstance(value, list) and value:
        choices += [lambda: value[::-1] if len(value) > 1 and value[0] != value[-1] else value + [1], lambda: value[:-1]]
    if isinstance(value, Obj) and value.pairs:
        choices.append(lambda: Obj(value.pairs[:-1]))
    return rng.choice(choices)()


# ---------------------------------------------------------------------------------------------------------
# Snapshots: a model (sections of items with content), evolved into a new one, written as JSON


def rand_content(rng, names=None, size=False):
    names = names if names is not None else rng.sample(WORDS[:-3], rng.randrange(0, 4))
    pairs = [(name, rand_value(rng)) for name in names if name not in ("id", "items")]
    if size:
        pairs.append(rand_size(rng))
        if rng.random() < 0.2:
            pairs.append(("extraHeight", rng.choice([0, 12, Raw("20.5"), Raw("1e1")])))
        if rng.random() < 0.1:
            pairs.append(("fullWidth", rng.random() < 0.7))
    return pairs


def rand_size(rng):
    roll = rng.random()
    if roll < 0.4:
        return ("aspectRatio", rng.choice([1, Raw("1.5"), Raw("0.75"), Raw("1.333"), 2, Raw("0.01"), 100, Raw("3e-1")]))
    if roll < 0.7:
        return ("width", rng.choice([800, 1200, Raw("640.5"), 300])), ("height", rng.choice([600, 1200, 900, Raw("333.3")]))
    return ("fixedHeight", rng.choice([44, Raw("120.5"), 1, 300, Raw("1e2")]))


SIZE_MEMBERS = ("aspectRatio", "width", "height", "fixedHeight", "extraHeight", "fullWidth")


def size_value(rng, name):
    """Another valid value of a size member."""
    if name == "fullWidth":
        return rng.random() < 0.5
    if name == "aspectRatio":
        return rng.choice([1, Raw("1.5"), Raw("0.75"), 2, Raw("0.5")])
    return rng.choice([10, 44, Raw("120.5"), 300, 640])


def flatten_pairs(pairs):
    out = []
    for pair in pairs:
        if isinstance(pair[0], tuple):
            out.extend(pair)
        else:
            out.append(pair)
    return out


def rand_item(rng, used, size=False):
    return {"id": rand_id(rng, used), "content": flatten_pairs(rand_content(rng, size=size))}


def rand_snapshot(rng, sections, items_range, sized=0.0):
    used_sections, used_items = set(), set()
    model = []
    for _ in range(sections):
        size = rng.random() < sized
        model.append({"id": rand_id(rng, used_sections),
                      "content": flatten_pairs(rand_content(rng)) if rng.random() < 0.4 else [],
                      "items": [rand_item(rng, used_items, size) for _ in range(rng.randrange(*items_range))],
                      "sized": size})
    return model, used_sections, used_items


def evolve(rng, old, used_sections, used_items, changes, sections=True):
    """A new snapshot from `old`: `changes` random deletes, inserts, moves and updates of items and sections."""
    new = [{"id": s["id"], "content": list(s["content"]), "items": [dict(i) for i in s["items"]],
            "sized": s["sized"]} for s in old]
    for _ in range(changes):
        op = rng.randrange(12 if sections else 6)
        items = [(si, ii) for si, s in enumerate(new) for ii in range(len(s["items"]))]
        if op == 0 and items:  # delete an item
            si, ii = rng.choice(items)
            del new[si]["items"][ii]
        elif op == 1 and new:  # insert an item
            s = rng.choice(new)
            s["items"].insert(rng.randrange(len(s["items"]) + 1), rand_item(rng, used_items, s["sized"]))
        elif op in (2, 3) and items:  # move an item (across sections too)
            si, ii = rng.choice(items)
            item = new[si]["items"].pop(ii)
            target = rng.choice(new) if sections and rng.random() < 0.4 else new[si]
            target["items"].insert(rng.randrange(len(target["items"]) + 1), item)
        elif op in (4, 5) and items:  # update an item's content
            si, ii = rng.choice(items)
            item = dict(new[si]["items"][ii])
            content = list(item["content"])
            roll = rng.random()
            if content and roll < 0.5:
                k = rng.randrange(len(content))
                name, value = content[k]
                content[k] = (name, size_value(rng, name) if name in SIZE_MEMBERS else nearly_equal(value, rng))
            elif content and roll < 0.7:
                k = rng.randrange(len(content))
                if content[k][0] not in SIZE_MEMBERS:
                    del content[k]
            else:
                name = rng.choice(WORDS[:-3])
                if all(name != n for n, _ in content):
                    content.append((name, rand_value(rng)))
            item["content"] = content
            new[si]["items"][ii] = item
        elif op == 6 and new:  # delete a section
            del new[rng.randrange(len(new))]
        elif op == 7:  # insert a section
            new.insert(rng.randrange(len(new) + 1), {"id": rand_id(rng, used_sections), "content": [],
                                                     "items": [rand_item(rng, used_items) for _ in range(rng.randrange(3))],
                                                     "sized": False})
        elif op in (8, 9) and len(new) > 1:  # move a section
            s = new.pop(rng.randrange(len(new)))
            new.insert(rng.randrange(len(new) + 1), s)
        elif op in (10, 11) and new:  # update a section's content
            s = rng.choice(new)
            name = rng.choice(["header", "footer", "style"])
            if s["content"] and (rng.random() < 0.4 or any(n == name for n, _ in s["content"])):
                s["content"] = s["content"][:-1]
            else:
                s["content"] = list(s["content"]) + [(name, rand_value(rng))]
    return new


def item_json(item, rng, reorder):
    pairs = [("id", item["id"])] + list(item["content"])
    if reorder:
        pairs = [(k, v if k == "id" else rewrite_equal(v, rng)) for k, v in pairs]
        rng.shuffle(pairs)
    elif rng.random() < 0.3:
        rng.shuffle(pairs)
    return Obj((k, write_id(v, rng) if k == "id" else v) for k, v in pairs)


def snapshot_json(model, rng, bare, reorder=False):
    """`{"items": [...]}` for a bare list (the first section's items), else `{"sections": [...]}`."""
    if bare:
        items = [i for s in model for i in s["items"]]
        return Obj([("items", [item_json(i, rng, reorder) for i in items])])
    sections = []
    for s in model:
        pairs = [("id", s["id"]), ("items", [item_json(i, rng, reorder) for i in s["items"]])] + list(s["content"])
        if reorder or rng.random() < 0.3:
            rng.shuffle(pairs)
        sections.append(Obj((k, write_id(v, rng) if k == "id" else v) for k, v in pairs))
    return Obj([("sections", sections)])


def rand_options(rng, full=False):
    pairs = []
    if full or rng.random() < 0.7:
        renderings = rng.sample(["staged", "sequential", "ranges", "jsonPatch"], rng.randrange(1, 5))
        pairs.append(("renderings", renderings))
    for name in ("ids", "changedMembers", "pretty"):
        if full or rng.random() < 0.4:
            pairs.append((name, rng.random() < 0.6))
    if rng.random() < 0.3:
        pairs.append(("duplicates", rng.choice(["reject", "keepFirst"])))
    rng.shuffle(pairs)
    return Obj(pairs)


def diff_request(rng, old, new, options):
    pairs = [("old", old), ("new", new)]
    if options is not None:
        pairs.append(("options", options))
    if rng.random() < 0.3:
        rng.shuffle(pairs)
    return Obj(pairs)


def rand_diff(rng, sections=True, sized=0.0, scale=1):
    """A valid /diff body's value (options aside): its old model, new model and the two snapshots as written."""
    count = rng.randrange(1, 5) if sections else 1
    old, used_s, used_i = rand_snapshot(rng, count, (0, 8 * scale), sized)
    new = evolve(rng, old, used_s, used_i, rng.randrange(0, 6 * scale), sections)
    bare_old = not sections
    bare_new = not sections
    if sections and len(old) == 1 and rng.random() < 0.1:
        bare_old = True  # (a bare list is one implicit section: a different section from an explicit one)
    return old, new, snapshot_json(old, rng, bare_old), snapshot_json(new, rng, bare_new, reorder=rng.random() < 0.7)


# ---------------------------------------------------------------------------------------------------------
# Layout settings and items


def rand_settings(rng, append_stable=None):
    pairs = [("containerWidth", rng.choice([375, 320, 414, 768, 1024, Raw("375.5"), Raw("1e3"), 1, 100000]))]
    if rng.random() < 0.7:
        pairs.append(("scale", rng.choice([1, 2, 3, Raw("2.5"), Raw("0.25"), 8, Raw("3.0")])))
    if rng.random() < 0.8:
        roll = rng.random()
        if roll < 0.6:
            pairs.append(("columns", rng.choice([1, 2, 3, 4, 5, 64])))
        elif roll < 0.8:
            pairs.append(("columns", Obj([("count", rng.randrange(1, 6))])))
        else:
            rule = [("minimumWidth", rng.choice([100, Raw("150.5"), 50]))]
            if rng.random() < 0.5:
                rule.append(("maximumCount", rng.randrange(1, 8)))
            pairs.append(("columns", Obj(rule)))
    for name in ("columnSpacing", "itemSpacing"):
        if rng.random() < 0.6:
            pairs.append((name, rng.choice([0, 8, Raw("4.5"), 16, Raw("0.333")])))
    if rng.random() < 0.4:
        pairs.append(("insets", Obj((side, rng.choice([0, 8, Raw("16.5")]))
                                    for side in rng.sample(["top", "leading", "bottom", "trailing"], rng.randrange(5)))))
    if rng.random() < 0.4:
        pairs.append(("direction", rng.choice(["leftToRight", "rightToLeft"])))
    stable = ["shortestColumn", "roundRobin"]
    strategies = stable if append_stable else stable + ["sequentialSplit", "balanced"]
    if append_stable is not None or rng.random() < 0.7:
        if rng.random() < 0.8 or not append_stable:
            pairs.append(("strategy", rng.choice(strategies)))
    rng.shuffle(pairs)
    return Obj(pairs)


def pages_allowed(settings):
    """Whether the settings' strategy is append-stable (pageSize and cursors allowed)."""
    return all(v not in ("balanced", "sequentialSplit") for k, v in settings.pairs if k == "strategy")


def settings_with(settings, name, value):
    pairs = [(k, v) for k, v in settings.pairs if k != name]
    pairs.append((name, value))
    return Obj(pairs)


def rand_layout_items(rng, count, used):
    items = []
    for _ in range(count):
        pairs = [("id", write_id(rand_id(rng, used), rng))] + flatten_pairs([rand_size(rng)])
        if rng.random() < 0.2:
            pairs.append(("extraHeight", rng.choice([0, 20, Raw("12.5")])))
        if rng.random() < 0.08:
            pairs.append(("fullWidth", rng.random() < 0.8))
        if rng.random() < 0.2:
            pairs.append((rng.choice(["title", "tags", "url"]), rand_value(rng)))
        rng.shuffle(pairs)
        items.append(Obj(pairs))
    return items


BAD_NUMBERS = [0, -1, Raw("-0.5"), 100001, Raw("1e6"), "375", None, True, [], Obj([]), Raw("0.1"), 65, 9,
               Raw("12345678901234567890123456789012345678901"), Raw("1e-400"), Raw("2.5")]


def bad_settings(rng, settings):
    """Settings with one to three invalid values (or unknown members, a missing width)."""
    for _ in range(rng.randrange(1, 4)):
        roll = rng.randrange(10)
        if roll == 0:
            settings = Obj([(k, v) for k, v in settings.pairs if k != "containerWidth"])
        elif roll == 1:
            settings = settings_with(settings, rng.choice(["colums", "Scale", "spacing", ""]), 1)
        elif roll == 2:
            settings = settings_with(settings, "columns", rng.choice(
                [0, 65, Raw("2.5"), Obj([("count", 0)]), Obj([("count", 2), ("minimumWidth", 3)]), Obj([]),
                 Obj([("x", 1)]), Obj([("maximumCount", 3)]), Obj([("minimumWidth", 0)]), "2", None,
                 Obj([("minimumWidth", 100), ("maximumCount", 0)])]))
        elif roll == 3:
            settings = settings_with(settings, "direction", rng.choice(["up", "", "LeftToRight", 1, None]))
        elif roll == 4:
            settings = settings_with(settings, "strategy", rng.choice(["masonry", "ShortestColumn", 0, [], None]))
        elif roll == 5:
            settings = settings_with(settings, "insets", rng.choice(
                [Obj([("top", -1)]), Obj([("left", 1)]), [], 3, Obj([("bottom", "1")]), Obj([("top", 100001)])]))
        elif roll == 6:
            settings = settings_with(settings, "scale", rng.choice([0, Raw("0.1"), 9, Raw("8.0001"), "2", None]))
        else:
            settings = settings_with(settings, rng.choice(["containerWidth", "columnSpacing", "itemSpacing"]),
                                     rng.choice(BAD_NUMBERS))
    return settings


def bad_layout_item(rng, used):
    roll = rng.randrange(9)
    if roll == 0:
        return Obj([("id", rand_id(rng, used))])  # no size
    if roll == 1:
        return Obj([("id", rand_id(rng, used)), ("aspectRatio", 1), ("fixedHeight", 10)])  # ambiguous
    if roll == 2:
        return Obj([("id", rand_id(rng, used)), ("width", 10)])  # width without height
    if roll == 3:
        return Obj([("id", rand_id(rng, used)), (rng.choice(["aspectRatio", "width", "height", "fixedHeight",
                                                            "extraHeight"]), rng.choice(BAD_NUMBERS))]
                   + ([("height", 10)] if rng.random() < 0.3 else []))
    if roll == 4:
        return Obj([("id", rand_id(rng, used)), ("fixedHeight", 10), ("fullWidth", rng.choice(["yes", 1, None]))])
    if roll == 5:
        return Obj([("id", rng.choice([Raw("1.5"), None, True, [], Raw("1e2"), Raw("9223372036854775808")])),
                    ("aspectRatio", 1)])
    if roll == 6:
        return Obj([("aspectRatio", 1)])  # no id
    if roll == 7:
        return rng.choice([None, 1, "item", []])
    return Obj([("id", rand_id(rng, used)), ("aspectRatio", 1), ("aspectRatio", 2)])  # a repeated member


def layout_body(settings, items, page_size=None, cursor=None, pretty=None, rng=None):
    pairs = [("settings", settings), ("items", items)]
    if page_size is not None:
        pairs.append(("pageSize", page_size))
    if cursor is not None:
        pairs.append(("cursor", cursor))
    if pretty is not None:
        pairs.append(("pretty", pretty))
    if rng is not None and rng.random() < 0.5:
        rng.shuffle(pairs)
    return Obj(pairs)


def forged_cursor(payload):
    """A cursor sealed with CURSOR_KEY around any payload (the server's CursorCodec: base64url without padding
    of payload + HMAC-SHA256 keyed by SHA-256 of the secret, its first 16 bytes)."""
    tag = hmac.new(hashlib.sha256(CURSOR_KEY.encode()).digest(), payload, hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(payload + tag).decode().rstrip("=")


def leb128(value):
    out = bytearray()
    while True:
        byte = value & 0x7F
        value >>= 7
        if value:
            out.append(byte | 0x80)
        else:
            out.append(byte)
            return bytes(out)


def bad_cursor(rng, good):
    """An invalid cursor: altered, truncated, not base64url, too long, not a string, or forged with the right key
    around a malformed continuation (unknown version, truncated, out of range, trailing bytes)."""
    roll = rng.randrange(10)
    if roll == 0 and good:
        k = rng.randrange(len(good))
        return good[:k] + ("A" if good[k] != "A" else "B") + good[k + 1:]
    if roll == 1 and good:
        return good[:rng.randrange(len(good))]
    if roll == 2:
        return rng.choice(["", "!!!!", "abc=", "a+b/", "\u00e9", "AAAA", "A", "AB"])
    if roll == 3:
        return "A" * rng.choice([2048, 2049, 3000])
    if roll == 4:
        return rng.choice([1, None, [], Obj([]), True])
    if roll == 5 and good:
        return good + rng.choice(["A", "AA", "=", "B"])  # non-canonical or longer
    fingerprint = bytes(rng.randrange(256) for _ in range(8))
    version = bytes([rng.choice([0, 1, 1, 2])])
    heights = [rng.randrange(0, 1 << 20) for _ in range(rng.randrange(0, 4))]
    fields = [rng.randrange(0, 50), rng.randrange(0, 4), len(heights) + rng.choice([0, 0, 1, -1])]
    payload = version + fingerprint + b"".join(leb128(max(0, v)) for v in fields + heights)
    mangle = rng.randrange(4)
    if mangle == 1:
        payload = payload[:rng.randrange(1, len(payload))]
    elif mangle == 2:
        payload += b"\x00"
    elif mangle == 3:
        payload = payload[:9] + b"\xff" * rng.randrange(1, 12)
    return forged_cursor(payload)


# ---------------------------------------------------------------------------------------------------------
# Requests and cases


class Request:
    __slots__ = ("method", "path", "headers", "body", "note")

    def __init__(self, method, path, body=b"", headers=None, note=""):
        self.method, self.path, self.body, self.note = method, path, body, note
        self.headers = dict(headers or {})


def post(path, body, note="", content_type="application/json", headers=None):
    h = {} if content_type is None else {"Content-Type": content_type}
    h.update(headers or {})
    return Request("POST", path, body, h, note)


ACCEPT_ENCODINGS = ["gzip", "gzip, deflate, br", "x-gzip", "*", "gzip;q=0", "identity;q=0", "gzip;q=0.5, identity",
                    "identity;q=0, gzip;q=0", "br", "gzip;q=abc", "GZIP", "gzip;q=1.0, identity;q=0.5", "*;q=0",
                    "deflate", ""]


def transport_dress(request, rng):
    """Gzips a POST body one time in eight and adds an Accept-Encoding one time in three."""
    if request.method == "POST" and "Content-Encoding" not in request.headers and rng.random() < 0.125:
        request.body = gzip.compress(request.body, compresslevel=rng.choice([1, 6, 9]), mtime=0)
        request.headers["Content-Encoding"] = rng.choice(["gzip", "gzip", "x-gzip"])
        request.note += " (gzipped)"
    if "Accept-Encoding" not in request.headers and rng.random() < 1 / 3:
        request.headers["Accept-Encoding"] = rng.choice(ACCEPT_ENCODINGS)
    return request


def case_diff_items(rng):
    old, new, old_json, new_json = rand_diff(rng, sections=False, scale=rng.choice([1, 1, 1, 4]))
    options = rand_options(rng) if rng.random() < 0.5 else None
    yield post("/diff", encode(diff_request(rng, old_json, new_json, options), rng), "bare items")


def case_diff_sections(rng):
    old, new, old_json, new_json = rand_diff(rng, sections=True, scale=rng.choice([1, 1, 2]))
    options = rand_options(rng) if rng.random() < 0.5 else None
    yield post("/diff", encode(diff_request(rng, old_json, new_json, options), rng), "sections")


def case_diff_options(rng):
    if rng.random() < 0.015:  # an answer over 1 MiB and twice the body: written while sent (chunked)
        n = rng.randrange(6000, 9000)
        old = [Obj([("id", k)]) for k in range(n // 2)]
        new = [Obj([("id", k), ("v", 1)]) if k % 7 == 0 else Obj([("id", k)]) for k in range(0, n // 2, 2)]
        new += [Obj([("id", k)]) for k in range(n // 2, n)]
        rng.shuffle(new)
        options = Obj([("renderings", ["staged", "sequential", "ranges", "jsonPatch"]), ("ids", True),
                       ("changedMembers", True), ("pretty", rng.random() < 0.7)])
        body = Obj([("old", Obj([("items", old)])), ("new", Obj([("items", new)])), ("options", options)])
        yield post("/diff", encode(body, rng, plain=True), "all options, large answer")
        return
    old, new, old_json, new_json = rand_diff(rng, sections=rng.random() < 0.7, scale=2)
    yield post("/diff", encode(diff_request(rng, old_json, new_json, rand_options(rng, full=True)), rng), "options")


def with_duplicates(rng, model):
    """Repeats some item ids (in the same or another section) and some section ids."""
    model = [dict(s, items=list(s["items"])) for s in model]
    items = [i for s in model for i in s["items"]]
    for _ in range(rng.randrange(1, 4)):
        if items and rng.random() < 0.7:
            source = rng.choice(items)
            target = rng.choice(model)
            copy = {"id": source["id"], "content": source["content"] if rng.random() < 0.5 else []}
            target["items"].insert(rng.randrange(len(target["items"]) + 1), copy)
        elif model:
            source = rng.choice(model)
            model.insert(rng.randrange(len(model) + 1), {"id": source["id"], "content": [], "sized": False,
                                                        "items": []})
    return model


def case_diff_duplicates(rng):
    sections = rng.random() < 0.7
    old, new, _, _ = rand_diff(rng, sections=sections)
    if rng.random() < 0.8:
        old = with_duplicates(rng, old)
    if rng.random() < 0.8:
        new = with_duplicates(rng, new)
    options = rand_options(rng)
    policy = rng.choice(["reject", "keepFirst", "keepFirst", None])
    if policy:
        options = Obj([p for p in options.pairs if p[0] != "duplicates"] + [("duplicates", policy)])
    body = diff_request(rng, snapshot_json(old, rng, not sections), snapshot_json(new, rng, not sections, True), options)
    yield post("/diff", encode(body, rng), f"duplicates {policy}")


def rand_section_layouts(rng, new, bare):
    layouts = []
    candidates = [None] if bare else [s["id"] for s in new if s["sized"]] or [s["id"] for s in new] or ["none"]
    for section in rng.sample(candidates, min(len(candidates), rng.randrange(1, 3))):
        settings = rand_settings(rng)
        pairs = [("section", write_id(section, rng) if section is not None else None), ("settings", settings)]
        if section is None and rng.random() < 0.5:
            pairs = pairs[1:]
        if rng.random() < 0.5 and (pages_allowed(settings) or rng.random() < 0.1):
            pairs.append(("pageSize", rng.randrange(1, 12)))
        rng.shuffle(pairs)
        layouts.append(Obj(pairs))
    return layouts


def case_diff_layouts(rng):
    bare = rng.random() < 0.3
    count = 1 if bare else rng.randrange(1, 4)
    old, used_s, used_i = rand_snapshot(rng, count, (0, 10), sized=0.8 if rng.random() < 0.9 else 0.0)
    new = evolve(rng, old, used_s, used_i, rng.randrange(0, 8), not bare)
    if rng.random() < 0.9:  # every item sized (moved and inserted ones too), in both snapshots
        for model in (old, new):
            for s in model:
                s["sized"] = True
                s["items"] = [i if any(k in ("aspectRatio", "width", "fixedHeight") for k, _ in i["content"])
                              else dict(i, content=i["content"] + flatten_pairs([rand_size(rng)])) for i in s["items"]]
    layouts = rand_section_layouts(rng, new, bare)
    if rng.random() < 0.3:  # one bad value somewhere in them
        k = rng.randrange(len(layouts))
        pairs = list(layouts[k].pairs)
        roll = rng.randrange(6)
        if roll == 0:
            pairs = [(n, bad_settings(rng, v) if n == "settings" else v) for n, v in pairs]
        elif roll == 1:
            pairs.append(("pageSize", rng.choice([0, -1, Raw("1.5"), "2", None, Raw("1e1")])))
        elif roll == 2:
            pairs = [(n, v) for n, v in pairs if n != "settings"]
        elif roll == 3:
            pairs.append(("section", rng.choice(["no-such-section", 123456789, Raw("1.5"), True, []])))
        elif roll == 4:
            pairs.append((rng.choice(["cursor", "items", "Section"]), 1))
        else:
            layouts.append(layouts[k])  # the same section twice
        layouts[k] = Obj(pairs)
    if rng.random() < 0.15:  # items of a laid-out section with a bad size
        for s in new:
            if s["items"]:
                victim = rng.randrange(len(s["items"]))
                s["items"][victim] = dict(s["items"][victim], content=[("aspectRatio", rng.choice(BAD_NUMBERS))])
                break
    options = rand_options(rng)
    options = Obj([p for p in options.pairs] + [("layouts", layouts)])
    body = diff_request(rng, snapshot_json(old, rng, bare), snapshot_json(new, rng, bare, True), options)
    answer = yield post("/diff", encode(body, rng), "layouts")
    # Continue the first layout on /layout with the cursor it returned, when it did.
    value = answer.json()
    if value and value.get("layouts") and value["layouts"][0].get("nextCursor") and rng.random() < 0.5:
        settings = next(v for n, v in layouts[0].pairs if n == "settings")
        items = rand_layout_items(rng, rng.randrange(0, 6), set())
        yield post("/layout", encode(layout_body(settings, items, cursor=value["layouts"][0]["nextCursor"], rng=rng), rng),
                   "cursor of a /diff layout")


# Syntax errors


def valid_diff_bytes(rng):
    old, new, old_json, new_json = rand_diff(rng, sections=rng.random() < 0.6)
    return encode(diff_request(rng, old_json, new_json, rand_options(rng) if rng.random() < 0.4 else None), rng)


STRAY = [b"}", b"]", b"{", b"[", b",", b":", b'"', b"\\", b"x", b"\x00", b"\x01", b"\x7f", b"\xff", b"\xc3",
         b"\xe2\x82", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xf5", b"\x80", b" \x0b", b"/*c*/", b"#",
         b"\xef\xbb\xbf", b"'", b"NaN", b"-", b"0", b"01", b"1.", b".5", b"1e", b"+1", b"tru", b"nul", b"Infinity"]
BAD_ESCAPES = [b"\\x41", b"\\u12", b"\\u12G4", b"\\uD800", b"\\uDC00", b"\\uD83D\\u0041", b"\\U0041", b"\\'",
               b"\\\n", b"\\ ", b"\\u", b"\\uD800\\uD800", b"\t", b"\n", b"\x1f", b"\\uDBFF\\uDFFF"]


def nested(depth, inner=b"1", kind=None):
    opens = b"".join((b"[" if (kind or "a") == "a" else b'{"k":') for _ in range(depth))
    closes = b"".join((b"]" if (kind or "a") == "a" else b"}") for _ in range(depth))
    return opens + inner + closes


def case_diff_syntax(rng):
    body = valid_diff_bytes(rng)
    roll = rng.randrange(9)
    if roll == 0:
        body, note = body[:rng.randrange(len(body))], "truncated"
    elif roll == 1:
        k = rng.randrange(len(body) + 1)
        body, note = body[:k] + rng.choice(STRAY) + body[k:], "stray bytes"
    elif roll == 2:
        k = rng.randrange(len(body))
        body, note = body[:k] + rng.choice(STRAY) + body[k + 1:], "byte replaced"
    elif roll == 3:  # a bad escape or a raw control character inside a string
        quotes = [i for i, b in enumerate(body) if b == 0x22]
        k = rng.choice(quotes) + 1 if quotes else 0
        body, note = body[:k] + rng.choice(BAD_ESCAPES) + body[k:], "bad escape in a string"
    elif roll == 4:  # invalid UTF-8 inside a string
        quotes = [i for i, b in enumerate(body) if b == 0x22]
        k = rng.choice(quotes) + 1 if quotes else 0
        body, note = body[:k] + rng.choice([b"\xc3", b"\xed\xa0\x80", b"\xc0\xaf", b"\xf4\x90\x80\x80", b"\xff",
                                            b"\x80", b"\xe2\x82(", b"\xf0\x9f\x98"]) + body[k:], "invalid UTF-8"
    elif roll == 5:  # nesting around the limit (128) in an item's content, or anywhere
        depth = rng.choice([126, 127, 128, 129, 130, 140, 1000])
        deep = nested(depth, kind=rng.choice(["a", "o"]))
        if rng.random() < 0.7:
            body = b'{"old":{"items":[{"id":1,"deep":' + deep + b'}]},"new":{"items":[]}}'
        else:
            body = nested(depth, kind=rng.choice(["a", "o"]))
        note = f"nesting {depth}"
    elif roll == 6:  # numbers at and past the exponent limit, or malformed
        token = rng.choice([b"1e1000000000", b"1e1000000001", b"-1E-1000000000", b"1e-1000000001", b"1e99999999999",
                            b"01", b"1.", b".5", b"-", b"1e", b"+1", b"1.e5", b"0x10", b"1_000", b"--1", b"1e+-1"])
        body = b'{"old":{"items":[{"id":1,"n":' + token + b'}]},"new":{"items":[{"id":1,"n":0}]}}'
        note = "number " + token.decode()
    elif roll == 7:  # bytes after the document, a BOM, or whitespace only
        body, note = rng.choice([(body + b" x", "trailing bytes"), (body + b"{}", "two documents"),
                                 (b"\xef\xbb\xbf" + body, "BOM"), (b" \n\t ", "whitespace only"),
                                 (body + b"\x00", "trailing NUL"), (body + b"\n", "trailing newline (valid)")])
    else:  # a repeated member name at some depth (a 422, not a syntax error, but found by the same walk)
        pieces = [b'{"old":{"items":[]},"new":{"items":[]},"old":{"items":[]}}',
                  b'{"old":{"items":[{"id":1,"a":1,"a":1}]},"new":{"items":[]}}',
                  b'{"old":{"items":[{"id":1,"id":1}]},"new":{"items":[]}}',
                  b'{"old":{"items":[],"items":[]},"new":{"items":[]}}',
                  b'{"old":{"sections":[{"id":1,"items":[],"items":[]}]},"new":{"items":[]}}',
                  b'{"old":{"items":[{"id":1,"x":{"b":1,"b":2}}]},"new":{"items":[{"id":1,"x":{"b":1}}]}}',
                  b'{"old":{"items":[{"id":1,"\\u0061":1,"a":2}]},"new":{"items":[]}}',
                  b'{"old":{"items":[]},"new":{"items":[]},"options":{"ids":true,"ids":false}}']
        body, note = rng.choice(pieces), "repeated member"
    yield post("/diff", body, note)


# Schema violations

WRONG_KINDS = [None, True, False, 0, 1, Raw("1.5"), "s", "", [], [1], Obj([]), Obj([("x", 1)])]
BAD_IDS = [Raw("1.5"), Raw("1.0"), Raw("1e2"), Raw("1E0"), Raw("-0.0"), 9223372036854775808, -9223372036854775809,
           Raw("99999999999999999999999"), True, False, None, [], Obj([]), Raw("-1e-5"), Raw("0.1e1")]


def replace_somewhere(value, rng, make):
    """`value` with one node replaced (by `make(old_node)`), chosen among all nodes at random."""
    nodes = []

    def walk(v, path):
        nodes.append(path)
        if isinstance(v, Obj):
            for k, (_, child) in enumerate(v.pairs):
                walk(child, path + [k])
        elif isinstance(v, list):
            for k, child in enumerate(v):
                walk(child, path + [k])

    walk(value, [])
    target = rng.choice(nodes)

    def rebuild(v, path):
        if not path:
            return make(v)
        k = path[0]
        if isinstance(v, Obj):
            pairs = list(v.pairs)
            pairs[k] = (pairs[k][0], rebuild(pairs[k][1], path[1:]))
            return Obj(pairs)
        items = list(v)
        items[k] = rebuild(items[k], path[1:])
        return items

    return rebuild(value, target)


def ids_somewhere(value, rng, make):
    """`value` with some `id` members' values replaced by `make()`."""
    if isinstance(value, Obj):
        return Obj((k, make() if k == "id" and rng.random() < 0.5 else ids_somewhere(v, rng, make)) for k, v in value.pairs)
    if isinstance(value, list):
        return [ids_somewhere(v, rng, make) for v in value]
    return value


def drop_member(value, rng, names):
    if isinstance(value, Obj):
        pairs = [(k, drop_member(v, rng, names)) for k, v in value.pairs if not (k in names and rng.random() < 0.4)]
        return Obj(pairs)
    if isinstance(value, list):
        return [drop_member(v, rng, names) for v in value]
    return value


def case_diff_schema(rng):
    old, new, old_json, new_json = rand_diff(rng, sections=rng.random() < 0.6)
    body = diff_request(rng, old_json, new_json, rand_options(rng) if rng.random() < 0.3 else None)
    roll = rng.randrange(8)
    if roll == 0:
        body, note = replace_somewhere(body, rng, lambda v: rng.choice(WRONG_KINDS)), "a wrong kind somewhere"
    elif roll == 1:
        body, note = ids_somewhere(body, rng, lambda: rng.choice(BAD_IDS)), "bad ids"
    elif roll == 2:
        body, note = drop_member(body, rng, {"id", "items", "old", "new", "sections"}), "missing members"
    elif roll == 3:
        extra = rng.choice([("extra", 1), ("Old", {}), ("options ", {}), ("", None)])
        target = rng.choice(["top", "old", "new"])
        if target == "top":
            body = Obj(body.pairs + [extra])
        else:
            body = Obj((k, Obj(v.pairs + [extra]) if k == target else v) for k, v in body.pairs)
        note = f"unknown member {extra[0]!r} in {target}"
    elif roll == 4:
        both = Obj([("sections", [Obj([("id", 1), ("items", [])])]), ("items", [])])
        side = rng.choice(["old", "new"])
        body = Obj((k, both if k == side else v) for k, v in body.pairs)
        note = "both sections and items"
    elif roll == 5:
        body = rng.choice([[], "diff", 1, None, True, Obj([]), Obj([("old", body.pairs[0][1])]),
                           Obj([("new", [])]), Obj([("old", [1]), ("new", "x")]), [Obj([])]])
        note = "wrong document"
    elif roll == 6:  # a repeated member name where the schema reads it
        key = rng.choice(["old", "new", "options"])
        repeats = 1 if any(k == key for k, _ in body.pairs) else 2
        body = Obj(body.pairs + [(key, Obj([("items", [])]) if key != "options" else Obj([]))] * repeats)
        note = f"repeated {key}"
    else:
        for _ in range(rng.randrange(2, 6)):
            body = replace_somewhere(body, rng, lambda v: rng.choice(WRONG_KINDS + BAD_IDS))
        note = "several wrong values"
    yield post("/diff", encode(body, rng), note)


def case_diff_bad_options(rng):
    old, new, old_json, new_json = rand_diff(rng, sections=rng.random() < 0.6)
    options = rand_options(rng)
    bad = [
        ("renderings", rng.choice([[], ["staged", "staged"], ["Staged"], ["patch"], "staged", [1], None,
                                   ["ranges", "jsonPatch", "ranges"], [[]], Obj([]), ["staged", None]])),
        ("duplicates", rng.choice(["keepLast", "", "Reject", 1, None, ["reject"], True])),
        ("pretty", rng.choice(["true", 1, None, [], Raw("0")])),
        ("ids", rng.choice(["yes", 0, None, Obj([])])),
        ("changedMembers", rng.choice(["true", 1, None])),
        ("layouts", rng.choice([Obj([]), "x", 1, None, [1], [Obj([])], [Obj([("settings", Obj([]))])],
                                [Obj([("section", None), ("settings", bad_settings(rng, rand_settings(rng)))])],
                                [Obj([("section", None), ("settings", rand_settings(rng)), ("pageSize", 0)])],
                                [Obj([("settings", rand_settings(rng)), ("extra", 1)])]])),
        (rng.choice(["rendering", "Pretty", "layout", "", "unknown"]), True),
    ]
    pairs = list(options.pairs)
    for name, value in rng.sample(bad, rng.randrange(1, 4)):
        pairs = [p for p in pairs if p[0] != name] + [(name, value)]
    if rng.random() < 0.1:
        options = rng.choice(WRONG_KINDS[:-2])
        options = Raw("null") if options is None else options  # (None would leave the member out)
    else:
        options = Obj(pairs)
    yield post("/diff", encode(diff_request(rng, old_json, new_json, options), rng), "bad options")


def case_diff_many(rng):
    n = rng.choice([99, 100, 101, 150, 999, 1000, 1001, 1500, 3000])
    roll = rng.randrange(5)
    if roll == 0:
        items = [Obj([("id", rng.choice(BAD_IDS))]) for _ in range(n)]
        body, note = Obj([("old", Obj([("items", items)])), ("new", Obj([("items", [])]))]), f"{n} bad ids"
    elif roll == 1:
        items = [rng.choice(WRONG_KINDS[:8]) for _ in range(n)]
        body, note = Obj([("old", Obj([("items", [])])), ("new", Obj([("items", items)]))]), f"{n} items not objects"
    elif roll == 2:  # repeated ids: n ids each twice or more
        ids = list(range(n))
        items = [Obj([("id", i)]) for i in ids + ids[: rng.randrange(n)] + ids[: rng.randrange(n // 4 + 1)]]
        rng.shuffle(items)
        body = Obj([("old", Obj([("items", items)])), ("new", Obj([("items", items[: rng.randrange(len(items))])])),
                    ("options", Obj([("duplicates", rng.choice(["reject", "reject", "keepFirst"]))]))])
        note = f"{n} repeated ids"
    elif roll == 3:  # repeated section ids and items without ids, mixed
        sections = [Obj([("id", k % (n // 2 + 1)), ("items", [Obj([("x", 1)])] if k % 3 == 0 else [])]) for k in range(n)]
        body, note = Obj([("old", Obj([("sections", sections)])), ("new", Obj([("sections", [])]))]), f"{n} sections"
    else:  # one id repeated n times
        items = [Obj([("id", "same")]) for _ in range(n)]
        body = Obj([("old", Obj([("items", items)])), ("new", Obj([("items", items)]))])
        note = f"one id {n} times"
    yield post("/diff", encode(body, rng, plain=rng.random() < 0.5), note)


def case_layout(rng):
    used = set()
    roll = rng.randrange(10)
    if roll < 4:  # valid, paged with the cursor the base returned
        settings = rand_settings(rng, append_stable=True)
        total = rng.randrange(0, 40)
        items = rand_layout_items(rng, total, used)
        page = rng.randrange(1, 12)
        style = rng.randrange(3)  # 0: the rest with pageSize; 1: only the page's items; 2: the rest, no pageSize
        start, cursor = 0, None
        for number in range(rng.randrange(1, 6)):
            sent = items[start:] if style != 1 else items[start:start + page]
            body = layout_body(settings, sent, page if style == 0 else None, cursor,
                               rng.choice([None, None, True, False]), rng)
            answer = yield post("/layout", encode(body, rng), f"page {number + 1}")
            value = answer.json()
            if not value or "nextCursor" not in value:
                return
            start = value["firstIndex"] + len(value["items"])
            if rng.random() < 0.15:  # the cursor with other settings: a 409
                other = settings_with(settings, "columns", rng.choice([7, 8, Obj([("count", 9)])]))
                yield post("/layout", encode(layout_body(other, items[start:], cursor=value["nextCursor"]), rng),
                           "cursor with other settings")
                return
            if rng.random() < 0.1:  # the cursor with a whole-section strategy: a 422
                other = settings_with(settings, "strategy", rng.choice(["balanced", "sequentialSplit"]))
                yield post("/layout", encode(layout_body(other, items[start:], cursor=value["nextCursor"]), rng),
                           "cursor with a whole-section strategy")
                return
            if rng.random() < 0.1:
                yield post("/layout", encode(layout_body(settings, items[start:], cursor=bad_cursor(
                    rng, value["nextCursor"])), rng), "bad cursor from a good one")
                return
            cursor = value["nextCursor"]
    elif roll < 6:  # valid, any strategy, one page
        settings = rand_settings(rng)
        items = rand_layout_items(rng, rng.randrange(0, 30), used)
        page = rng.choice([None, None, rng.randrange(1, 40)]) if pages_allowed(settings) or rng.random() < 0.1 else None
        yield post("/layout", encode(layout_body(settings, items, page, None, rng.choice([None, True]), rng), rng),
                   "one page")
    else:  # invalid
        settings = rand_settings(rng)
        items = rand_layout_items(rng, rng.randrange(0, 12), used)
        pairs = [("settings", settings), ("items", items)]
        kind = rng.randrange(8)
        if kind == 0:
            pairs[0] = ("settings", bad_settings(rng, settings))
        elif kind == 1:
            for _ in range(rng.randrange(1, 4)):
                k = rng.randrange(len(items) + 1)
                items.insert(k, bad_layout_item(rng, used))
            pairs[1] = ("items", items)
        elif kind == 2:
            pairs.append(("pageSize", rng.choice([0, -1, Raw("1.5"), "3", None, Raw("1e1"), 9223372036854775808])))
        elif kind == 3:
            pairs.append(("cursor", bad_cursor(rng, None)))
        elif kind == 4:
            pairs = rng.choice([[("items", items)], [("settings", settings)], [],
                                pairs + [("extra", 1)], pairs + [("items", [])], pairs + [("settings", settings)],
                                [("settings", rng.choice(WRONG_KINDS)), ("items", items)],
                                [("settings", settings), ("items", rng.choice(WRONG_KINDS[:-4]))]])
        elif kind == 5:  # pageSize or a cursor with a whole-section strategy
            pairs[0] = ("settings", settings_with(settings, "strategy", rng.choice(["balanced", "sequentialSplit"])))
            pairs.append(rng.choice([("pageSize", 2), ("cursor", forged_cursor(b"\x01" + bytes(8) + b"\x00\x00\x01\x00"))]))
        elif kind == 6:  # many invalid items (over 1,000 listed for /layout)
            n = rng.choice([999, 1000, 1001, 1200])
            pairs[1] = ("items", [Obj([("id", k), ("aspectRatio", 0)]) for k in range(n)])
        else:
            pairs.append(("pretty", rng.choice(["yes", 1, None])))
        if rng.random() < 0.5:
            rng.shuffle(pairs)
        body = Obj(pairs) if rng.random() < 0.95 else rng.choice([[], 1, "layout", None])
        yield post("/layout", encode(body, rng), "invalid layout")


def case_transport(rng):
    path = "/diff" if rng.random() < 0.8 else "/layout"
    body = valid_diff_bytes(rng) if path == "/diff" else encode(
        layout_body(rand_settings(rng), rand_layout_items(rng, 5, set())), rng)
    roll = rng.randrange(12)
    if roll == 0:
        yield post(path, gzip.compress(body, mtime=0) + rng.choice([b"", gzip.compress(b" ", mtime=0)]),
                   "gzip (one or two members)", headers={"Content-Encoding": rng.choice(["gzip", "x-gzip", "GZIP"])})
    elif roll == 1:
        packed = gzip.compress(body, mtime=0)
        damaged = rng.choice([packed[:rng.randrange(len(packed))], packed + b"junk",
                              packed[:-8] + bytes(8), packed[:10] + b"\xff" + packed[11:], b"not gzip at all", b""])
        yield post(path, damaged, "damaged gzip", headers={"Content-Encoding": "gzip"})
    elif roll == 2:
        coding = rng.choice(["br", "deflate", "compress", "identity", "Identity", "gzip, identity", "zstd", "",
                             "identity, gzip"])
        sent = gzip.compress(body, mtime=0) if "gzip" in coding else body
        yield post(path, sent, f"Content-Encoding {coding!r}", headers={"Content-Encoding": coding})
    elif roll == 3:
        media = rng.choice(["application/json; charset=utf-8", "application/merge-patch+json", "text/plain",
                            "application/x-www-form-urlencoded", "APPLICATION/JSON", "application/json;charset=latin1",
                            "application/vnd.api+json", "json", "", None, "application/jsonx", "multipart/form-data"])
        yield post(path, body, f"Content-Type {media!r}", content_type=media)
    elif roll == 4:
        yield post(path, b"", "empty body")
    elif roll == 5:  # over the body limit, plainly or once decoded
        if rng.random() < 0.5:
            big = b'{"old":{"items":[' + b",".join(b'{"id":%d}' % k for k in range(BODY_LIMIT // 9 + 10)) + b']}}'
            yield post(path, big[:rng.choice([BODY_LIMIT, BODY_LIMIT + 1, len(big)])], "over the body limit")
        else:
            bomb = gzip.compress(b" " * (BODY_LIMIT + rng.choice([1, 1000, 10 * BODY_LIMIT])) + b"{}", mtime=0)
            yield post(path, bomb, "gzip over the decoded limit", headers={"Content-Encoding": "gzip"})
    elif roll == 6:  # just under the limit, valid
        n = (BODY_LIMIT - 64) // 11
        big = b'{"old":{"items":[' + b",".join(b'{"id":%d}' % (k + 10000) for k in range(n))
        big = big[:BODY_LIMIT - 40].rsplit(b",", 1)[0] + b']},"new":{"items":[]}}'
        yield post("/diff", big, "near the body limit")
    elif roll == 7:
        method = rng.choice(["GET", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"])
        yield Request(method, path, body if method in ("PUT", "PATCH") else b"", {}, f"{method} {path}")
    elif roll == 8:
        yield post(rng.choice(["/diff/", "/Diff", "/diff?x=1", "/layout/x", "/nope", "/diff%20", "//diff"]), body,
                   "other path")
    elif roll == 9:
        yield post(path, body, "Accept-Encoding", headers={"Accept-Encoding": rng.choice(ACCEPT_ENCODINGS)})
    elif roll == 10:
        old, new, old_json, new_json = rand_diff(rng, scale=30)
        yield post("/diff", encode(diff_request(rng, old_json, new_json, rand_options(rng, full=True)), rng),
                   "larger answer, gzip wanted", headers={"Accept-Encoding": rng.choice(["gzip", "gzip;q=0.9, identity;q=0.1"])})
    else:
        yield Request("GET", rng.choice(["/healthz", "/readyz", "/openapi.yaml", "/"]), b"",
                      {"Accept-Encoding": rng.choice(ACCEPT_ENCODINGS)} if rng.random() < 0.5 else {}, "GET")


CATEGORIES = [
    ("diff-items", case_diff_items), ("diff-sections", case_diff_sections), ("diff-options", case_diff_options),
    ("diff-duplicates", case_diff_duplicates), ("diff-layouts", case_diff_layouts), ("diff-syntax", case_diff_syntax),
    ("diff-schema", case_diff_schema), ("diff-bad-options", case_diff_bad_options), ("diff-many", case_diff_many),
    ("layout", case_layout), ("transport", case_transport),
]


# ---------------------------------------------------------------------------------------------------------
# Sending and comparing


class Answer:
    __slots__ = ("status", "headers", "body", "error")

    def __init__(self, status=None, headers=(), body=b"", error=None):
        self.status, self.headers, self.body, self.error = status, list(headers), body, error

    def key(self):
        """What is compared: status, headers (but Date and X-Request-ID) in any order, body bytes, or the error."""
        headers = sorted((k.lower(), v) for k, v in self.headers if k.lower() not in IGNORED_HEADERS)
        return self.error, self.status, headers, self.body

    def decoded(self):
        if any(k.lower() == "content-encoding" and "gzip" in v.lower() for k, v in self.headers):
            try:
                return gzip.decompress(self.body)
            except Exception:
                return None
        return self.body

    def json(self):
        if self.status != 200:
            return None
        try:
            return json.loads(self.decoded())
        except Exception:
            return None

    def text(self):
        if self.error:
            return f"(no answer: {self.error})\n"
        lines = [f"{self.status}"] + [f"{k}: {v}" for k, v in self.headers] + [""]
        return "\n".join(lines) + "\n" + self.body.decode("utf-8", "backslashreplace") + "\n"


class Client:
    """A keep-alive connection to one server; one retry on a fresh connection when the kept one was closed."""

    def __init__(self, port):
        self.port = port
        self.conn = None

    def send(self, request, request_id):
        headers = dict(request.headers, **{"X-Request-ID": request_id})
        for attempt in (0, 1):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
            try:
                self.conn.request(request.method, request.path, body=request.body if request.method != "GET" else None,
                                  headers=headers)
                response = self.conn.getresponse()
                body = response.read()
                answer = Answer(response.status, response.getheaders(), body)
                if response.will_close:
                    self.conn.close()
                    self.conn = None
                return answer
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError) as error:
                self.conn.close()
                self.conn = None
                if attempt == 1:
                    return Answer(error=type(error).__name__)
            except (OSError, http.client.HTTPException) as error:
                self.conn.close()
                self.conn = None
                return Answer(error=f"{type(error).__name__}: {error}")


class Run:
    """Shared counters of a run (a lock around every update)."""

    def __init__(self, args):
        self.args = args
        self.lock = threading.Lock()
        self.next_case = 0
        self.cases = collections.Counter()
        self.requests = collections.Counter()
        self.statuses = collections.defaultdict(collections.Counter)
        self.problems = collections.Counter()
        self.mismatches = collections.Counter()
        self.mismatch_cases = []
        self.odd = []
        self.kept = 0
        self.gzipped = 0
        self.accept = 0
        self.stop = False
        self.generator_errors = 0

    def take(self):
        with self.lock:
            if self.stop or self.next_case >= self.args.end:
                return None
            index = self.next_case
            self.next_case += 1
            return index


def problem_type(answer):
    if answer.status and answer.status >= 400:
        try:
            return json.loads(answer.decoded()).get("type", "?").rsplit(":", 1)[-1]
        except Exception:
            return "(not JSON)"
    return None


def keep_mismatch(run, index, number, category, request, base, head):
    directory = os.path.join(run.args.out, f"{index:06d}-{number}-{category}")
    os.makedirs(directory, exist_ok=True)
    with open(os.path.join(directory, "request.body"), "wb") as f:
        f.write(request.body)
    with open(os.path.join(directory, "request.txt"), "w") as f:
        f.write(f"{request.method} {request.path}\n")
        f.writelines(f"{k}: {v}\n" for k, v in request.headers.items())
        f.write(f"(case {index}, request {number}, {category}: {request.note}; replay with --seed {run.args.seed} "
                f"--case {index})\n\n")
        f.write(request.body.decode("utf-8", "backslashreplace") + "\n")
    for name, answer in (("base", base), ("head", head)):
        with open(os.path.join(directory, f"{name}.txt"), "w") as f:
            f.write(answer.text())
        decoded = answer.decoded()
        if decoded is not answer.body and decoded is not None:
            with open(os.path.join(directory, f"{name}.decoded"), "wb") as f:
                f.write(decoded)
    headers = " ".join(f"-H {shlex.quote(f'{k}: {v}')}" for k, v in request.headers.items())
    with open(os.path.join(directory, "curl.sh"), "w") as f:
        f.write(f"curl -si -X {request.method} {headers} --data-binary @request.body "
                f"'http://127.0.0.1:8080{request.path}'\n")


def describe(base, head):
    """Where two answers differ, in one line."""
    if base.error or head.error:
        return f"transport: base {base.error or base.status}, head {head.error or head.status}"
    parts = []
    if base.status != head.status:
        parts.append(f"status {base.status} vs {head.status}")
    b, h = base.key()[2], head.key()[2]
    if b != h:
        parts.append(f"headers {sorted(set(b) - set(h))} vs {sorted(set(h) - set(b))}")
    if base.body != head.body:
        bd, hd = base.decoded(), head.decoded()
        if bd is not None and bd == hd:
            parts.append("body differs only as gzipped")
        else:
            bd, hd = bd or base.body, hd or head.body
            k = next((i for i in range(min(len(bd), len(hd))) if bd[i] != hd[i]), min(len(bd), len(hd)))
            parts.append(f"body differs at byte {k}: base {bd[max(0, k - 40):k + 40]!r} vs head "
                         f"{hd[max(0, k - 40):k + 40]!r}")
    return "; ".join(parts)


def exchanges(seed, index, clients):
    """The requests of case `index` (of `seed`), each sent to both servers: (number, request, base, head), in
    order; a request may be made from the base's answer to the one before (a cursor)."""
    name, make = CATEGORIES[index % len(CATEGORIES)]
    rng = random.Random(f"{seed}/{index}")
    cases = make(rng)
    number = 0
    try:
        request = next(cases)
        while True:
            number += 1
            transport_dress(request, rng)
            request_id = f"differential-{seed}-{index}-{number}"
            base, head = clients["base"].send(request, request_id), clients["head"].send(request, request_id)
            yield number, request, base, head
            request = cases.send(base)
    except StopIteration:
        return


def work(run, servers):
    clients = {name: Client(server.port) for name, server in servers.items()}
    while True:
        index = run.take()
        if index is None:
            return
        name = CATEGORIES[index % len(CATEGORIES)][0]
        try:
            for number, request, base, head in exchanges(run.args.seed, index, clients):
                same = base.key() == head.key()
                kind = problem_type(base)
                with run.lock:
                    run.requests[name] += 1
                    run.statuses[name][base.error or base.status] += 1
                    run.gzipped += "Content-Encoding" in request.headers
                    run.accept += "Accept-Encoding" in request.headers
                    if kind:
                        run.problems[f"{base.status} {kind}"] += 1
                    if base.status and base.status >= 500 and kind not in ("overloaded", "shutting-down"):
                        run.odd.append(f"case {index} request {number} ({name}: {request.note}): base answered "
                                       f"{base.status} {kind}")
                    if base.error:
                        run.odd.append(f"case {index} request {number} ({name}: {request.note}): base {base.error}")
                    if not same:
                        run.mismatches[name] += 1
                        run.mismatch_cases.append((index, number, f"case {index} request {number} ({name}: "
                                                                  f"{request.note}): " + describe(base, head)))
                        keep = run.kept < run.args.keep
                        run.kept += keep
                    else:
                        keep = False
                if keep:
                    keep_mismatch(run, index, number, name, request, base, head)
                if base.error or head.error:
                    for server_name, server in servers.items():
                        if not server.alive():
                            with run.lock:
                                run.odd.append(f"{server_name} died (exit {server.proc.returncode}) at case {index} "
                                               f"request {number} ({name}: {request.note})")
                                run.stop = True
                            return
        except Exception as error:  # a bug of this generator: reported, the run goes on
            with run.lock:
                run.odd.append(f"case {index} ({name}): the generator raised {type(error).__name__}: {error}")
                run.generator_errors += 1
        with run.lock:
            run.cases[name] += 1
            done = sum(run.cases.values())
        if run.args.progress and done % run.args.progress == 0:
            print(f"  {done} cases, {sum(run.requests.values())} requests, {sum(run.mismatches.values())} mismatches",
                  flush=True)


def show_case(run, servers):
    """--case I --show: the requests and both answers of one case."""
    index = run.args.case
    name = CATEGORIES[index % len(CATEGORIES)][0]
    clients = {n: Client(s.port) for n, s in servers.items()}
    for number, request, base, head in exchanges(run.args.seed, index, clients):
        print(f"--- case {index} request {number} ({name}: {request.note})\n{request.method} {request.path}")
        for k, v in request.headers.items():
            print(f"{k}: {v}")
        print(request.body[:4000].decode("utf-8", "backslashreplace") + ("..." if len(request.body) > 4000 else ""))
        print("--- base:\n" + base.text()[:4000])
        print("--- head: " + ("the same" if base.key() == head.key() else "DIFFERENT: " + describe(base, head)))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base", required=True, help="the previous build's snapdiff binary")
    parser.add_argument("--head", required=True, help="the build under test")
    parser.add_argument("--count", type=int, default=20000, help="cases to run (default 20000; a case is one or "
                                                                 "more requests)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first case's index (default 0)")
    parser.add_argument("--case", type=int, help="run only this case")
    parser.add_argument("--show", action="store_true", help="with --case: print its requests and answers")
    parser.add_argument("--workers", type=int, default=4, help="client threads, each with a connection to each server")
    parser.add_argument("--out", default="/tmp/snapdiff-differential", help="where mismatches are written")
    parser.add_argument("--keep", type=int, default=20, help="how many mismatches to write (default 20)")
    parser.add_argument("--progress", type=int, default=0, metavar="N", help="print a line every N cases")
    args = parser.parse_args()
    if args.case is not None:
        args.first, args.count = args.case, 1
    args.end = args.first + args.count
    if os.path.isdir(args.out):  # the mismatches of an earlier run (only what this script writes)
        for entry in os.listdir(args.out):
            if re.fullmatch(r"\d{6}-\d+-[a-z-]+", entry):
                shutil.rmtree(os.path.join(args.out, entry))

    # Same settings on both; the cursor key through the environment, which `serve` reads (as rollout_check.py does).
    os.environ["SNAPDIFF_CURSOR_KEY"] = CURSOR_KEY
    servers = {}
    try:
        servers["base"] = Server(args.base, "differential (base)", SERVER_ARGUMENTS)
        servers["head"] = Server(args.head, "differential (head)", SERVER_ARGUMENTS)
        print(f"differential: base {args.base} (port {servers['base'].port}), head {args.head} (port "
              f"{servers['head'].port}); serve {' '.join(SERVER_ARGUMENTS)} --log-level error, a fixed cursor key")
        print(f"cases {args.first}..{args.end - 1} of seed {args.seed}, {args.workers} workers; "
              f"{os.cpu_count()} CPUs, {platform.platform()}, Python {platform.python_version()}", flush=True)
        run = Run(args)
        if args.show and args.case is not None:
            show_case(run, servers)
            return
        started = time.monotonic()
        threads = [threading.Thread(target=work, args=(run, servers)) for _ in range(args.workers)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        elapsed = time.monotonic() - started
    finally:
        exits = {name: server.stop() for name, server in servers.items()}
    report(run, servers, exits, elapsed)
    failed = sum(run.mismatches.values()) or run.stop or run.generator_errors or any(exits[n] != 0 for n in exits)
    sys.exit(1 if failed else 0)


def report(run, servers, exits, elapsed):
    total_cases, total_requests = sum(run.cases.values()), sum(run.requests.values())
    print(f"\n{'category':<18}{'cases':>7}{'requests':>9}{'mismatches':>11}  base statuses")
    for name, _ in CATEGORIES:
        statuses = ", ".join(f"{status} x{count}" for status, count in
                             sorted(run.statuses[name].items(), key=lambda kv: str(kv[0])))
        print(f"{name:<18}{run.cases[name]:>7}{run.requests[name]:>9}{run.mismatches[name]:>11}  {statuses}")
    print(f"{'all':<18}{total_cases:>7}{total_requests:>9}{sum(run.mismatches.values()):>11}  "
          f"({run.gzipped} bodies sent with a Content-Encoding, {run.accept} with an Accept-Encoding)")
    print("problem types (base): " + ", ".join(f"{kind} x{count}" for kind, count in sorted(run.problems.items())))
    print(f"{total_requests} requests in {elapsed:.1f} s ({total_requests / max(elapsed, 1e-9):.0f} a second, two "
          f"servers each)")
    if run.mismatch_cases:
        print(f"\n{len(run.mismatch_cases)} MISMATCHES (the first {run.kept} written to {run.args.out}):")
        for _, _, line in sorted(run.mismatch_cases)[:20]:
            print("  " + line)
        if len(run.mismatch_cases) > 20:
            print(f"  ... and {len(run.mismatch_cases) - 20} more")
    odd = list(run.odd)
    for name, server in servers.items():
        log = server.log_text().strip()
        if log:
            odd.append(f"{name}'s error log ({len(log.splitlines())} lines), the last ones:\n    "
                       + "\n    ".join(log.splitlines()[-10:]))
        if exits[name] != 0:
            odd.append(f"{name} exited {exits[name]} on SIGTERM")
    if odd:
        print(f"\nodd ({len(odd)}):")
        for line in odd[:50]:
            print("  " + line)
    verdict = "FAIL" if run.mismatch_cases or run.stop else "OK"
    print(f"\n{verdict}: {total_requests} requests ({total_cases} cases), {len(run.mismatch_cases)} mismatches")


if __name__ == "__main__":
    main()
