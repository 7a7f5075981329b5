#!/usr/bin/env python3
"""Peak memory of one request per worst-case shape (standard library only).

For each shape: generate a deterministic (seeded) request body as large as possible but at most
--body-bytes, start a FRESH `BINARY serve --port 0 --threads T --max-body-bytes B` (the port is read from
its "listening" log line), wait for /healthz, read the idle VmRSS / VmHWM from /proc/PID/status, send the
request once over a raw socket (reading the whole response: status and size are recorded), read VmHWM
and VmRSS again, stop the server with SIGTERM (SIGKILL after 30 s) and print a row:

    shape, body bytes, items (both snapshots), sections, JSON values, response bytes, status, seconds,
    idle RSS, VmHWM, RSS after, (VmHWM - idle RSS) / body

    python3 Benchmarks/memory/shapes.py --binary PATH [--body-bytes N] [--shapes a,b,...] [--json OUT]
                                        [--concurrent K] [--threads T] [--sample-ms MS] [--list]
                                        [--save-bodies DIR]

--concurrent K sends the same body on K sockets at once to one server (one row per shape; response
size and status are those of the first answer, all statuses are listed in the JSON). --save-bodies DIR
writes each body to DIR/SHAPE.json. --sample-ms MS records
VmRSS every MS ms during the request (JSON only: "rss_series", [seconds, KiB] pairs). --list prints the shapes with what they test.
Every server started is stopped (also on Ctrl-C); only 127.0.0.1 is contacted.
"""
import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time

DEFAULT_BODY_BYTES = 16 << 20  # the Kubernetes deployment's SNAPDIFF_MAX_BODY_BYTES
SEED = 20240611
REQUEST_TIMEOUT = 600.0


# ---------------------------------------------------------------------------------------------------------
# Shapes. Each generator takes a size parameter n (its finest unit) and returns (body bytes, counts), counts
# being a dict with "items" (over both snapshots), "sections" and "values" (JSON scalars in the body).

def ints_side(ids):
    return "[" + ",".join('{"id":%d}' % i for i in ids) + "]"


def strs_side(ids):
    return "[" + ",".join('{"id":"%s"}' % i for i in ids) + "]"


def b36(i):
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    s = ""
    while True:
        i, r = divmod(i, 36)
        s = digits[r] + s
        if i == 0:
            return s


def diff_body(old_items_json, new_items_json, options=None, old_key="items", new_key="items"):
    body = '{"old":{"%s":%s},"new":{"%s":%s}' % (old_key, old_items_json, new_key, new_items_json)
    if options is not None:
        body += ',"options":' + json.dumps(options, separators=(",", ":"))
    return (body + "}").encode()


def shuffled(n, salt):
    order = list(range(n))
    random.Random(SEED + salt).shuffle(order)
    return order


def gen_tiny_ids(n):
    """Int ids, new = old shuffled: ~every item moves."""
    body = diff_body(ints_side(range(n)), ints_side(shuffled(n, 1)))
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n}


def gen_tiny_ids_disjoint(n):
    """Int ids, new ids all different: every item deleted and inserted."""
    body = diff_body(ints_side(range(n)), ints_side(range(n, 2 * n)))
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n}


def gen_tiny_ids_same(n):
    """Int ids, new = old: empty answer (parse + match floor)."""
    side = ints_side(range(n))
    return diff_body(side, side), {"items": 2 * n, "sections": 2, "values": 2 * n}


def gen_tiny_ids_partial(n):
    """Int ids; new: 10% deleted, 10% moved to random places, n/10 new ids inserted at random places."""
    rng = random.Random(SEED + 2)
    keyed = []
    for i in range(n):
        if i % 10 == 3:
            continue
        keyed.append((rng.random() * n if i % 10 == 7 else float(i), i))
    keyed += [(rng.random() * n, i) for i in range(n, n + n // 10)]
    keyed.sort()
    new = [i for _, i in keyed]
    return diff_body(ints_side(range(n)), ints_side(new)), {"items": n + len(new), "sections": 2,
                                                           "values": n + len(new)}


def gen_tiny_string_ids(n):
    """Short string ids (base 36), new = old shuffled."""
    ids = [b36(i) for i in range(n)]
    body = diff_body(strs_side(ids), strs_side(ids[i] for i in shuffled(n, 3)))
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n}


def gen_tiny_string_ids_disjoint(n):
    """Short string ids, all different in new: every item deleted and inserted."""
    body = diff_body(strs_side(b36(i) for i in range(n)), strs_side(b36(i) for i in range(n, 2 * n)))
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n}


DEEP_ITEMS = 16
DEEP_DEPTH = 100  # levels per chain (the parser allows 128; the request itself uses 4)


def deep_chain(depth, leaf, reorder):
    """A chain alternating objects and arrays, `depth` levels, with a value at each level: 1 + depth values."""
    s = str(leaf)
    for level in range(depth):
        if level % 2 == 0:
            s = ('{"n":%s,"k":%d}' % (s, level % 10)) if reorder else ('{"k":%d,"n":%s}' % (level % 10, s))
        else:
            s = "[%d,%s]" % (level % 10, s)
    return s


def deep_side(n, reorder, changed):
    chain_plain = deep_chain(DEEP_DEPTH, 0, reorder)
    chain_changed = deep_chain(DEEP_DEPTH, 1, reorder)
    items, values = [], 0
    for i in range(DEEP_ITEMS):
        count = n // DEEP_ITEMS + (1 if i < n % DEEP_ITEMS else 0)
        chains = [chain_plain] * count
        if changed and i % 2 == 1 and count:
            chains[-1] = chain_changed
        values += 1 + count * (DEEP_DEPTH + 1)
        if reorder:
            items.append('{"d":[%s],"id":%d}' % (",".join(chains), i))
        else:
            items.append('{"id":%d,"d":[%s]}' % (i, ",".join(chains)))
    return "[" + ",".join(items) + "]", values


def gen_deep_content(n):
    """16 items of n/16 chains nested 100 deep; new: members reordered everywhere, half changed at a leaf."""
    old, v1 = deep_side(n, False, False)
    new, v2 = deep_side(n, True, True)
    return diff_body(old, new), {"items": 2 * DEEP_ITEMS, "sections": 2, "values": v1 + v2}


def gen_deep_content_same_order(n):
    """As diff-deep-content, members in the same order (no canonicalisation needed)."""
    old, v1 = deep_side(n, False, False)
    new, v2 = deep_side(n, False, True)
    return diff_body(old, new), {"items": 2 * DEEP_ITEMS, "sections": 2, "values": v1 + v2}


MANY_MEMBERS = [b36(k + 10) for k in range(40)]  # "a" … "13": 40 short names


def many_values_item(i, changed, reorder):
    names = list(reversed(MANY_MEMBERS)) if reorder else MANY_MEMBERS
    last = names[-1]
    members = ",".join('"%s":%d' % (m, 1 if (changed and m == last) else 0) for m in names)
    return '{"id":%d,%s}' % (i, members)


def gen_many_values(n):
    """Items with 40 small members; half changed (one value), all compared member by member."""
    old = "[" + ",".join(many_values_item(i, False, False) for i in range(n)) + "]"
    new = "[" + ",".join(many_values_item(i, i % 2 == 0, False) for i in range(n)) + "]"
    return diff_body(old, new), {"items": 2 * n, "sections": 2, "values": 2 * n * 41}


def gen_many_values_reordered(n):
    """As diff-many-values, new items' members in reverse order (canonicalised on each comparison)."""
    old = "[" + ",".join(many_values_item(i, False, False) for i in range(n)) + "]"
    new = "[" + ",".join(many_values_item(i, i % 2 == 0, True) for i in range(n)) + "]"
    return diff_body(old, new), {"items": 2 * n, "sections": 2, "values": 2 * n * 41}


def gen_many_sections(n):
    """n sections per side, 0-1 items each; new: sections shuffled, every item in the next section."""
    old = ",".join('{"id":%d,"items":[%s]}' % (k, '{"id":%d}' % k if k % 2 == 0 else "") for k in range(n))
    new = ",".join('{"id":%d,"items":[%s]}' % (k, '{"id":%d}' % (k - 1) if k % 2 == 1 else "")
                   for k in shuffled(n, 4))
    items = (n + 1) // 2 + n // 2
    return (diff_body("[" + old + "]", "[" + new + "]", old_key="sections", new_key="sections"),
            {"items": items, "sections": 2 * n, "values": 2 * n + items})


def gen_sequential_both(n):
    """Int ids, new = old reversed (every item but one moves), staged + sequential renderings."""
    body = diff_body(ints_side(range(n)), ints_side(range(n - 1, -1, -1)), {"renderings": ["staged", "sequential"]})
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n + 2}


def gen_json_patch_disjoint(n):
    """Int ids, new ids all different, every rendering: the JSON Patch adds every new item whole."""
    options = {"renderings": ["staged", "sequential", "jsonPatch"], "changedMembers": True}
    body = diff_body(ints_side(range(n)), ints_side(range(n, 2 * n)), options)
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n + 4}


def gen_json_patch_disjoint_pretty(n):
    """As diff-json-patch-disjoint, pretty-printed: the largest answer a /diff body can ask for."""
    options = {"renderings": ["staged", "sequential", "jsonPatch"], "changedMembers": True, "pretty": True}
    body = diff_body(ints_side(range(n)), ints_side(range(n, 2 * n)), options)
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n + 5}


def gen_json_patch_updates(n):
    """Items with many values, every second one changed (some reordered), JSON Patch and changedMembers: one
    operation per changed member, each member read and canonicalised."""
    old = "[" + ",".join(many_values_item(i, False, False) for i in range(n)) + "]"
    new = "[" + ",".join(many_values_item(i, i % 2 == 0, i % 3 == 0) for i in range(n)) + "]"
    body = diff_body(old, new, {"renderings": ["jsonPatch"], "changedMembers": True})
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n * (len(MANY_MEMBERS) + 1) + 3}


def gen_json_patch_section_updates(n):
    """n sections per side, each with one item, every section's title changed: one member-level operation per
    section, each old section found by id (linear, not a scan of the sections per updated one)."""
    old = "[" + ",".join('{"id":%d,"title":"s%d","items":[{"id":%d}]}' % (i, i, i) for i in range(n)) + "]"
    new = "[" + ",".join('{"id":%d,"title":"t%d","items":[{"id":%d}]}' % (i, i, i) for i in range(n)) + "]"
    body = diff_body(old, new, {"renderings": ["jsonPatch"], "changedMembers": True}, old_key="sections",
                     new_key="sections")
    return body, {"items": 2 * n, "sections": 2 * n, "values": 6 * n + 1}


def gen_keepfirst_every_rendering_ids(n):
    """gen_diff_keepfirst with every rendering and ids (the kept items' ids looked up past the dropped ones)."""
    old = ints_side(i // 2 for i in range(n))
    new = ints_side(i // 2 for i in shuffled(n, 5))
    options = {"duplicates": "keepFirst", "renderings": ["staged", "sequential", "ranges"], "ids": True}
    return diff_body(old, new, options), {"items": 2 * n, "sections": 2, "values": 2 * n + 1}


def gen_every_rendering_ids(n):
    """Int ids, new = old reversed, every rendering (staged, sequential, ranges) with ids."""
    body = diff_body(ints_side(range(n)), ints_side(range(n - 1, -1, -1)),
                     {"renderings": ["staged", "sequential", "ranges"], "ids": True})
    return body, {"items": 2 * n, "sections": 2, "values": 2 * n + 2}


def gen_alternate_inserts_ids(n):
    """Int ids, every other item new (no run longer than one), every rendering with ids."""
    body = diff_body(ints_side(range(0, 2 * n, 2)), ints_side(range(2 * n)),
                     {"renderings": ["staged", "sequential", "ranges"], "ids": True})
    return body, {"items": 3 * n, "sections": 2, "values": 3 * n + 2}


def gen_diff_duplicates(n):
    """Every int id twice in each snapshot: 422 naming each id with both paths."""
    side = ints_side(i // 2 for i in range(n))
    return diff_body(side, side), {"items": 2 * n, "sections": 2, "values": 2 * n}


def gen_diff_keepfirst(n):
    """Every int id twice, duplicates keepFirst: droppedDuplicates lists half the items; new shuffled."""
    old = ints_side(i // 2 for i in range(n))
    new = ints_side(i // 2 for i in shuffled(n, 5))
    return diff_body(old, new, {"duplicates": "keepFirst"}), {"items": 2 * n, "sections": 2, "values": 2 * n + 1}


def photo_side(order, changed):
    """Photo items {"id": n, "aspectRatio": 1}, in `order`; with `changed`, every even id's ratio is 2."""
    return ",".join('{"id":%d,"aspectRatio":%s}' % (i, "2" if changed and i % 2 == 0 else "1") for i in order)


def gen_diff_with_layout(n):
    """One section of n photos per side, new shuffled with half the aspect ratios changed, plus a 64-column
    layout of it in options.layouts (frames of every item, changedFrames)."""
    old = '[{"id":"s","items":[%s]}]' % photo_side(range(n), False)
    new = '[{"id":"s","items":[%s]}]' % photo_side(shuffled(n, 6), True)
    options = {"layouts": [{"section": "s", "settings": {"containerWidth": 1024, "scale": 1, "columns": 64,
                                                         "columnSpacing": 0, "itemSpacing": 0}}]}
    return (diff_body(old, new, options, old_key="sections", new_key="sections"),
            {"items": 2 * n, "sections": 2, "values": 4 * n + 2})


def gen_diff_bare_layout(n):
    """An empty old list and a bare new list of n photos filling the body, laid out in 64 columns: the layout reads
    the new snapshot's whole object again (one walk of its items)."""
    options = {"layouts": [{"section": None, "settings": {"containerWidth": 1024, "scale": 1, "columns": 64,
                                                          "columnSpacing": 0, "itemSpacing": 0}}]}
    return diff_body("[]", "[%s]" % photo_side(range(n), False), options), {"items": n, "sections": 2, "values": 2 * n}


def gen_diff_many_sections_layout(n):
    """n one-photo sections a side, new shuffled, one of them laid out: where every section lies is kept for the
    layout (8 bytes a section)."""
    def side(order, ratio):
        return "[%s]" % ",".join('{"id":%d,"items":[{"id":%d,"aspectRatio":%s}]}' % (i, i, ratio) for i in order)
    options = {"layouts": [{"section": 0, "settings": {"containerWidth": 1024, "columns": 2}}]}
    return (diff_body(side(range(n), 1), side(shuffled(n, 3), 2), options, old_key="sections", new_key="sections"),
            {"items": 2 * n, "sections": 2 * n, "values": 4 * n})


def gen_diff_section_content_layout(n):
    """A new section of one photo whose content is an array of n ones, laid out: the layout walks the section's
    whole object again, its content too."""
    new = '[{"id":1,"items":[{"id":1,"aspectRatio":1}],"content":[%s]}]' % ",".join("1" for _ in range(n))
    options = {"layouts": [{"section": 1, "settings": {"containerWidth": 1024, "columns": 2}}]}
    return (diff_body("[]", new, options, old_key="sections", new_key="sections"),
            {"items": 1, "sections": 1, "values": n + 3})


def gen_diff_everything(n):
    """As diff-with-layout (1 column), with every rendering, changedMembers, ids and pretty: the largest answer
    per body byte found (every item moved, updated and laid out, each change named by id, indented)."""
    old = '[{"id":"s","items":[%s]}]' % photo_side(range(n), False)
    new = '[{"id":"s","items":[%s]}]' % photo_side(shuffled(n, 6), True)
    options = {"renderings": ["staged", "sequential", "ranges", "jsonPatch"], "changedMembers": True, "ids": True,
               "pretty": True, "layouts": [{"section": "s", "settings": {"containerWidth": 1024, "scale": 1,
                                                                          "columns": 1, "columnSpacing": 0,
                                                                          "itemSpacing": 0}}]}
    return (diff_body(old, new, options, old_key="sections", new_key="sections"),
            {"items": 2 * n, "sections": 2, "values": 4 * n + 8})


def layout_body(n, columns, ids, ratio="1"):
    settings = {"containerWidth": 1024, "scale": 1, "columns": columns, "columnSpacing": 0, "itemSpacing": 0}
    items = ",".join('{"id":"%s","aspectRatio":%s}' % (i, ratio) for i in ids)
    body = '{"settings":%s,"items":[%s]}' % (json.dumps(settings, separators=(",", ":")), items)
    return body.encode(), {"items": n, "sections": 0, "values": 2 * n + 5}


def gen_layout_many_columns(n):
    """/layout, 64 columns, tiny items {"id":"…","aspectRatio":1}, all in one page."""
    return layout_body(n, 64, (b36(i) for i in range(n)))


def gen_layout_fixed(n):
    """/layout, 1 column, tiny items, all in one page."""
    return layout_body(n, 1, (b36(i) for i in range(n)))


def gen_layout_fixed_pretty(n):
    """As layout-fixed, pretty-printed: the largest answer a /layout body can ask for."""
    body, counts = layout_body(n, 1, (b36(i) for i in range(n)))
    return b'{"pretty":true,' + body[1:], counts


def gen_layout_page_last(n):
    """/layout, 64 columns, tiny items, `pageSize` 1 written after them: the first walk measures every item (the
    page's length is not known yet), and keeps the first."""
    body, counts = layout_body(n, 64, (b36(i) for i in range(n)))
    return body[:-1] + b',"pageSize":1}', counts


def gen_layout_duplicates(n):
    """/layout with every id twice: 422 naming each id with both paths."""
    return layout_body(n, 64, (b36(i // 2) for i in range(n)))


def gen_layout_invalid(n):
    """/layout where every item is out of range (aspectRatio 0): 422 listing the first 100 and counting all."""
    return layout_body(n, 64, (b36(i) for i in range(n)), ratio="0")


def filled(template, element, n, counts):
    """`template` with its `%s` filled by `n` copies of `element`, comma-separated, and the shape's counts."""
    return (template % ",".join(element for _ in range(n))).encode(), counts


def gen_layout_dense_values(n):
    """/layout whose body is mostly an unknown member of n zeros (422): the most values a body can hold."""
    return filled('{"settings":{"containerWidth":1024},"items":[],"pad":[%s]}', "0", n,
                  {"items": 0, "sections": 0, "values": n + 1})


def gen_diff_dense_options(n):
    """/diff whose body is mostly an unknown option of n zeros (422): the options are read twice."""
    return filled('{"old":{"items":[]},"new":{"items":[]},"options":{"pad":[%s]}}', "0", n,
                  {"items": 0, "sections": 0, "values": n})


def gen_layout_dense_items(n):
    """/layout whose items are n zeros (422: an item must be an object; the first 100 listed)."""
    return filled('{"settings":{"containerWidth":1024},"items":[%s]}', "0", n,
                  {"items": n, "sections": 0, "values": n + 1})


def gen_diff_dense_layouts(n):
    """/diff whose options.layouts is n zeros (422: a layout must be an object; the first 100 listed)."""
    return filled('{"old":{"items":[]},"new":{"items":[]},"options":{"layouts":[%s]}}', "0", n,
                  {"items": 0, "sections": 0, "values": n})


def gen_layout_empty_items(n):
    """/layout whose items are n empty objects `{}` (422: no ids, the first 100 listed)."""
    return filled('{"settings":{"containerWidth":1024},"items":[%s]}', "{}", n,
                  {"items": n, "sections": 0, "values": n + 3})


def gen_layout_item_array(n):
    """/layout of one item that carries an array of n zeros besides its size (200: members a layout does not read)."""
    return filled('{"settings":{"containerWidth":375,"columns":2},"items":[{"id":1,"aspectRatio":1,"tags":[%s]}]}',
                  "0", n, {"items": 1, "sections": 0, "values": n + 8})


def gen_diff_layout_item_array(n):
    """/diff with a layout of its section, whose one new item carries an array of n zeros (200)."""
    return filled('{"old":{"items":[]},"new":{"items":[{"id":1,"aspectRatio":1,"tags":[%s]}]},'
                  '"options":{"layouts":[{"section":null,"settings":{"containerWidth":375,"columns":2}}]}}',
                  "0", n, {"items": 1, "sections": 1, "values": n + 10})


def gen_diff_section_content(n):
    """/diff whose old section's content is an array of n ones (200): the most values a section's content (kept
    as its canonical encoding, one byte a `1`) can hold."""
    return filled('{"old":{"sections":[{"id":1,"items":[],"c":[%s]}]},"new":{"sections":[{"id":1,"items":[]}]}}',
                  "1", n, {"items": 0, "sections": 2, "values": n + 2})


def gen_diff_section_members(n):
    """/diff whose old section has n content members of distinct names, written in reverse name order (200):
    the most members one content (sorted by name when encoded) can hold."""
    names = ",".join('"k%s":0' % b36(i) for i in range(n - 1, -1, -1))  # (never "id" or "items")
    body = '{"old":{"sections":[{"id":1,"items":[],%s}]},"new":{"sections":[{"id":1,"items":[]}]}}' % names
    return body.encode(), {"items": 0, "sections": 2, "values": n + 2}


def gen_diff_section_repeated_names(n):
    """/diff whose old section has n content members all named "" (422: every one but the first repeats the name,
    the first 100 listed): the most repeated names one content can hold."""
    return filled('{"old":{"sections":[{"id":1,"items":[],%s}]},"new":{"sections":[{"id":1,"items":[]}]}}',
                  '"":0', n, {"items": 0, "sections": 2, "values": n + 2})


def gen_diff_empty_items(n):
    """/diff whose old snapshot is n empty items `{}` (422: no ids): the most item objects a body can hold."""
    body = '{"old":{"items":[%s]},"new":{"items":[]}}' % ",".join("{}" for _ in range(n))
    return body.encode(), {"items": n, "sections": 1, "values": n}


def gen_diff_empty_sections(n):
    """/diff whose old snapshot is n empty sections `{}` (422: no ids, no items): the most section objects."""
    body = '{"old":{"sections":[%s]},"new":{"items":[]}}' % ",".join("{}" for _ in range(n))
    return body.encode(), {"items": 0, "sections": n, "values": n}


SHAPES = {
    # name: (path, generator, in the default set)
    "diff-tiny-ids": ("/diff", gen_tiny_ids, True),
    "diff-tiny-ids-disjoint": ("/diff", gen_tiny_ids_disjoint, True),
    "diff-tiny-ids-partial": ("/diff", gen_tiny_ids_partial, True),
    "diff-tiny-ids-same": ("/diff", gen_tiny_ids_same, True),
    "diff-tiny-string-ids": ("/diff", gen_tiny_string_ids, True),
    "diff-tiny-string-ids-disjoint": ("/diff", gen_tiny_string_ids_disjoint, True),
    "diff-deep-content": ("/diff", gen_deep_content, True),
    "diff-deep-content-same-order": ("/diff", gen_deep_content_same_order, True),
    "diff-many-values": ("/diff", gen_many_values, True),
    "diff-many-values-reordered": ("/diff", gen_many_values_reordered, True),
    "diff-many-sections": ("/diff", gen_many_sections, True),
    "diff-section-content": ("/diff", gen_diff_section_content, True),
    "diff-section-members": ("/diff", gen_diff_section_members, True),
    "diff-section-repeated-names": ("/diff", gen_diff_section_repeated_names, True),
    "diff-sequential-both": ("/diff", gen_sequential_both, True),
    "diff-json-patch-disjoint": ("/diff", gen_json_patch_disjoint, True),
    "diff-json-patch-disjoint-pretty": ("/diff", gen_json_patch_disjoint_pretty, True),
    "diff-json-patch-updates": ("/diff", gen_json_patch_updates, True),
    "diff-json-patch-section-updates": ("/diff", gen_json_patch_section_updates, True),
    "diff-every-rendering-ids": ("/diff", gen_every_rendering_ids, True),
    "diff-keepfirst-every-rendering-ids": ("/diff", gen_keepfirst_every_rendering_ids, True),
    "diff-alternate-inserts-ids": ("/diff", gen_alternate_inserts_ids, True),
    "diff-duplicate-ids": ("/diff", gen_diff_duplicates, True),
    "diff-keepfirst-duplicates": ("/diff", gen_diff_keepfirst, True),
    "diff-with-layout": ("/diff", gen_diff_with_layout, True),
    "diff-everything": ("/diff", gen_diff_everything, True),
    "layout-many-columns": ("/layout", gen_layout_many_columns, True),
    "layout-fixed": ("/layout", gen_layout_fixed, True),
    "layout-fixed-pretty": ("/layout", gen_layout_fixed_pretty, True),
    "layout-page-last": ("/layout", gen_layout_page_last, True),
    "layout-duplicate-ids": ("/layout", gen_layout_duplicates, True),
    "layout-invalid-items": ("/layout", gen_layout_invalid, True),
    "layout-dense-values": ("/layout", gen_layout_dense_values, True),
    "diff-dense-options": ("/diff", gen_diff_dense_options, True),
    "layout-dense-items": ("/layout", gen_layout_dense_items, True),
    "diff-dense-layouts": ("/diff", gen_diff_dense_layouts, True),
    "diff-bare-layout": ("/diff", gen_diff_bare_layout, True),
    "diff-many-sections-layout": ("/diff", gen_diff_many_sections_layout, True),
    "diff-section-content-layout": ("/diff", gen_diff_section_content_layout, True),
    "layout-empty-items": ("/layout", gen_layout_empty_items, True),
    "layout-item-array": ("/layout", gen_layout_item_array, True),
    "diff-layout-item-array": ("/diff", gen_diff_layout_item_array, True),
    "diff-empty-items": ("/diff", gen_diff_empty_items, True),
    "diff-empty-sections": ("/diff", gen_diff_empty_sections, True),
}


def fit(generator, limit):
    """The largest body of `generator` at most `limit` bytes (to within about one unit of n), with its counts.

    Secant steps from a 4096-unit sample, then regula falsi inside the bracket: 3-5 generations."""
    n = 4096
    body, counts = generator(n)
    while len(body) > limit and n > 1:
        n //= 2
        body, counts = generator(n)
    if len(body) > limit:
        raise SystemExit(f"even the smallest body ({len(body)} bytes) is over {limit}")
    best = (n, body, counts)
    lo, lo_size, hi, hi_size = n, len(body), None, None
    for _ in range(24):
        slope = lo_size / lo if hi is None else (hi_size - lo_size) / (hi - lo)
        if (hi is not None and hi - lo <= 1) or limit - lo_size < 1.5 * slope:
            break
        guess = lo + max(1, int((limit - lo_size) / slope))
        if hi is not None:
            guess = min(max(guess, lo + 1), hi - 1)
        body, counts = generator(guess)
        if len(body) <= limit:
            lo, lo_size, best = guess, len(body), (guess, body, counts)
        else:
            hi, hi_size = guess, len(body)
    return best


# ---------------------------------------------------------------------------------------------------------
# Server and measurement.

def proc_status(pid):
    values = {}
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            key, _, rest = line.partition(":")
            if key in ("VmRSS", "VmHWM", "RssAnon", "RssFile"):
                values[key] = int(rest.split()[0])  # KiB
    return values


class Server:
    def __init__(self, binary, max_body, threads, wrapper=()):
        self.log = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([*wrapper, binary, "serve", "--port", "0", "--threads", str(threads),
                                      "--max-body-bytes", str(max_body), "--log-level", "info",
                                      "--connection-timeout", "600"],
                                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=self.log)
        self.port = None
        deadline = time.time() + 60
        while time.time() < deadline and self.port is None:
            if self.proc.poll() is not None:
                raise SystemExit(f"the server exited at start ({self.proc.returncode}): {self.log_text()[-2000:]}")
            for line in self.log_text().splitlines():
                try:
                    entry = json.loads(line)
                except ValueError:
                    continue
                if entry.get("message") == "listening":
                    self.port = int(entry["port"])
            time.sleep(0.05)
        if self.port is None:
            self.stop()
            raise SystemExit("the server did not log its port")
        while time.time() < deadline:
            try:
                status, _, _ = exchange(self.port, b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", 5)
                if status == 200:
                    return
            except OSError:
                time.sleep(0.05)
        self.stop()
        raise SystemExit("the server did not answer /healthz")

    def log_text(self):
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")

    def stop(self):
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        return self.proc.returncode


def exchange(port, data, timeout):
    """Sends `data` on a fresh connection and reads one response; returns (status, total bytes, body bytes)."""
    deadline = time.time() + timeout
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(data)
        buf = bytearray()
        while b"\r\n\r\n" not in buf:
            sock.settimeout(max(0.01, deadline - time.time()))
            chunk = sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError("closed before the response head")
            buf += chunk
        head, _, rest = bytes(buf).partition(b"\r\n\r\n")
        lines = head.decode("latin-1").split("\r\n")
        status = int(lines[0].split(" ", 2)[1])
        length = None
        for line in lines[1:]:
            name, _, value = line.partition(":")
            if name.strip().lower() == "content-length":
                length = int(value.strip())
        if length is None:
            # An answer written while it is sent: chunked (RFC 9112 §7.1), and this request asked to close.
            if not any(line.lower().replace(" ", "") == "transfer-encoding:chunked" for line in lines[1:]):
                raise ValueError("neither Content-Length nor Transfer-Encoding: chunked in the response")
            data = bytearray(rest)
            while True:
                sock.settimeout(max(0.01, deadline - time.time()))
                chunk = sock.recv(1 << 20)
                if not chunk:
                    break
                data += chunk
            body = dechunk(bytes(data))
            if body[:1] != b"{":
                raise ValueError(f"response body does not start with '{{': {body[:1]!r}")
            return status, len(head) + 4 + len(data), len(body)
        got = len(rest)
        first = rest[:1]
        view = bytearray(1 << 20)
        while got < length:
            sock.settimeout(max(0.01, deadline - time.time()))
            k = sock.recv_into(view)
            if k == 0:
                raise ConnectionError(f"closed after {got} of {length} body bytes")
            if not first:
                first = bytes(view[:1])
            got += k
        if length and first != b"{":
            raise ValueError(f"response body does not start with '{{': {first!r}")
        return status, len(head) + 4 + length, length


def dechunk(data):
    """The body of a chunked message body (RFC 9112 §7.1): the chunks' data; the last chunk and an empty
    trailer section must end it."""
    body, at = bytearray(), 0
    while True:
        end = data.index(b"\r\n", at)
        size = int(data[at:end].split(b";")[0], 16)
        at = end + 2
        if size == 0:
            if data[at:] != b"\r\n":
                raise ValueError(f"chunked body does not end with an empty trailer: {data[at:at + 40]!r}")
            return bytes(body)
        body += data[at:at + size]
        if data[at + size:at + size + 2] != b"\r\n":
            raise ValueError("a chunk does not end with CRLF")
        at += size + 2


def request_bytes(path, body):
    head = (f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n")
    return head.encode() + body


def sample_rss(pid, period, stop, series, started):
    """Appends (seconds since start, VmRSS KiB) every `period` seconds until `stop` is set."""
    while not stop.is_set():
        try:
            series.append((round(time.time() - started, 4), proc_status(pid)["VmRSS"]))
        except (OSError, KeyError):
            return
        stop.wait(period)


def measure(binary, name, body, counts, threads, concurrent, sample_ms=0):
    path = SHAPES[name][0]
    server = Server(binary, max_body=max(len(body) + 4096, 1 << 20), threads=threads)
    try:
        time.sleep(0.2)
        idle = proc_status(server.proc.pid)
        data = request_bytes(path, body)
        results = [None] * concurrent
        errors = []

        def one(k):
            try:
                results[k] = exchange(server.port, data, REQUEST_TIMEOUT)
            except Exception as error:  # reported in the row
                errors.append(f"{type(error).__name__}: {error}")

        started = time.time()
        series, stop_sampling = [], threading.Event()
        sampler = None
        if sample_ms > 0:
            sampler = threading.Thread(target=sample_rss, daemon=True,
                                       args=(server.proc.pid, sample_ms / 1000, stop_sampling, series, started))
            sampler.start()
        workers = [threading.Thread(target=one, args=(k,), daemon=True) for k in range(concurrent)]
        for w in workers:
            w.start()
        for w in workers:
            w.join(REQUEST_TIMEOUT + 10)
        seconds = time.time() - started
        stop_sampling.set()
        if sampler:
            sampler.join(5)
        time.sleep(0.2)
        after = proc_status(server.proc.pid)
    finally:
        exit_code = server.stop()
    answered = [r for r in results if r is not None]
    row = {
        "shape": name, "path": path, "concurrent": concurrent, "threads": threads,
        "body_bytes": len(body), "items": counts["items"], "sections": counts["sections"], "values": counts["values"],
        "status": answered[0][0] if answered else None, "statuses": [r[0] for r in answered],
        "response_bytes": answered[0][2] if answered else None, "seconds": round(seconds, 3),
        "idle_rss_kib": idle["VmRSS"], "idle_hwm_kib": idle["VmHWM"],
        "hwm_kib": after["VmHWM"], "rss_after_kib": after["VmRSS"],
        "ratio": round((after["VmHWM"] - idle["VmRSS"]) * 1024 / (len(body) * concurrent), 2),
        "exit_code": exit_code, "errors": errors,
    }
    if sample_ms > 0:
        row["rss_series"] = series
    return row


def mib(kib):
    return f"{kib / 1024:.1f}"


def print_table(rows, out=sys.stdout):
    header = ("shape", "body B", "items", "sects", "values", "resp B", "st", "s", "idle MiB", "HWM MiB",
              "after MiB", "(HWM-idle)/body")
    table = [header]
    for r in rows:
        table.append((r["shape"] + (f" x{r['concurrent']}" if r["concurrent"] > 1 else ""), str(r["body_bytes"]),
                      str(r["items"]), str(r["sections"]), str(r["values"]), str(r["response_bytes"]),
                      str(r["status"]), f"{r['seconds']:.1f}", mib(r["idle_rss_kib"]), mib(r["hwm_kib"]),
                      mib(r["rss_after_kib"]), f"{r['ratio']:.2f}"))
    widths = [max(len(row[i]) for row in table) for i in range(len(header))]
    for k, row in enumerate(table):
        print("  ".join(cell.ljust(widths[i]) if i == 0 else cell.rjust(widths[i]) for i, cell in enumerate(row)),
              file=out)
        if k == 0:
            print("  ".join("-" * w for w in widths), file=out)
    for r in rows:
        if r["errors"] or r["exit_code"] not in (0, None):
            print(f"!! {r['shape']}: exit {r['exit_code']} errors {r['errors'][:3]}", file=out)
    out.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", help="the snapdiff executable")
    parser.add_argument("--body-bytes", type=int, default=DEFAULT_BODY_BYTES)
    parser.add_argument("--shapes", help="comma-separated shape names (default: all)")
    parser.add_argument("--json", help="write the rows as JSON to this file")
    parser.add_argument("--concurrent", type=int, default=1, help="send each body K times at once (K sockets)")
    parser.add_argument("--threads", type=int, default=2, help="server worker threads (default 2)")
    parser.add_argument("--sample-ms", type=float, default=0,
                        help="also record VmRSS every this many ms during the request (rss_series in --json)")
    parser.add_argument("--save-bodies", help="also write each body to DIR/SHAPE.json")
    parser.add_argument("--list", action="store_true", help="list the shapes and exit")
    args = parser.parse_args()
    if args.list:
        for name, (path, gen, _) in SHAPES.items():
            print(f"{name:32} {path:8} {gen.__doc__.strip().splitlines()[0]}")
        return
    if not args.binary:
        parser.error("--binary is required")
    names = args.shapes.split(",") if args.shapes else [n for n, s in SHAPES.items() if s[2]]
    unknown = [n for n in names if n not in SHAPES]
    if unknown:
        parser.error(f"unknown shapes {unknown}; --list shows them")
    if not 1 <= args.concurrent <= 64:
        parser.error("--concurrent must be 1 to 64")
    rows = []
    for name in names:
        t = time.time()
        n, body, counts = fit(SHAPES[name][1], args.body_bytes)
        print(f"# {name}: n={n}, {len(body)} bytes, generated in {time.time() - t:.1f} s", file=sys.stderr)
        if args.save_bodies:
            os.makedirs(args.save_bodies, exist_ok=True)
            with open(os.path.join(args.save_bodies, name + ".json"), "wb") as f:
                f.write(body)
        rows.append(measure(args.binary, name, body, counts, args.threads, args.concurrent, args.sample_ms))
        del body
        print_table(rows[-1:], sys.stderr)
        if args.json:  # rewritten after each shape, so a long run leaves what it measured
            with open(args.json, "w") as f:
                json.dump({"binary": args.binary, "body_limit": args.body_bytes, "rows": rows}, f, indent=1)
    print_table(rows)


if __name__ == "__main__":
    main()
