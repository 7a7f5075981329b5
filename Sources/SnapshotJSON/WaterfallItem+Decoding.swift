import Waterfall

extension WaterfallItem {
    /// Decodes an item's size from its object: exactly one of `aspectRatio`, `width` with `height`, or
    /// `fixedHeight`; optionally `extraHeight` (points) and `fullWidth` (boolean).
    ///
    /// - Parameters:
    ///   - item: A reader at the item's object.
    ///   - path: The item's JSON path, made only for an error.
    ///   - errors: Where missing, ambiguous and mistyped size members are recorded.
    ///   - otherMember: Given every other member (`id` included): its name and a reader at its value. By
    ///     default the value is skipped.
    public static func decode(
        _ item: JSONReader, path: @autoclosure () -> String, errors: inout Violations,
        otherMember: (String, inout JSONReader) -> Void = { _, reader in reader.skip() }
    ) -> WaterfallItem? {
        var reader = item
        var aspectRatio: ExactDecimal?
        var width: ExactDecimal?
        var height: ExactDecimal?
        var fixedHeight: ExactDecimal?
        var extraHeight: ExactDecimal = 0
        var fullWidth = false
        let before = errors.count
        reader.members { reader, name in
            func field() -> String { JSONPath.member(name, of: path()) }
            switch name {
            case "aspectRatio": aspectRatio = errors.decimal(&reader, field())
            case "width": width = errors.decimal(&reader, field())
            case "height": height = errors.decimal(&reader, field())
            case "fixedHeight": fixedHeight = errors.decimal(&reader, field())
            case "extraHeight": extraHeight = errors.decimal(&reader, field()) ?? 0
            case "fullWidth": fullWidth = errors.boolean(&reader, field()) ?? false
            default: otherMember(name, &reader)
            }
        }
        guard errors.count == before else { return nil }
        // (Counted, not filtered from an array: no allocation per item.)
        let given =
            (aspectRatio != nil ? 1 : 0) + (width != nil || height != nil ? 1 : 0) + (fixedHeight != nil ? 1 : 0)
        if given == 0 {
            errors.add(.missingSize, at: path())
            return nil
        }
        if given > 1 {
            errors.add(.ambiguousSize, at: path())
            return nil
        }
        let size: ItemSize
        if let aspectRatio {
            size = .aspectRatio(aspectRatio)
        } else if let fixedHeight {
            size = .fixedHeight(fixedHeight)
        } else if let width, let height {
            size = .size(width: width, height: height)
        } else {
            errors.add(.missingSizePartner, at: JSONPath.member(width == nil ? "width" : "height", of: path()))
            return nil
        }
        return WaterfallItem(size: size, extraHeight: extraHeight, isFullWidth: fullWidth)
    }
}
