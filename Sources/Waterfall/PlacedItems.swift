/// The items of a page in input order, as ``PlacedItem``s: stored as 16 bytes an item (its y, its height and its
/// column), where a ``PlacedItem`` is 56. An item's number follows from its position, its frame's x and width
/// from its column and the geometry.
public struct PlacedItems: RandomAccessCollection, Hashable, Sendable {
    /// Where one item went.
    struct Slot: Hashable, Sendable {
        /// The frame's top edge in pixels.
        var y: Int
        /// The frame's height in pixels. A valid item is at most 100 times its width tall, and a width at most
        /// 800,000 pixels, plus an extra height of at most 800,000 pixels: 80,800,000, far below `Int32.max`
        /// (a test lays out that tallest item).
        var height: Int32
        /// The column, or -1 for a full-width item (there are at most 64 columns).
        var column: Int8
    }

    /// What the frames' x and width follow from (the geometry's, kept as integers: the geometry is hundreds of bytes).
    private let columnWidth: Int, fullWidth: Int, fullWidthX: Int
    /// ``WaterfallGeometry/columnX(_:)`` of column 0, and what each further column adds to it (negative from right
    /// to left): the columns are evenly spaced.
    private let firstColumnX: Int, columnStep: Int
    /// The number of the first item (counting every page before this one).
    private let firstIndex: Int
    private(set) var slots: [Slot]

    /// No items.
    public init() {
        columnWidth = 1
        fullWidth = 1
        fullWidthX = 0
        firstColumnX = 0
        columnStep = 0
        firstIndex = 0
        slots = []
    }

    /// No items yet, with room for `capacity`, numbered from `firstIndex`.
    init(geometry: WaterfallGeometry, firstIndex: Int, capacity: Int) {
        columnWidth = geometry.columnWidth
        fullWidth = geometry.fullWidth
        fullWidthX = geometry.fullWidthX
        firstColumnX = geometry.columnX(0)
        columnStep = geometry.columnX(1) - firstColumnX
        self.firstIndex = firstIndex
        slots = []
        slots.reserveCapacity(capacity)
    }

    /// Adds the next item: in `column` (`nil` for a full-width item), at `y`, `height` pixels tall.
    mutating func append(column: Int?, y: Int, height: Int) {
        slots.append(Slot(y: y, height: Int32(height), column: Int8(column ?? -1)))
    }

    /// The first position, 0.
    public var startIndex: Int { 0 }
    /// One past the last position: the number of items.
    public var endIndex: Int { slots.count }

    /// The item at a position (0 for the page's first item).
    ///
    /// - Complexity: O(1).
    public subscript(position: Int) -> PlacedItem {
        let slot = slots[position]
        let height = Int(slot.height)
        guard slot.column >= 0 else {
            let frame = PixelRect(x: fullWidthX, y: slot.y, width: fullWidth, height: height)
            return PlacedItem(index: firstIndex + position, column: nil, frame: frame)
        }
        let column = Int(slot.column)
        let frame = PixelRect(x: firstColumnX + column * columnStep, y: slot.y, width: columnWidth, height: height)
        return PlacedItem(index: firstIndex + position, column: column, frame: frame)
    }

    /// Whether both hold the same items (as arrays of ``PlacedItem`` compare).
    ///
    /// - Complexity: O(n).
    public static func == (lhs: PlacedItems, rhs: PlacedItems) -> Bool {
        lhs.elementsEqual(rhs)
    }

    /// Hashes the items (consistent with ``==(_:_:)``).
    ///
    /// - Parameter hasher: The hasher to feed.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for item in self { hasher.combine(item) }
    }
}
