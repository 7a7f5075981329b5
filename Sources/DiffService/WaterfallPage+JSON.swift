import SnapshotJSON
import Waterfall

extension WaterfallPage {
    /// Writes the page as the members of a layout object: geometry, each item's column and frame (in
    /// points, in input order), each column's item ids, the column heights and content height, and the
    /// cursor for the next page.
    ///
    /// - Parameters:
    ///   - writer: The writer, inside an object.
    ///   - ids: The ids of the items given, in order (the page's first item is `ids[0]`).
    ///   - cursor: The sealed continuation, for append-stable strategies.
    func writeMembers(into writer: inout JSONWriter, ids: [WireID], cursor: String?) {
        self.writeMembers(into: &writer, cursor: cursor) { offset, writer in ids[offset].write(into: &writer) }
    }

    /// Writes the page as the members of a layout object, as ``writeMembers(into:ids:cursor:)`` does, each id
    /// written by `writeID`. A page given up by its caller lets its items go once they are written, before the
    /// columns: the answer's last bytes are its largest moment.
    ///
    /// - Parameters:
    ///   - writer: The writer, inside an object.
    ///   - cursor: The sealed continuation, for append-stable strategies.
    ///   - writeID: Writes the id of the item at an offset among the items given (the page's first item is at 0).
    consuming func writeMembers(into writer: inout JSONWriter, cursor: String?, writeID: (Int, inout JSONWriter) -> Void) {
        let scale = geometry.settings.scale.doubleValue
        let first = items.first?.index ?? continuation?.nextIndex ?? 0
        func points(_ pixels: Int) -> Double { Double(pixels) / scale }
        writer.member("strategy", geometry.settings.strategy.rawValue)
        writer.key("appendStable")
        writer.value(geometry.settings.strategy.isAppendStable)
        writer.member("columnCount", geometry.columnCount)
        writer.member("columnWidth", points(geometry.columnWidth))
        writer.member("firstIndex", first)
        writer.key("items")
        writer.beginArray()
        for placed in items {
            writer.inline { writer in
                writer.beginObject()
                writer.key(.id)
                writeID(placed.index - first, &writer)
                writer.key(.column)
                if let column = placed.column { writer.value(column) } else { writer.null() }
                writer.key(.frame)
                writer.beginObject()
                writer.member(.x, points(placed.frame.x))
                writer.member(.y, points(placed.frame.y))
                writer.member(.width, points(placed.frame.width))
                writer.member(.height, points(placed.frame.height))
                writer.endObject()
                writer.endObject()
            }
        }
        writer.endArray()
        items = PlacedItems()
        writer.key("columns")
        writer.beginArray()
        for column in columnItems {
            writer.inline { writer in
                writer.beginArray()
                for index in column { writeID(index - first, &writer) }
                writer.endArray()
            }
        }
        writer.endArray()
        writer.key("columnHeights")
        writer.inline { writer in
            writer.beginArray()
            for height in columnHeights { writer.value(points(height)) }
            writer.endArray()
        }
        writer.member("contentHeight", points(contentHeight))
        if let cursor { writer.member("nextCursor", cursor) }
    }

    /// At least the bytes ``writeMembers(into:ids:cursor:)`` and the enclosing object take for this page: reserved
    /// once, since a buffer that doubles holds its old and new copies at once (pages it never touches cost no
    /// memory).
    ///
    /// - Parameters:
    ///   - idsLength: The bytes of the page's ids as written, together.
    ///   - pretty: Whether the answer is pretty-printed.
    /// - Complexity: O(1).
    func answerCapacity(idsLength: Int, pretty: Bool) -> Int {
        // An item's line, pretty: `    {"id": …, "column": null, "frame": {"x": …, "y": …, "width": …, "height": …}},`
        // and a newline (78 bytes) with four numbers of at most 24 characters ("-2.2250738585072014e-308"); compact,
        // 61. Its id is written twice: in its frame, and in its column's list after ", ". Each column adds its
        // brackets, line and height; the rest (names, the cursor) is under 4 KiB.
        let perItem = (pretty ? 78 + 2 : 61 + 1) + 4 * 24
        return 4096 + geometry.columnCount * 64 + items.count * perItem + 2 * idsLength
    }
}

/// The member names of every placed item, encoded once (a name written through `key(_: String)` is checked for
/// escapes every time: seven names an item were a tenth of a `/layout`'s instructions).
private extension JSONWriter.Name {
    static let id = Self("id")
    static let column = Self("column")
    static let frame = Self("frame")
    static let x = Self("x")
    static let y = Self("y")
    static let width = Self("width")
    static let height = Self("height")
}
