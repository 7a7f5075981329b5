internal import SimdJSON

/// The schema of a `/diff` body: which members each of its objects has, which are required, and what breaks it.
///
/// ```json
/// {"old": {"sections": [{"id": "a", "items": [{"id": 1, …}], …}]}, "new": {"items": [{"id": 1, …}]},
///  "options": {…}}
/// ```
///
/// A snapshot has either `sections` (each with an `id`, its `items` and any other members, its content) or bare
/// `items` (one section without id or content); an item is an object with an `id` (a string or an integer) and
/// any other members, its content. The walk reads the body once with a ``JSONCursor``, which validates every
/// value and records the violations in document order, each at its path: items are probed by the bridge (their
/// text and id), sections are recorded here, and `options` (its `layouts` included) is decoded as the walk
/// meets it.
enum DiffRequestSchema {
    /// The member holding an item's or a section's id.
    static let idMember: StaticString = "id"

    /// The kinds of JSON value an id is: a string, or an integer written without fraction or exponent that fits
    /// Int64 (`1` and `"1"` differ; `1.0` is not an id).
    static let idKinds: AcceptedScalars = [.string, .integer]

    /// Where a snapshot's records lie among the walk's: its sections (its items follow one another, section by
    /// section, from its first item).
    struct SnapshotRecord {
        var firstSection: Int
        var sectionCount: Int
        var firstItem: Int
    }

    /// A section as the walk recorded it: its id, where its text and its content's encoding lie, and its item
    /// count (32 bytes: a request of many small sections holds one per section; the body is under 4 GiB, and
    /// readRequest refuses one whose encodings could reach that).
    struct SectionRecord {
        /// The id's packed value (``JSONScalar/packed``).
        let idPacked: Int64
        /// Where the section's object lies in the body (a bare item list's: its snapshot's).
        let textOffset: UInt32, textLength: UInt32
        /// Where the section's content's canonical encoding lies in ``Walked/contents`` (empty: `{}`).
        let contentOffset: UInt32, contentLength: UInt32
        let itemCount: UInt32
        /// How the id is held; ``JSONScalar/Kind/none`` for a bare item list's section.
        let idKind: JSONScalar.Kind

        init(id: JSONScalar?, itemCount: Int, text: Range<Int>, content: Range<Int>) {
            idPacked = id?.packed ?? 0
            idKind = id?.kind ?? .none
            self.itemCount = UInt32(itemCount)  // (fewer than 2^29 items: see WireItem)
            textOffset = UInt32(text.lowerBound)
            textLength = UInt32(text.count)
            contentOffset = UInt32(truncatingIfNeeded: content.lowerBound)
            contentLength = UInt32(truncatingIfNeeded: content.count)
        }
    }

    /// What a walk found: each snapshot given, the sections (both snapshots', in the order met), the canonical
    /// encodings of their contents (``CanonicalEncoder``), and the options, with the problems of each.
    struct Walked {
        var old: SnapshotRecord?
        var new: SnapshotRecord?
        var sections: [SectionRecord] = []
        var contents: [UInt8] = []
        var options = DiffOptions()
        /// The problems of `options`, and of `options.layouts` (listed only when the rest is valid).
        var optionErrors = Violations()
        var layoutErrors = Violations()
    }

    /// The rules of this schema that the walk does not know itself (it knows expected objects and arrays,
    /// missing and repeated members, and exponents out of range), by the code the cursor records them with; each
    /// is a rule of the vocabulary (``violationRule(found:)``), which says it.
    enum Rule: UInt8 {
        case unknownRequestMember
        case unknownSnapshotMember
        case sectionsAndItems
        /// An id that is not a string or an integer within Int64 (what was found is recorded with it).
        case invalidID
    }

    /// The most probe records a body of `bodyLength` bytes without violations holds, which the walk of a large
    /// body reserves at once (no record is kept after the first violation): an item is at least `{"id":0}` and a
    /// separator (9 bytes).
    static func probeReservation(bodyLength: Int) -> Int { bodyLength / 9 + 1 }

    /// The most sections a body of `bodyLength` bytes without violations holds (both snapshots'): a section is at
    /// least `{"id":0,"items":[]}` and a separator (20 bytes), and each snapshot may be bare items, one section
    /// (whose text is the snapshot's object).
    static func maximumSections(bodyLength: Int) -> Int { bodyLength / 20 + 2 }

    /// Bodies longer than this reserve their records at once (as the bridge reserves its probes).
    private static let largeBody = 4 << 20

    /// Walks a body with `cursor`, standing at its start.
    static func walk(_ cursor: JSONCursor) -> Walked {
        var walked = Walked()
        let found = cursor.root()
        guard found == .object else {
            if found != .nothing { cursor.reportNotObject(found) }
            return walked
        }
        cursor.enter(checkingNames: false)
        var hasOptions = false
        var contents = CanonicalEncoder()
        while let name = cursor.nextMember(describing: false) {
            if name == "old" {
                if walked.old == nil { walked.old = snapshot(cursor, &walked, &contents) } else { cursor.reportRepeated(name) }
            } else if name == "new" {
                if walked.new == nil { walked.new = snapshot(cursor, &walked, &contents) } else { cursor.reportRepeated(name) }
            } else if name == "options" {
                if !hasOptions {
                    cursor.describe()
                    walked.options = DiffOptions(
                        decoding: JSONReader(cursor), errors: &walked.optionErrors, layoutErrors: &walked.layoutErrors)
                } else {
                    cursor.reportRepeated(name)
                }
                hasOptions = true
            } else {
                cursor.report(Rule.unknownRequestMember.rawValue, at: name.offset)
                cursor.skip()
            }
        }
        walked.contents = contents.bytes
        cursor.requireEnd()
        if walked.old == nil { cursor.reportMissing("old") }
        if walked.new == nil { cursor.reportMissing("new") }
        return walked
    }

    /// A snapshot: `sections` or `items`, exactly one of them. The first snapshot walked is the reference of the
    /// second: an item of the second whose bytes repeat one of the first is recorded as that one, without being
    /// read again.
    private static func snapshot(_ cursor: JSONCursor, _ walked: inout Walked, _ contents: inout CanonicalEncoder) -> SnapshotRecord {
        var record = SnapshotRecord(firstSection: walked.sections.count, sectionCount: 0, firstItem: cursor.probeCount)
        if let reference = walked.old ?? walked.new {
            cursor.repeatFrom(reference.firstItem ..< record.firstItem)
        }
        if cursor.expect(object: true) {
            let start = cursor.enter(checkingNames: false)
            var hasSections = false, hasItems = false
            var bareItemCount = 0
            while let name = cursor.nextMember(describing: false) {
                if name == "sections" {
                    if hasSections {
                        cursor.reportRepeated(name)
                    } else if cursor.expect(object: false) {
                        cursor.enter(checkingNames: false)
                        while cursor.nextElement() { section(cursor, &walked.sections, &contents) }
                    }
                    hasSections = true
                } else if name == "items" {
                    if hasItems {
                        cursor.reportRepeated(name)
                    } else {
                        bareItemCount = probeItems(cursor)
                    }
                    hasItems = true
                } else {
                    cursor.report(Rule.unknownSnapshotMember.rawValue, at: name.offset)
                    cursor.skip()
                }
            }
            if hasSections && hasItems {
                cursor.report(Rule.sectionsAndItems.rawValue, at: start)
            } else if !hasSections && !hasItems {
                cursor.reportMissing("sections")
            } else if hasItems {
                // One section without id or content (`{}`), whose text is the snapshot's: the object that holds
                // its items, as a section's own object does.
                let text = start ..< cursor.endOfLeft(start)
                add(cursor, id: nil, itemCount: bareItemCount, text: text, contentFrom: contents.bytes.count, &walked.sections, &contents)
            }
        }
        record.sectionCount = walked.sections.count - record.firstSection
        return record
    }

    /// Probes the items of the array the cursor stands on: each an object with its id in ``idMember``.
    private static func probeItems(_ cursor: JSONCursor) -> Int {
        cursor.probeEach(member: idMember, accepting: idKinds, violation: Rule.invalidID.rawValue, seed: IDNumbering.seed)
    }

    /// A section: its `id`, its `items`, and its other members, its content (encoded into `contents`).
    private static func section(_ cursor: JSONCursor, _ sections: inout [SectionRecord], _ contents: inout CanonicalEncoder) {
        guard cursor.expect(object: true) else { return }
        let start = cursor.enter(checkingNames: false)
        var id: JSONScalar?
        var itemCount: Int?
        let contentStart = contents.bytes.count
        var content: CanonicalEncoder.OpenObject?  // begun at the first content member: most sections have none
        while let name = cursor.nextMember(describing: false) {
            if name == idMember {
                if id == nil {
                    id = cursor.readScalar(accepting: idKinds, violation: Rule.invalidID.rawValue)
                } else {
                    cursor.reportRepeated(name)
                }
            } else if name == "items" {
                if itemCount == nil { itemCount = probeItems(cursor) } else { cursor.reportRepeated(name) }
            } else {
                if content == nil {
                    // Room for every content the body can hold, so that a large one is never copied as it grows:
                    // no more is ever written.
                    if contents.bytes.isEmpty {
                        contents.reserveCapacity(CanonicalEncoder.maximumBytes(textLength: cursor.source.count))
                    }
                    content = contents.beginObject()
                }
                cursor.describe()
                var reader = JSONReader(cursor)
                contents.appendMember(name.bytes.array, nameOffset: name.offset, &reader)
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
        add(cursor, id: id, itemCount: itemCount ?? 0, text: start ..< end, contentFrom: contentStart, &sections, &contents)
    }

    /// Records a section whose text (the object holding its items) is `text` and whose content is `contents` from
    /// `contentStart` on (nothing: `{}`), while the walk has found no violation; else drops that content (the
    /// request is refused, and a flood of invalid sections holds no records).
    private static func add(
        _ cursor: JSONCursor, id: JSONScalar?, itemCount: Int, text: Range<Int>, contentFrom contentStart: Int,
        _ sections: inout [SectionRecord], _ contents: inout CanonicalEncoder
    ) {
        guard cursor.isClean else {
            contents.truncate(to: contentStart)
            return
        }
        if sections.isEmpty {
            // A large body's records are reserved once for the most it can hold: growing them by doubling would
            // hold the old and the new copy at once (what is reserved and never written is never touched). A
            // smaller body's first reservation holds a few sections, not one.
            let most = maximumSections(bodyLength: cursor.source.count)
            sections.reserveCapacity(cursor.source.count > largeBody ? most : min(most, 16))
        }
        sections.append(SectionRecord(id: id, itemCount: itemCount, text: text, content: contentStart ..< contents.bytes.count))
    }
}
