#!/usr/bin/env python3
"""Writes the service benchmark's request bodies (deterministic):

  small.json  a ~10 KB /diff request: ~50 items per snapshot in three sections, a few edits
  large.json  DifferenceKit's 100k recipe as one section: 100,000 UUID-like string ids with content,
              10,000 deleted at 2*DEL, 10,000 inserted at 3*DEL, the first 2,000 shuffled (~25 MB)
"""
import json
import random
import sys
import uuid

out = sys.argv[1] if len(sys.argv) > 1 else "."
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
