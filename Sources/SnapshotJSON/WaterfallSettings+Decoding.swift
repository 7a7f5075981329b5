import Waterfall

extension WaterfallSettings {
    /// Decodes layout settings, recording every invalid or unknown member by path.
    ///
    /// ```json
    /// {"containerWidth": 375, "scale": 3, "columns": 2, "columnSpacing": 8, "itemSpacing": 8,
    ///  "insets": {"top": 0, "leading": 16, "bottom": 0, "trailing": 16},
    ///  "direction": "leftToRight", "strategy": "shortestColumn"}
    /// ```
    /// `columns` is a count, or `{"count": n}`, or `{"minimumWidth": w, "maximumCount": n}`. Only
    /// `containerWidth` is required. Ranges are checked later by the layout engine, whose violations `paths`
    /// maps back to where the request wrote each value.
    public static func decode(
        _ reader: inout JSONReader, paths: inout WaterfallSettingPaths, errors: inout Violations
    ) -> WaterfallSettings? {
        let path = paths.settings
        guard errors.object(&reader, path) else { return nil }
        var settings = WaterfallSettings(containerWidth: 0)
        var hasWidth = false
        let before = errors.count
        reader.members(at: path) { reader, name, field in
            switch name {
            case "containerWidth":
                hasWidth = true
                if let value = errors.decimal(&reader, field) { settings.containerWidth = value }
            case "scale":
                if let value = errors.decimal(&reader, field) { settings.scale = value }
            case "columns":
                paths.columnsIsCount = reader.kind == .number
                if let rule = decodeColumns(&reader, path: field, errors: &errors) { settings.columns = rule }
            case "columnSpacing":
                if let value = errors.decimal(&reader, field) { settings.columnSpacing = value }
            case "itemSpacing":
                if let value = errors.decimal(&reader, field) { settings.itemSpacing = value }
            case "insets":
                if let insets = decodeInsets(&reader, path: field, errors: &errors) { settings.insets = insets }
            case "direction":
                if let value = errors.choice(LayoutDirection.self, &reader, field) { settings.direction = value }
            case "strategy":
                if let value = errors.choice(LayoutStrategy.self, &reader, field) { settings.strategy = value }
            default:
                errors.add(.unknownMember(in: .settings), at: field)
                reader.skip()
            }
        }
        if !hasWidth { errors.add(.missingMember, at: JSONPath.member("containerWidth", of: path)) }
        return errors.count == before ? settings : nil
    }

    private static func decodeColumns(_ reader: inout JSONReader, path: String, errors: inout Violations) -> ColumnRule? {
        if reader.kind == .number {
            return errors.integer(&reader, path).map { .count($0) }
        }
        guard reader.kind == .object else {
            errors.add(.expected(.integerOrObject, found: .init(reader.kind)), at: path)
            reader.skip()
            return nil
        }
        var count: Int?
        var minimumWidth: ExactDecimal?
        var maximumCount: Int?
        reader.members(at: path) { reader, name, field in
            switch name {
            case "count": count = errors.integer(&reader, field)
            case "minimumWidth": minimumWidth = errors.decimal(&reader, field)
            case "maximumCount": maximumCount = errors.integer(&reader, field)
            default:
                errors.add(.unknownMember(in: .columns), at: field)
                reader.skip()
            }
        }
        switch (count, minimumWidth) {
        case (let count?, nil) where maximumCount == nil: return .count(count)
        case (nil, let width?): return .minimumWidth(width, maximumCount: maximumCount)
        case (nil, nil): errors.add(.missingColumnRule, at: path)
        default: errors.add(.conflictingColumnRules, at: path)
        }
        return nil
    }

    private static func decodeInsets(_ reader: inout JSONReader, path: String, errors: inout Violations) -> EdgeInsets? {
        guard errors.object(&reader, path) else { return nil }
        var insets = EdgeInsets()
        reader.members(at: path) { reader, name, field in
            switch name {
            case "top": insets.top = errors.decimal(&reader, field) ?? 0
            case "leading": insets.leading = errors.decimal(&reader, field) ?? 0
            case "bottom": insets.bottom = errors.decimal(&reader, field) ?? 0
            case "trailing": insets.trailing = errors.decimal(&reader, field) ?? 0
            default:
                errors.add(.unknownMember(in: .insets), at: field)
                reader.skip()
            }
        }
        return insets
    }
}
