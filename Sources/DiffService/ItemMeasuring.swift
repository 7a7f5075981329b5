import Waterfall

/// A layout's items measured as they are decoded, while every one is valid: the first `pageLength` measured
/// (``MeasuredItem``, 16 bytes an item where a decoded ``WaterfallItem`` is 96), the rest only checked (every
/// item measured while the page's length is not known, until ``keepPage(_:)``). An
/// invalid item, one that did not decode, or no geometry stops the measuring: the caller then lists the
/// offending values by decoding the items again. The one way `/layout` and the layouts of `/diff` read items.
struct ItemMeasuring {
    /// The items measured, in order: the page's, while every item met was valid.
    private(set) var measured: [MeasuredItem] = []
    /// Whether there is a geometry and every item given decoded and was valid.
    private(set) var isValid: Bool
    private let geometry: WaterfallGeometry?
    private let pageLength: Int?
    /// The items given so far.
    private var count = 0

    /// No item yet.
    ///
    /// - Parameters:
    ///   - geometry: The geometry to measure for; `nil` when the settings (or the page size) are invalid.
    ///   - pageLength: How many of the items are laid out (the first ones); `nil` when it is not known yet:
    ///     every item is measured, and ``keepPage(_:)`` keeps the page's once it is.
    ///   - maximumItemCount: At most how many items there are: room for the page's is reserved once (a buffer
    ///     that doubles holds its old and new copies at once; pages of the room never written take no memory).
    init(geometry: WaterfallGeometry?, pageLength: Int?, maximumItemCount: Int) {
        self.geometry = geometry
        self.pageLength = pageLength
        isValid = geometry != nil
        if isValid { measured.reserveCapacity(max(0, min(pageLength ?? maximumItemCount, maximumItemCount))) }
    }

    /// Keeps the first `pageLength` items measured (the page's; none for a length below 1, which is invalid).
    mutating func keepPage(_ pageLength: Int) {
        let kept = max(0, pageLength)
        if kept <= measured.count / 2 {
            measured = Array(measured.prefix(kept))  // (the room of the rest given back)
        } else if measured.count > kept {
            measured.removeSubrange(kept...)
        }
    }

    /// Takes the next item.
    ///
    /// - Parameter item: The item decoded, or `nil` when it did not decode (its errors are recorded by the caller).
    /// - Returns: Whether the item was measured (it is on the page, or the page's length is not known, and every
    ///   item so far is valid).
    mutating func add(_ item: WaterfallItem?) -> Bool {
        defer { count += 1 }
        guard isValid, let item, let geometry else {
            isValid = false
            return false
        }
        if count < pageLength ?? .max {
            guard let measuredItem = MeasuredItem(item, in: geometry) else {
                isValid = false
                return false
            }
            measured.append(measuredItem)
            return true
        }
        if !item.violations(index: count).isEmpty { isValid = false }
        return false
    }
}
