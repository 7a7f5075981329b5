/// Places items one by one in columns, keeping each column's next y: the running state of a layout and
/// of its continuation.
struct Placer {
    let geometry: WaterfallGeometry
    private let firstIndex: Int
    private var nextY: [Int]
    private var turn: Int
    private(set) var placed: PlacedItems
    private var columnItems: [[Int]]

    /// A placer at the start of a section or where a page ended, with room for `capacity` items: reserved once,
    /// since an array that grows holds its old and new copies at once.
    init(geometry: WaterfallGeometry, continuation: Continuation?, capacity: Int) {
        self.geometry = geometry
        firstIndex = continuation?.nextIndex ?? 0
        nextY = continuation?.columnHeights ?? Array(repeating: geometry.top, count: geometry.columnCount)
        turn = continuation?.nextColumn ?? 0
        placed = PlacedItems(geometry: geometry, firstIndex: firstIndex, capacity: capacity)
        // An even share each: a column given more grows (pages never touched cost no memory, a copy does).
        let share = (capacity + geometry.columnCount - 1) / geometry.columnCount
        columnItems = (0..<geometry.columnCount).map { _ in
            var column: [Int] = []
            column.reserveCapacity(share)
            return column
        }
    }

    /// The column with the smallest next y; the leading one on ties.
    var shortestColumn: Int {
        var best = 0
        for column in 1..<nextY.count where nextY[column] < nextY[best] { best = column }
        return best
    }

    /// The round-robin column whose turn it is; advances the turn.
    var nextColumn: Int {
        mutating get {
            defer { turn = (turn + 1) % nextY.count }
            return turn
        }
    }

    mutating func place(height: Int, in column: Int) {
        let y = nextY[column]
        columnItems[column].append(firstIndex + placed.count)
        placed.append(column: column, y: y, height: height)
        nextY[column] = y + height + geometry.itemSpacing
    }

    /// Places a full-width item below the tallest column; every column continues below it.
    mutating func placeFullWidth(height: Int) {
        let y = nextY.max()!
        placed.append(column: nil, y: y, height: height)
        for column in nextY.indices { nextY[column] = y + height + geometry.itemSpacing }
        turn = 0
    }

    func page(appendStable: Bool) -> WaterfallPage {
        let nextIndex = firstIndex + placed.count
        let bottoms = nextY.map { $0 == geometry.top ? $0 : $0 - geometry.itemSpacing }
        let contentHeight = (nextIndex == 0 ? geometry.top : bottoms.max()!) + geometry.bottom
        let page = WaterfallPage(
            geometry: geometry, items: placed, columnItems: columnItems, columnHeights: bottoms,
            contentHeight: contentHeight,
            continuation: appendStable
                ? Continuation(fingerprint: geometry.fingerprint, nextIndex: nextIndex, nextColumn: turn, columnHeights: nextY)
                : nil)
        page._checkInvariants()
        return page
    }
}
