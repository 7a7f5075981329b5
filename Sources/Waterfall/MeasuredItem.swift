/// An item as a layout uses it once measured for a geometry: its height in pixels and whether it spans every
/// column. Sixteen bytes where a ``WaterfallItem`` is ninety-six, so that a long list can be held measured
/// rather than decoded.
public struct MeasuredItem: Hashable, Sendable {
    /// The item's height in pixels, ≥ 1.
    public let height: Int
    /// Whether the item spans every column.
    public let isFullWidth: Bool

    /// Measures an item for a geometry, or `nil` when one of its values is out of range (see
    /// ``WaterfallItem/violations(index:)``).
    ///
    /// - Parameters:
    ///   - item: The item.
    ///   - geometry: The geometry it is laid out in.
    /// - Complexity: O(1).
    public init?(_ item: WaterfallItem, in geometry: WaterfallGeometry) {
        guard item.violations(index: 0).isEmpty else { return nil }
        self.init(valid: item, in: geometry)
    }

    /// Measures an item whose ``WaterfallItem/violations(index:)`` are none.
    init(valid item: WaterfallItem, in geometry: WaterfallGeometry) {
        height = geometry.height(ofValid: item)
        isFullWidth = item.isFullWidth
    }
}
