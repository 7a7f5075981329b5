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
            return (built, snapshot(new, repeating: reference(to: built, old)))
        }
        let built = snapshot(new, repeating: nil)
        return (snapshot(old, repeating: reference(to: built, new)), built)
    }

    /// `built`, made from `record`, as the reference of the other snapshot, with the counterparts of the
    /// other's items found from the identity numbers of the parse.
    ///
    /// The walk numbers ids from 0 in order of first appearance, the snapshot walked first first: its ids are
    /// all different exactly when its last item's number is its item count - 1, and each item's number is then
    /// its index. Only when an id repeats is a table of counterparts made.
    ///
    /// - Complexity: O(1) when the snapshot's ids are all different, else O(*n*) for its *n* items.
    private func reference(to built: Snapshot, _ record: CSimdJSON_Snapshot) -> Reference {
        let first = firstItem(of: record)
        guard idsNumbered else { return Reference(built, firstItem: first, counterparts: .notNumbered) }
        let count = built.itemCount
        if count == 0 || Int(items[first + count - 1].idNumber) == count - 1 {
            return Reference(built, firstItem: first, counterparts: .numbers(count))
        }
        var table = [Int32](repeating: Reference.absent, count: count)
        let numbered = table.withUnsafeMutableBufferPointer { slots in
            for flat in slots.indices {
                let slot = Int(items[first + flat].idNumber)
                guard slot < slots.count else { return false }  // not numbered as the walk numbers them
                slots[slot] = slots[slot] == Reference.absent ? Int32(flat) : Reference.unknown
            }
            return true
        }
        return Reference(built, firstItem: first, counterparts: numbered ? .table(table) : .notNumbered)
    }

    /// A snapshot already built, whose items the other's repeat or are compared with.
    private struct Reference {
        let sections: [WireSection]
        /// The index among the snapshot's items of each section's first item, and the item count at the end.
        let starts: [Int]
        let firstItem: Int
        /// Where the counterpart of an identity number is.
        enum Counterparts {
            /// The item whose index is the number, if there is one: the snapshot's ids are all different.
            case numbers(Int)
            /// By identity number: the index of the one item with that id, ``unknown`` when several have it, or
            /// ``absent``.
            case table([Int32])
            /// Ids are not numbered.
            case notNumbered
        }

        /// Where the counterpart of an identity number is.
        let counterparts: Counterparts

        /// No item of the snapshot has the id.
        static let absent: Int32 = -1
        /// Which item of the snapshot the diff may match is not known: several have the id, or ids are not
        /// numbered.
        static let unknown: Int32 = -2

        init(_ snapshot: Snapshot, firstItem: Int, counterparts: Counterparts) {
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
            let (section, item) = place(of: index)
            return sections[section].items[item]
        }

        /// The content and content number of the item at `index` among the snapshot's items (without copying
        /// the whole item).
        func content(at index: Int) -> (content: ContentKey, number: Int) {
            let (section, item) = place(of: index)
            return (sections[section].items[item].content, sections[section].items[item].contentNumber)
        }

        /// The section of the item at `index` among the snapshot's items, and its index there.
        private func place(of index: Int) -> (section: Int, item: Int) {
            // The last section starting at or before `index` (binary search: snapshots may have many sections).
            var low = 0, high = sections.count - 1
            while low < high {
                let middle = (low + high + 1) / 2
                if starts[middle] <= index { low = middle } else { high = middle - 1 }
            }
            return (low, index - starts[low])
        }

        /// The index among the snapshot's items of the item the diff may match an item of the other snapshot
        /// whose identity number is `number` with, or ``absent`` or ``unknown``.
        func counterpart(_ number: Int) -> Int32 {
            switch counterparts {
            case .numbers(let count): number >= 0 && number < count ? Int32(number) : Self.absent
            case .table(let table): number >= 0 && number < table.count ? table[number] : Self.absent
            case .notNumbered: Self.unknown
            }
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
            var contentNumber = item.content.inInput != 0 ? index : -1
            var counterpart = Reference.absent
            if let reference {
                // The item of the other snapshot the diff will match this one with, if known (see `snapshots`).
                counterpart = reference.counterpart(identityNumber)
                if let repeated = reference.item(item.repeatOf) {
                    // The same bytes, so the same id: its counterpart, unless the id repeats there.
                    if counterpart == Reference.unknown {
                        sectionItems.append(repeated.undecided)
                    } else {
                        sectionItems.append(repeated)
                    }
                    continue
                }
            }
            let itemContent = content(item.content)
            if counterpart == Reference.unknown {
                contentNumber = -1
            } else if counterpart >= 0, let other = reference?.content(at: Int(counterpart)) {
                if itemContent == other.content { contentNumber = other.number }
            }
            sectionItems.append(
                WireItem(
                    id: storedID(item.id), content: consume itemContent, identityNumber: identityNumber,
                    contentNumber: contentNumber))
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
