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

    /// One laid-out section of the new snapshot: its first page, the ids of its kept items, and the ids of those
    /// whose frame changed.
    struct Page {
        let section: SectionID
        let ids: [WireID]
        let page: WaterfallPage
        let changed: [WireID]
    }

    /// Lays out every requested section, or returns the problem. Called before the answer is written: the old
    /// sections' layouts and the table matching their frames are freed before the answer exists, and only the
    /// new pages are kept for ``write(_:cursors:into:)``.
    ///
    /// - Parameters:
    ///   - old: The old snapshot.
    ///   - new: The new snapshot.
    ///   - dropped: What the keep-first policy dropped (so that layouts see the same items as the diff).
    func pages(old: Snapshot, new: Snapshot, dropped: DroppedDuplicates) -> Result<[Page], Problem> {
        var errors = FieldErrors()
        var pages: [Page] = []
        for request in requests {
            guard let newIndex = Self.index(of: request.section, in: new, dropped: dropped.target) else {
                errors.add(JSONPath.member("section", of: request.path), "no section with this id in the new snapshot")
                continue
            }
            let newSection = Self.items(of: newIndex, in: new, role: "new", dropped: dropped.target, errors: &errors)
            let oldIndex = Self.index(of: request.section, in: old, dropped: dropped.source)
            let oldSection = oldIndex.map { Self.items(of: $0, in: old, role: "old", dropped: dropped.source, errors: &errors) }
            // Every offending value of every layout is listed, sizes in the old section's items included.
            errors.add(
                WaterfallLayout.violations(of: request.settings, pageSize: request.pageSize), paths: request.paths,
                item: newSection.path)
            for section in [newSection] + (oldSection.map { [$0] } ?? []) {
                for (index, item) in section.items.enumerated() {
                    errors.add(item.violations(index: index), paths: request.paths, item: section.path)
                }
            }
            guard errors.isEmpty else { continue }
            let page: WaterfallPage
            let oldPage: WaterfallPage?
            do throws(WaterfallError) {
                page = try WaterfallLayout.layout(newSection.items, settings: request.settings, pageSize: request.pageSize)
                oldPage = try oldSection.map { section throws(WaterfallError) in
                    try WaterfallLayout.layout(section.items, settings: request.settings)
                }
            } catch {
                return .failure(error.problem(paths: request.paths, item: newSection.path, cursor: "cursor"))
            }
            var changed: [WireID] = []
            if let oldPage, let oldSection {
                // Sized once: a dictionary that grows holds its old and new tables at once.
                var oldFrames = [WireID: PixelRect](minimumCapacity: oldPage.items.count)
                for placed in oldPage.items { oldFrames[oldSection.ids[placed.index]] = placed.frame }
                changed = page.items.compactMap { placed -> WireID? in
                    let id = newSection.ids[placed.index]
                    guard let before = oldFrames[id], before != placed.frame else { return nil }
                    return id
                }
            }
            pages.append(Page(section: request.section, ids: newSection.ids, page: page, changed: changed))
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
            laidOut.page.writeMembers(into: &writer, ids: laidOut.ids, cursor: laidOut.page.continuation.map(cursors.seal))
            writer.key("changedFrames")
            writer.inline { writer in
                writer.beginArray()
                for id in laidOut.changed { id.write(into: &writer) }
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

    /// A section's kept items, as a layout reads them: their ids and layout items, and where each was written.
    private struct LaidOutSection {
        var ids: [WireID] = []
        var items: [WaterfallItem] = []
        /// Each kept item's index in the section (the items keepFirst dropped are skipped).
        var indices: [Int32] = []
        /// `"new.sections[2].items"`, or `"new.items"` for a bare item list.
        let itemsPath: String

        /// The JSON path of kept item `index`: made only for an error, not kept per item.
        func path(_ index: Int) -> String { JSONPath.element(Int(indices[index]), of: itemsPath) }
    }

    /// A section's kept items: their ids, layout items and JSON paths.
    private static func items(
        of section: Int, in snapshot: Snapshot, role: String, dropped: DroppedDuplicates.Positions,
        errors: inout FieldErrors
    ) -> LaidOutSection {
        let droppedItems = Set(dropped.elements.filter { $0.section == section }.map(\.element))
        var result = LaidOutSection(
            itemsPath: snapshot.isBareItemList ? "\(role).items" : "\(role).sections[\(section)].items")
        let items = snapshot.sections[section].items
        result.ids.reserveCapacity(items.count)
        result.items.reserveCapacity(items.count)
        result.indices.reserveCapacity(items.count)
        for index in items.indices where !droppedItems.contains(index) {
            guard
                let decoded = WaterfallItem.decode(
                    items[index].json.reader, path: JSONPath.element(index, of: result.itemsPath), errors: &errors)
            else { continue }
            result.ids.append(items[index].id)
            result.items.append(decoded)
            result.indices.append(Int32(index))
        }
        return result
    }
}
