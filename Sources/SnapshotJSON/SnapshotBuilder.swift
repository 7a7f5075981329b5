internal import CSimdJSON

/// Builds ``Snapshot`` values from the flat arrays of a successful CSimdJSON parse.
struct SnapshotBuilder {
    private let sections: UnsafeBufferPointer<CSimdJSON_Section>
    private let items: UnsafeBufferPointer<CSimdJSON_Item>
    private let idBytes: UnsafeBufferPointer<UInt8>
    private let arena: ContentArena
    private let text: RequestText?
    private let input: UnsafeBufferPointer<UInt8>
    private let idsNumbered: Bool

    /// The result and `input` (the bytes parsed) must stay valid, the parser unused, while the builder is used;
    /// `text` holds the parsed bytes when the result's item contents refer to them (CSimdJSON_Parse).
    init(result: CSimdJSON_Result, input: UnsafeBufferPointer<UInt8>, arena: ContentArena, text: RequestText?) {
        sections = UnsafeBufferPointer(start: result.sections, count: result.sectionCount)
        items = UnsafeBufferPointer(start: result.items, count: result.itemCount)
        idBytes = UnsafeBufferPointer(start: result.idBytes, count: result.idByteCount)
        self.arena = arena
        self.text = text
        self.input = input
        idsNumbered = result.idsNumbered != 0
    }

    func snapshot(_ record: CSimdJSON_Snapshot) -> Snapshot {
        snapshot(record, repeating: nil)
    }

    /// Both snapshots of a request, with the content equality of their items decided (see
    /// ``WireItem/contentNumber``), so that the diff compares numbers and never parses again.
    ///
    /// Items of the snapshot walked second may repeat items of the one walked first (`CSimdJSON_Item.repeatOf`):
    /// that one is built first and its items are reused, id and content, so a repeated item costs neither a new
    /// `String` nor a comparison. Every other item of the second snapshot whose id appears once in the first is
    /// compared with that item now: it takes the item's number when their contents are equal, and keeps its own
    /// otherwise.
    ///
    /// - Complexity: O(*n*) for *n* items, plus the comparison of each item whose text differs from its
    ///   counterpart's.
    func snapshots(old: CSimdJSON_Snapshot, new: CSimdJSON_Snapshot) -> (old: Snapshot, new: Snapshot) {
        if old.firstSection <= new.firstSection {
            let built = snapshot(old, repeating: nil)
            return (built, snapshot(new, repeating: Reference(built, firstItem: firstItem(of: old), numbered: idsNumbered)))
        }
        let built = snapshot(new, repeating: nil)
        return (snapshot(old, repeating: Reference(built, firstItem: firstItem(of: new), numbered: idsNumbered)), built)
    }

    /// A snapshot already built, whose items the other's repeat or are compared with.
    private struct Reference {
        let sections: [WireSection]
        /// The index among the snapshot's items of each section's first item, and the item count at the end.
        let starts: [Int]
        let firstItem: Int
        /// By identity number: the index among the snapshot's items of the one item with that id, or
        /// ``unknown`` when several have it, or ``absent``; `nil` when the ids are not numbered.
        let counterparts: [Int32]?

        /// No item of the snapshot has the id.
        static let absent: Int32 = -1
        /// Which item of the snapshot the diff may match is not known: several have the id, or ids are not
        /// numbered.
        static let unknown: Int32 = -2

        init(_ snapshot: Snapshot, firstItem: Int, numbered: Bool) {
            sections = snapshot.sections
            var starts: [Int] = []
            starts.reserveCapacity(sections.count + 1)
            var start = 0
            starts.append(start)
            for section in sections {
                start += section.items.count
                starts.append(start)
            }
            self.starts = starts
            self.firstItem = firstItem
            // The snapshot walked first numbers its ids first: each number is below its item count.
            var counterparts: [Int32]? = nil
            if numbered {
                var slots = [Int32](repeating: Self.absent, count: start)
                var flat: Int32 = 0
                for section in sections {
                    for item in section.items {
                        let slot = item.identityNumber
                        if slot >= slots.count { slots.append(contentsOf: repeatElement(Self.absent, count: slot + 1 - slots.count)) }
                        slots[slot] = slots[slot] == Self.absent ? flat : Self.unknown
                        flat += 1
                    }
                }
                counterparts = slots
            }
            self.counterparts = counterparts
        }

        /// The built item for `repeatOf` (1 + an index in the parse's items), if it is one of these.
        func item(_ repeatOf: UInt64) -> WireItem? {
            let index = Int(repeatOf) - 1 - firstItem
            guard repeatOf != 0, index >= 0, index < starts[starts.count - 1] else { return nil }
            return item(at: index)
        }

        /// The item at `index` among the snapshot's items.
        func item(at index: Int) -> WireItem {
            // The last section starting at or before `index` (binary search: snapshots may have many sections).
            var low = 0, high = sections.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= index { low = middle } else { high = middle - 1 }
            }
            return sections[low].items[index - starts[low]]
        }

        /// The index among the snapshot's items of the item the diff may match an item of the other snapshot
        /// whose identity number is `number` with, or ``absent`` or ``unknown``.
        func counterpart(_ number: Int) -> Int32 {
            guard let counterparts else { return Self.unknown }
            return number >= 0 && number < counterparts.count ? counterparts[number] : Self.absent
        }
    }

    private func firstItem(of record: CSimdJSON_Snapshot) -> Int {
        record.sectionCount == 0 ? items.count : Int(sections[Int(record.firstSection)].firstItem)
    }

    private func snapshot(_ record: CSimdJSON_Snapshot, repeating reference: Reference?) -> Snapshot {
        let first = Int(record.firstSection)
        return Snapshot(sections: sections[first ..< first + Int(record.sectionCount)].map { section($0, repeating: reference) })
    }

    private func section(_ record: CSimdJSON_Section, repeating reference: Reference?) -> WireSection {
        let first = Int(record.firstItem)
        var sectionItems: [WireItem] = []
        sectionItems.reserveCapacity(Int(record.itemCount))
        for index in first ..< first + Int(record.itemCount) {
            let item = items[index]
            let identityNumber = idsNumbered ? Int(item.idNumber) : -1
            // The item of the other snapshot the diff will match this one with, if known (see `snapshots`).
            let counterpart = reference?.counterpart(identityNumber) ?? Reference.absent
            if let repeated = reference?.item(item.repeatOf) {
                // The same bytes, so the same id: its counterpart, unless the id repeats there.
                sectionItems.append(counterpart == Reference.unknown ? repeated.undecided : repeated)
                continue
            }
            var built = WireItem(
                id: storedID(item.id), content: content(item.content), identityNumber: identityNumber,
                contentNumber: item.content.inInput != 0 ? index : -1)
            if counterpart == Reference.unknown {
                built = built.undecided
            } else if counterpart >= 0, let reference {
                let other = reference.item(at: Int(counterpart))
                if built.content == other.content { built = built.numbered(other.contentNumber) }
            }
            sectionItems.append(built)
        }
        let sectionID: SectionID = Int(record.id.kind) == CSimdJSON_IDNone ? .implicit : .explicit(id(record.id))
        return WireSection(id: sectionID, content: content(record.content), items: sectionItems)
    }

    /// An item's id: where its bytes lie when they are the body's and the item's content is in the body too (the
    /// items of a `/diff` request), else the id itself.
    private func storedID(_ record: CSimdJSON_ID) -> WireItem.StoredID {
        if Int(record.kind) == CSimdJSON_IDString && record.inInput != 0 && text != nil {
            return .inBody(offset: Int(record.offset), count: Int(record.length))
        }
        return .value(id(record))
    }

    private func id(_ record: CSimdJSON_ID) -> WireID {
        if Int(record.kind) == CSimdJSON_IDInteger { return .integer(record.integer) }
        let start = Int(record.offset)
        let bytes = record.inInput != 0 ? input : idBytes
        return .string(String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< start + Int(record.length)]), as: UTF8.self))
    }

    private func content(_ record: CSimdJSON_Content) -> ContentKey {
        if record.inInput != 0, let text {
            return ContentKey(text: text, offset: Int(record.offset), count: Int(record.length))
        }
        precondition(record.inInput == 0, "raw contents need the parsed text")
        return ContentKey(arena: arena, offset: Int(record.offset), count: Int(record.length), hash: record.hash)
    }
}
