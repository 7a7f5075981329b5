#!/usr/bin/env python3
"""Writes the service benchmark's request bodies (deterministic):

  small.json  a ~10 KB /diff request: ~50 items per snapshot in three sections, a few edits
  large.json  DifferenceKit's 100k recipe as one section: 100,000 UUID-like string ids with content,
              10,000 deleted at 2*DEL, 10,000 inserted at 3*DEL, the first 2,000 shuffled (~25 MB)
  medium.json 13,000 UUID-like string ids, every one moved (shuffled) and updated, asking for both renderings:
              a 1.40 MB request with a 1.55 MB changeset, the class of issue 17's compression figures

  layout-tiny.json   a /layout of 1,000 items {"id", "aspectRatio"} in 3 columns (39 KB)
  layout-small.json  the same items with a "title" and "tags" (83 KB)
  diff-layout.json   a /diff of one section of 1,000 photos (5 removed, 5 added) asking for its layout (132 KB)

With --variants it also writes variants of small.json, each as small.json in its own folder (the in-process
benchmark reads DIR/small.json), to split the cost of a request (BENCHMARKS.md):

  empty/small.json   the same three sections a side, without items (the per-request part)
  same/small.json    the old snapshot twice (every item of the second snapshot a byte-for-byte repeat)
  fewer/small.json   the first 80 % of each section's items, old and new
"""
import json
import random
import sys
import uuid

args = [a for a in sys.argv[1:] if a != "--variants"]
out = args[0] if args else "."
rng = random.Random(20261121)


def item(i):
    return {"id": f"item-{i}", "title": f"Photo number {i}", "likes": rng.randrange(1000),
            "width": 800 + rng.randrange(400), "height": 600 + rng.randrange(600)}


# Small: ~50 items per snapshot.
old_items = [item(i) for i in range(50)]
new_items = [dict(x) for x in old_items]
del new_items[7]
new_items.insert(3, item(100))
new_items[10]["likes"] += 1
new_items[20], new_items[30] = new_items[30], new_items[20]
small = {
    "old": {"sections": [{"id": "featured", "items": old_items[:10]}, {"id": "news", "items": old_items[10:25]},
                         {"id": "photos", "items": old_items[25:]}]},
    "new": {"sections": [{"id": "featured", "items": new_items[:10]}, {"id": "news", "items": new_items[10:25]},
                         {"id": "photos", "items": new_items[25:]}]},
}
with open(f"{out}/small.json", "w") as f:
    json.dump(small, f, separators=(",", ":"))


# Large: DifferenceKit's recipe, N=100,000, DEL=INS=10,000, SHUF=2,000.
def fresh():
    return {"id": str(uuid.UUID(int=rng.getrandbits(128))).upper(), "v": rng.randrange(1000),
            "title": "t" * rng.randrange(40, 120)}


N, DEL, INS, SHUF = 100_000, 10_000, 10_000, 2_000
source = [fresh() for _ in range(N)]
target = source[:2 * DEL] + source[3 * DEL:]
target[3 * DEL:3 * DEL] = [fresh() for _ in range(INS)]
head = target[:SHUF]
rng.shuffle(head)
target[:SHUF] = head
with open(f"{out}/large.json", "w") as f:
    json.dump({"old": {"items": source}, "new": {"items": target}}, f, separators=(",", ":"))

# Medium: its own generator, so that small.json and large.json stay what they were.
medium_rng = random.Random(7)
medium_old = [{"id": str(uuid.UUID(int=medium_rng.getrandbits(128))).upper(), "v": medium_rng.randrange(1000)}
              for _ in range(13_000)]
medium_new = [{**item, "v": item["v"] + 1} for item in medium_old]
medium_rng.shuffle(medium_new)
with open(f"{out}/medium.json", "w") as f:
    json.dump({"old": {"items": medium_old}, "new": {"items": medium_new},
               "options": {"renderings": ["staged", "sequential"]}}, f, separators=(",", ":"))


# Layouts: 1,000 photos in 3 columns, bare and with a title and tags.
def photo(i, extra):
    base = {"id": f"photo-{i:05d}", "aspectRatio": round(1.0 + (i % 7) / 10, 1)}
    return {**base, "title": f"Photo number {i}", "tags": ["a", "b"]} if extra else base


for name, extra in (("layout-tiny", False), ("layout-small", True)):
    with open(f"{out}/{name}.json", "w") as f:
        json.dump({"settings": {"containerWidth": 1024, "columns": 3}, "items": [photo(i, extra) for i in range(1000)]},
                  f, separators=(",", ":"))

with open(f"{out}/diff-layout.json", "w") as f:
    def titled(i):
        return {"id": f"photo-{i:05d}", "aspectRatio": round(1.0 + (i % 7) / 10, 1), "title": f"Photo number {i}"}
    json.dump({"old": {"sections": [{"id": "photos", "items": [titled(i) for i in range(1000)]}]},
               "new": {"sections": [{"id": "photos", "items": [titled(i) for i in range(5, 1005)]}]},
               "options": {"layouts": [{"section": "photos", "settings": {"containerWidth": 1024, "columns": 3}}]}},
              f, separators=(",", ":"))


def write(folder, request):
    import os
    os.makedirs(f"{out}/{folder}", exist_ok=True)
    with open(f"{out}/{folder}/small.json", "w") as f:
        json.dump(request, f, separators=(",", ":"))


def sections(snapshot, keep):
    return {"sections": [{"id": s["id"], "items": s["items"][:keep(len(s["items"]))]} for s in snapshot["sections"]]}


if "--variants" in sys.argv:
    write("empty", {"old": sections(small["old"], lambda n: 0), "new": sections(small["new"], lambda n: 0)})
    write("same", {"old": small["old"], "new": small["old"]})
    write("fewer", {"old": sections(small["old"], lambda n: n * 8 // 10), "new": sections(small["new"], lambda n: n * 8 // 10)})
