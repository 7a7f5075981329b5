import SnapshotJSON
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
        let columns = JSONPath.member("columns", of: settings)
        let name: String
        switch setting {
        case .pageSize: return pageSize
        case .columns: return columns
        case .columnCount: return columnsIsCount ? columns : JSONPath.member("count", of: columns)
        case .minimumColumnWidth: return JSONPath.member("minimumWidth", of: columns)
        case .maximumColumnCount: return JSONPath.member("maximumCount", of: columns)
        case .containerWidth: name = "containerWidth"
        case .scale: name = "scale"
        case .columnSpacing: name = "columnSpacing"
        case .itemSpacing: name = "itemSpacing"
        case .insetTop: return JSONPath.member("top", of: JSONPath.member("insets", of: settings))
        case .insetLeading: return JSONPath.member("leading", of: JSONPath.member("insets", of: settings))
        case .insetBottom: return JSONPath.member("bottom", of: JSONPath.member("insets", of: settings))
        case .insetTrailing: return JSONPath.member("trailing", of: JSONPath.member("insets", of: settings))
        }
        return JSONPath.member(name, of: settings)
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
    /// Records the engine's violations under the paths the request wrote them at.
    ///
    /// - Parameters:
    ///   - violations: The violations.
    ///   - paths: Where the settings are.
    ///   - item: The path of the item at an index.
    mutating func add(_ violations: [WaterfallViolation], paths: WaterfallSettingPaths, item: (Int) -> String) {
        for violation in violations {
            switch violation.subject {
            case .setting(let setting): add(paths.path(of: setting), violation.reason)
            case .item(let index, let field): add(JSONPath.member(field.memberName, of: item(index)), violation.reason)
            }
        }
    }
}
