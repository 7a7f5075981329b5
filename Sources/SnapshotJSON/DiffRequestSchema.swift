/// The schema of a `/diff` body: which members each of its objects has, which are required, and what breaks it.
///
/// ```json
/// {"old": {"sections": [{"id": "a", "items": [{"id": 1, …}], …}]}, "new": {"items": [{"id": 1, …}]},
///  "options": {…}}
/// ```
///
/// A snapshot has either `sections` (each with an `id`, its `items` and any other members, its content) or bare
/// `items` (one section without id or content); an item is an object with an `id` (a string or an integer) and
/// any other members, its content. The walk reads the body once with a ``RequestCursor``, which validates every
/// value and records the violations in document order, each at its path; `options` is only located here
/// (``DiffOptions`` decodes it).
enum DiffRequestSchema {
    /// The member holding an item's or a section's id.
    static let idMember: StaticString = "id"

    /// Where a snapshot's records lie among the walk's: its sections (its items follow one another, section by
    /// section, from its first item).
    struct SnapshotRecord {
        var firstSection: Int
        var sectionCount: Int
        var firstItem: Int
    }

    /// What a walk found: each snapshot given, where the options' text is, and the canonical encodings of the
    /// sections' contents (``CanonicalEncoder``), which the section records point into.
    struct Walked {
        var old: SnapshotRecord?
        var new: SnapshotRecord?
        var options: Range<Int>?
        var contents: [UInt8] = []
    }

    /// The rules of this schema that the bridge does not know (it knows expected objects, arrays and ids,
    /// missing and repeated members, and exponents out of range).
    enum Rule: UInt8 {
        case unknownRequestMember
        case unknownSnapshotMember
        case sectionsAndItems

        /// What the violation says.
        var message: String {
            switch self {
            case .unknownRequestMember: #"unknown member; expected "old", "new" or "options""#
            case .unknownSnapshotMember: #"unknown member; expected "sections" or "items""#
            case .sectionsAndItems: #"has both "sections" and "items"; expected one of them"#
            }
        }
    }

    /// The most records a body of `bodyLength` bytes without violations holds, which the walk of a large body
    /// reserves at once (no record is kept after the first violation): an item is at least `{"id":0}` and a
    /// separator (9 bytes); a section at least `{"id":0,"items":[]}` and a separator (20 bytes), and each
    /// snapshot may be bare items, one section (whose text is the snapshot's object).
    static func reservations(bodyLength: Int) -> (items: Int, sections: Int) {
        (bodyLength / 9 + 1, maximumSections(bodyLength: bodyLength))
    }

    /// The most sections a body of `bodyLength` bytes without violations holds (both snapshots').
    static func maximumSections(bodyLength: Int) -> Int { bodyLength / 20 + 2 }

    /// Walks a body with `cursor`, standing at its start.
    static func walk(_ cursor: RequestCursor) -> Walked {
        var walked = Walked()
        let found = cursor.root()
        guard found.isObject else {
            if !found.isNothing { cursor.reportNotObject(found) }
            return walked
        }
        cursor.enter()
        var hasOptions = false
        var contents = CanonicalEncoder()
        while let name = cursor.nextMember() {
            if name == "old" {
                if walked.old == nil { walked.old = snapshot(cursor, &contents) } else { cursor.reportRepeated(name) }
            } else if name == "new" {
                if walked.new == nil { walked.new = snapshot(cursor, &contents) } else { cursor.reportRepeated(name) }
            } else if name == "options" {
                if !hasOptions { walked.options = cursor.span() } else { cursor.reportRepeated(name) }
                hasOptions = true
            } else {
                cursor.report(.unknownRequestMember, at: name.offset)
                cursor.skip()
            }
        }
        walked.contents = contents.bytes
        cursor.requireEnd()
        if walked.old == nil { cursor.reportMissing("old") }
        if walked.new == nil { cursor.reportMissing("new") }
        return walked
    }

    /// A snapshot: `sections` or `items`, exactly one of them.
    private static func snapshot(_ cursor: RequestCursor, _ contents: inout CanonicalEncoder) -> SnapshotRecord {
        let first = cursor.beginGroup()
        if cursor.expect(object: true) {
            let start = cursor.enter()
            var hasSections = false, hasItems = false
            var bareItemCount = 0
            while let name = cursor.nextMember() {
                if name == "sections" {
                    if hasSections {
                        cursor.reportRepeated(name)
                    } else if cursor.expect(object: false) {
                        cursor.enter()
                        while cursor.nextElement() { section(cursor, &contents) }
                    }
                    hasSections = true
                } else if name == "items" {
                    if hasItems {
                        cursor.reportRepeated(name)
                    } else {
                        bareItemCount = cursor.probeEach(idMember: idMember)
                    }
                    hasItems = true
                } else {
                    cursor.report(.unknownSnapshotMember, at: name.offset)
                    cursor.skip()
                }
            }
            if hasSections && hasItems {
                cursor.report(.sectionsAndItems, at: start)
            } else if !hasSections && !hasItems {
                cursor.reportMissing("sections")
            } else if hasItems {
                // One section without id or content (`{}`), whose text is the snapshot's: the object that holds
                // its items, as a section's own object does.
                let text = start ..< cursor.endOfLeft(start)
                add(cursor, id: nil, itemCount: bareItemCount, text: text, contentFrom: contents.bytes.count, &contents)
            }
        }
        let sectionEnd = cursor.endGroup()
        return SnapshotRecord(firstSection: first.sections, sectionCount: sectionEnd - first.sections, firstItem: first.items)
    }

    /// A section: its `id`, its `items`, and its other members, its content (encoded into `contents`).
    private static func section(_ cursor: RequestCursor, _ contents: inout CanonicalEncoder) {
        guard cursor.expect(object: true) else { return }
        let start = cursor.enter()
        var id: RequestCursor.ID?
        var itemCount: Int?
        let contentStart = contents.bytes.count
        var content: CanonicalEncoder.OpenObject?  // begun at the first content member: most sections have none
        while let name = cursor.nextMember() {
            if name == idMember {
                if id == nil { id = cursor.readID() } else { cursor.reportRepeated(name) }
            } else if name == "items" {
                if itemCount == nil { itemCount = cursor.probeEach(idMember: idMember) } else { cursor.reportRepeated(name) }
            } else {
                if content == nil {
                    // Room for every content the body can hold, so that a large one is never copied as it grows:
                    // no more is ever written.
                    if contents.bytes.isEmpty {
                        contents.reserveCapacity(CanonicalEncoder.maximumBytes(textLength: cursor.bodyLength))
                    }
                    content = contents.beginObject()
                }
                cursor.encodeMember(name, into: &contents)
            }
        }
        if let content {
            // (Violations beyond the listed ones are only counted: more names than that are never held.)
            let repeats = contents.end(content, listing: DiffRequest.maximumViolationCount)
            for repeated in repeats.first { cursor.reportRepeated(repeated.name, at: repeated.offset) }
            cursor.countRepeated(repeats.count - repeats.first.count)
        }
        let end = cursor.endOfLeft(start)
        if id == nil { cursor.reportMissing(idMember) }
        if itemCount == nil { cursor.reportMissing("items") }
        add(cursor, id: id, itemCount: itemCount ?? 0, text: start ..< end, contentFrom: contentStart, &contents)
    }

    /// Records a section whose text (the object holding its items) is `text` and whose content is `contents` from
    /// `contentStart` on (nothing: `{}`), or drops that content when the record is not kept (the walk has found a
    /// violation: the request is refused).
    private static func add(
        _ cursor: RequestCursor, id: RequestCursor.ID?, itemCount: Int, text: Range<Int>, contentFrom contentStart: Int,
        _ contents: inout CanonicalEncoder
    ) {
        let content = contentStart ..< contents.bytes.count
        if !cursor.addSection(id: id, itemCount: itemCount, text: text, content: content) {
            contents.truncate(to: contentStart)
        }
    }
}
