import ListDiff
import SnapshotJSON
import Waterfall

/// The waterfall layouts a `/diff` request asks for in `options.layouts`: for each named section of the
/// new snapshot, its first page of frames with the cursor for the next, and the ids of the items that were
/// laid out in the old snapshot's section too and whose frame changed — the items a client animates.
///
/// ```json
/// "options": {"layouts": [{"section": "photos", "settings": {"containerWidth": 375, "columns": 2}, "pageSize": 50}]}
/// ```
struct SectionLayouts {
    /// The requested layouts, decoded by the reader (`options.layouts`).
    private let requests: [SectionLayoutRequest]

    /// The layouts `requests` ask for.
    init(_ requests: [SectionLayoutRequest]) {
        self.requests = requests
    }

    /// Whether no layout was asked for.
    var isEmpty: Bool { requests.isEmpty }

    /// One laid-out section of the new snapshot: its first page, the ids of the items on it, and which of those
    /// changed their frame. Kept until the answer's last member is written, so held compactly.
    struct Page {
        let section: SectionID
        /// The ids of the items on the page, written (``WrittenIDs``); `nil` when they take less memory as ids.
        let writtenIDs: WrittenIDs?
        /// The ids of the items on the page when ``writtenIDs`` is `nil`; empty otherwise.
        let ids: [WireID]
        let page: WaterfallPage
        /// The offsets on the page of the items whose frame changed, in order (4 bytes each where an id is 24).
        let changed: [Int32]

        /// Writes the id of the item at an offset on the page.
        func writeID(_ offset: Int, into writer: inout JSONWriter) {
            if let writtenIDs { writtenIDs.write(offset, into: &writer) } else { ids[offset].write(into: &writer) }
        }
    }

    /// Lays out every requested section, or returns the problem. Called before the answer is written: the old
    /// sections' layouts and the table matching their frames are freed before the answer exists, and only the
    /// new pages are kept for ``write(_:cursors:into:)``.
    ///
    /// The items are measured as they are decoded (``ItemMeasuring``, 16 bytes an item), the old section is laid
    /// out first and kept as its frames (``PlacedItems``) and a table of their ids, the new section is laid out
    /// after, and its page's ids are made last; when a value is invalid, the items are decoded again to list
    /// every offending one.
    ///
    /// - Parameters:
    ///   - old: The old snapshot.
    ///   - new: The new snapshot.
    ///   - dropped: What the keep-first policy dropped (so that layouts see the same items as the diff).
    func pages(old: Snapshot, new: Snapshot, dropped: DroppedDuplicates) -> Result<[Page], Problem> {
        var errors = Violations()
        var pages: [Page] = []
        for request in requests {
            guard let newIndex = Self.index(of: request.section, in: new, dropped: dropped.target) else {
                errors.add(.noSuchSection, at: JSONPath.member("section", of: request.path))
                continue
            }
            let geometry = try? WaterfallGeometry(request.settings)
            let measuringGeometry = (request.pageSize ?? 1) >= 1 ? geometry : nil
            var newSection = Self.measured(
                newIndex, in: new, role: "new", dropped: dropped.target, geometry: measuringGeometry,
                pageSize: request.pageSize, errors: &errors)
            let oldIndex = Self.index(of: request.section, in: old, dropped: dropped.source)
            var oldSection = oldIndex.map {
                Self.measured(
                    $0, in: old, role: "old", dropped: dropped.source, geometry: measuringGeometry, pageSize: nil,
                    errors: &errors)
            }
            guard let geometry, newSection.isValid, oldSection?.isValid ?? true else {
                // Every offending value of every layout is listed, sizes in the old section's items included.
                errors.add(
                    WaterfallLayout.violations(of: request.settings, pageSize: request.pageSize), paths: request.paths,
                    item: newSection.path)
                Self.addViolations(of: newSection, in: new, dropped: dropped.target, paths: request.paths, to: &errors)
                if let oldSection {
                    Self.addViolations(of: oldSection, in: old, dropped: dropped.source, paths: request.paths, to: &errors)
                }
                continue
            }
            guard errors.isEmpty else { continue }
            var oldFrames: OldFrames?
            let page: WaterfallPage
            do throws(WaterfallError) {
                if var section = oldSection.take() {
                    // The old section first, reduced to its frames before the new one is laid out.
                    let oldPage = try WaterfallLayout.layout(section.measured, geometry: geometry)
                    section.measured = []
                    oldFrames = OldFrames(items: oldPage.items, section: section, in: old)
                }
                page = try WaterfallLayout.layout(newSection.measured, geometry: geometry, pageSize: request.pageSize)
                newSection.measured = []
            } catch {
                return .failure(error.problem(paths: request.paths, item: newSection.path, cursor: "cursor"))
            }
            let newItems = new.sections[newIndex].items
            var changed: [Int32] = []
            if let frames = oldFrames.take() {
                for (offset, placed) in page.items.enumerated() {
                    let id = newItems[Int(newSection.indices[offset])].id
                    if let before = frames.frame(of: id), before != placed.frame { changed.append(Int32(offset)) }
                }
            }
            let pageIDs = newSection.indices.lazy.map { newItems[Int($0)].id }
            let writtenIDs = WrittenIDs(pageIDs)
            pages.append(
                Page(
                    section: request.section, writtenIDs: writtenIDs, ids: writtenIDs == nil ? Array(pageIDs) : [],
                    page: page, changed: changed))
        }
        guard errors.isEmpty else { return .failure(errors.problem) }
        return .success(pages)
    }

    /// Writes the `layouts` member for `pages`.
    ///
    /// - Parameters:
    ///   - pages: What ``pages(old:new:dropped:)`` laid out.
    ///   - cursors: Seals the cursors.
    ///   - writer: The response writer, inside the response object.
    static func write(_ pages: [Page], cursors: CursorCodec, into writer: inout JSONWriter) {
        writer.key("layouts")
        writer.beginArray()
        for laidOut in pages {
            writer.beginObject()
            writer.key("section")
            laidOut.section.write(into: &writer)
            laidOut.page.writeMembers(into: &writer, cursor: laidOut.page.continuation.map(cursors.seal)) { offset, writer in
                laidOut.writeID(offset, into: &writer)
            }
            writer.key("changedFrames")
            writer.inline { writer in
                writer.beginArray()
                for offset in laidOut.changed { laidOut.writeID(Int(offset), into: &writer) }
                writer.endArray()
            }
            writer.endObject()
        }
        writer.endArray()
    }

    /// The index of the first kept section with an id.
    private static func index(of section: SectionID, in snapshot: Snapshot, dropped: DroppedDuplicates.Positions) -> Int? {
        snapshot.sections.indices.first { snapshot.sections[$0].id == section && !dropped.sections.contains($0) }
    }

    /// A section's kept items, as a layout reads them: measured, with where each of the page was written.
    private struct MeasuredSection {
        /// The section's index in its snapshot.
        let section: Int
        /// The page's items measured (all of them for an old section), while every item is valid.
        var measured: [MeasuredItem]
        /// Each measured item's index in the section (the items keepFirst dropped are skipped).
        let indices: [Int32]
        /// Whether every kept item decoded and was valid, and the settings and page size were.
        let isValid: Bool
        /// `"new.sections[2].items"`, or `"new.items"` for a bare item list.
        let itemsPath: String

        /// The JSON path of measured item `index`: made only for an error, not kept per item.
        func path(_ index: Int) -> String { JSONPath.element(Int(indices[index]), of: itemsPath) }
    }

    /// The items keepFirst dropped from a section, by their index in it.
    private static func droppedItems(of section: Int, _ dropped: DroppedDuplicates.Positions) -> Set<Int> {
        Set(dropped.elements.filter { $0.section == section }.map(\.element))
    }

    /// `"new.sections[2].items"`, or `"new.items"` for a bare item list.
    private static func itemsPath(of section: Int, in snapshot: Snapshot, role: String) -> String {
        snapshot.isBareItemList ? "\(role).items" : "\(role).sections[\(section)].items"
    }

    /// A section's kept items, decoded (their errors recorded) and measured for a geometry: the first `pageSize`
    /// (all when `nil`).
    private static func measured(
        _ section: Int, in snapshot: Snapshot, role: String, dropped: DroppedDuplicates.Positions,
        geometry: WaterfallGeometry?, pageSize: Int?, errors: inout Violations
    ) -> MeasuredSection {
        let droppedItems = droppedItems(of: section, dropped)
        let itemsPath = itemsPath(of: section, in: snapshot, role: role)
        let keptCount = snapshot.sections[section].items.count - droppedItems.count
        var measuring = ItemMeasuring(geometry: geometry, pageLength: pageSize, maximumItemCount: keptCount)
        var indices: [Int32] = []
        if measuring.isValid { indices.reserveCapacity(min(pageSize ?? keptCount, keptCount)) }
        snapshot.readItems(ofSection: section) { item, index in
            guard !droppedItems.contains(index) else { return }
            let decoded = WaterfallItem.decode(item, path: JSONPath.element(index, of: itemsPath), errors: &errors)
            if measuring.add(decoded) { indices.append(Int32(index)) }
        }
        return MeasuredSection(
            section: section, measured: measuring.measured, indices: indices, isValid: measuring.isValid,
            itemsPath: itemsPath)
    }

    /// Records the values out of range of a section's kept items (an item that did not decode has none), decoded
    /// again, each at the path it was written at.
    private static func addViolations(
        of section: MeasuredSection, in snapshot: Snapshot, dropped: DroppedDuplicates.Positions,
        paths: WaterfallSettingPaths, to errors: inout Violations
    ) {
        let droppedItems = droppedItems(of: section.section, dropped)
        var decodingErrors = Violations()  // (recorded already)
        var decodedCount = 0  // (an item's violations are numbered among the items that decoded)
        snapshot.readItems(ofSection: section.section) { item, index in
            guard
                !droppedItems.contains(index),
                let decoded = WaterfallItem.decode(
                    item, path: JSONPath.element(index, of: section.itemsPath), errors: &decodingErrors)
            else { return }
            errors.add(decoded.violations(index: decodedCount), paths: paths) { _ in
                JSONPath.element(index, of: section.itemsPath)
            }
            decodedCount += 1
        }
    }

    /// An old section's frames, found by id: its items laid out (16 bytes an item) and an open-addressing table of
    /// their positions by id (4 bytes a slot, at most half of them used), where a dictionary of ids and frames
    /// takes about 100 bytes an item.
    private struct OldFrames {
        private let items: PlacedItems
        /// Each laid-out item's index in the section.
        private let indices: [Int32]
        private let sectionItems: [WireItem]
        /// Positions in `items`, -1 for an empty slot; an id's slot is its hash's low bits, or the next free one.
        private var slots: [Int32]
        private let mask: Int

        /// The frames of `items`, laid out from the measured items of `section` in `snapshot`.
        init(items: PlacedItems, section: MeasuredSection, in snapshot: Snapshot) {
            self.items = items
            indices = section.indices
            sectionItems = snapshot.sections[section.section].items
            var capacity = 2
            while capacity < 2 * items.count { capacity *= 2 }
            mask = capacity - 1
            slots = Array(repeating: -1, count: capacity)
            for position in indices.indices {
                let itemID = sectionItems[Int(indices[position])].id
                var slot = itemID.hashValue & mask
                // (A later item of the same id replaces an earlier one, as a dictionary's assignment would.)
                while slots[slot] >= 0 && id(at: slots[slot]) != itemID { slot = (slot + 1) & mask }
                slots[slot] = Int32(position)
            }
        }

        /// The id of the item at a position in `items`.
        private func id(at position: Int32) -> WireID { sectionItems[Int(indices[Int(position)])].id }

        /// The frame of the item with an id, if the section has one.
        ///
        /// - Complexity: O(1) expected.
        func frame(of id: WireID) -> PixelRect? {
            var slot = id.hashValue & mask
            while slots[slot] >= 0 {
                if self.id(at: slots[slot]) == id { return items[Int(slots[slot])].frame }
                slot = (slot + 1) & mask
            }
            return nil
        }
    }
}
