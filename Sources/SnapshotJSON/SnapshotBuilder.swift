internal import CSimdJSON

/// Builds ``Snapshot`` values from the flat arrays of a successful CSimdJSON parse.
struct SnapshotBuilder {
    private let sections: UnsafeBufferPointer<CSimdJSON_Section>
    private let items: UnsafeBufferPointer<CSimdJSON_Item>
    private let idBytes: UnsafeBufferPointer<UInt8>
    private let arena: ContentArena
    private let text: RequestText?
    private let input: UnsafeBufferPointer<UInt8>

    /// The result and `input` (the bytes parsed) must stay valid, the parser unused, while the builder is used;
    /// `text` holds the parsed bytes when the result's item contents refer to them (CSimdJSON_Parse).
    init(result: CSimdJSON_Result, input: UnsafeBufferPointer<UInt8>, arena: ContentArena, text: RequestText?) {
        sections = UnsafeBufferPointer(start: result.sections, count: result.sectionCount)
        items = UnsafeBufferPointer(start: result.items, count: result.itemCount)
        idBytes = UnsafeBufferPointer(start: result.idBytes, count: result.idByteCount)
        self.arena = arena
        self.text = text
        self.input = input
    }

    func snapshot(_ record: CSimdJSON_Snapshot) -> Snapshot {
        let first = Int(record.firstSection)
        return Snapshot(sections: sections[first ..< first + Int(record.sectionCount)].map(section))
    }

    private func section(_ record: CSimdJSON_Section) -> WireSection {
        let first = Int(record.firstItem)
        var sectionItems: [WireItem] = []
        sectionItems.reserveCapacity(Int(record.itemCount))
        for item in items[first ..< first + Int(record.itemCount)] {
            sectionItems.append(WireItem(id: id(item.id), content: content(item.content)))
        }
        let sectionID: SectionID = Int(record.id.kind) == CSimdJSON_IDNone ? .implicit : .explicit(id(record.id))
        return WireSection(id: sectionID, content: content(record.content), items: sectionItems)
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
