import Waterfall

/// Where a request wrote each layout setting, so that the engine's violations name the client's own JSON
/// paths (`settings.columns` for `"columns": 65`, `settings.columns.count` for `{"count": 65}`).
struct WaterfallSettingPaths {
    /// The path of the settings object.
    var settings: String
    /// The path of the page size.
    var pageSize: String
    /// Whether `columns` was written as a bare count rather than an object.
    var columnsIsCount = false

    /// The JSON path of a setting.
    func path(of setting: WaterfallSetting) -> String {
        let columns = member("columns", of: settings)
        let name: String
        switch setting {
        case .pageSize: return pageSize
        case .columns: return columns
        case .columnCount: return columnsIsCount ? columns : member("count", of: columns)
        case .minimumColumnWidth: return member("minimumWidth", of: columns)
        case .maximumColumnCount: return member("maximumCount", of: columns)
        case .containerWidth: name = "containerWidth"
        case .scale: name = "scale"
        case .columnSpacing: name = "columnSpacing"
        case .itemSpacing: name = "itemSpacing"
        case .insetTop: name = "insets.top"
        case .insetLeading: name = "insets.leading"
        case .insetBottom: name = "insets.bottom"
        case .insetTrailing: name = "insets.trailing"
        }
        return member(name, of: settings)
    }
}

extension ItemSizeField {
    /// The member an item writes this value in.
    var memberName: String {
        switch self {
        case .aspectRatio: "aspectRatio"
        case .width: "width"
        case .height: "height"
        case .fixedHeight: "fixedHeight"
        case .extraHeight: "extraHeight"
        }
    }
}

extension FieldErrors {
    /// Records the engine's violations under the paths the request wrote them at, each with its English
    /// (``WaterfallViolation/Allowed/message``).
    ///
    /// - Parameters:
    ///   - violations: The violations.
    ///   - paths: Where the settings are.
    ///   - item: The path of the item at an index.
    mutating func add(_ violations: [WaterfallViolation], paths: WaterfallSettingPaths, item: (Int) -> String) {
        for violation in violations {
            switch violation.subject {
            case .setting(let setting): add(paths.path(of: setting), violation.allowed.message)
            case .item(let index, let field): add(member(field.memberName, of: item(index)), violation.allowed.message)
            }
        }
    }
}
