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
                writer.key("id")
                ids[placed.index - first].write(into: &writer)
                writer.key("column")
                if let column = placed.column { writer.value(column) } else { writer.null() }
                writer.key("frame")
                writer.beginObject()
                writer.member("x", points(placed.frame.x))
                writer.member("y", points(placed.frame.y))
                writer.member("width", points(placed.frame.width))
                writer.member("height", points(placed.frame.height))
                writer.endObject()
                writer.endObject()
            }
        }
        writer.endArray()
        writer.key("columns")
        writer.beginArray()
        for column in columnItems {
            writer.inline { writer in
                writer.beginArray()
                for index in column { ids[index - first].write(into: &writer) }
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
}
