import Waterfall

/// Where a request wrote each layout setting, so that the engine's violations name the client's own JSON
/// paths (`settings.columns` for `"columns": 65`, `settings.columns.count` for `{"count": 65}`).
public struct WaterfallSettingPaths: Hashable, Sendable {
    /// The path of the settings object.
    public var settings: String
    /// The path of the page size.
    public var pageSize: String
    /// Whether `columns` was written as a bare count rather than an object.
    public var columnsIsCount = false

    /// Paths for settings written at `settings`, with the page size at `pageSize`.
    ///
    /// - Parameters:
    ///   - settings: The path of the settings object.
    ///   - pageSize: The path of the page size.
    public init(settings: String, pageSize: String) {
        self.settings = settings
        self.pageSize = pageSize
    }

    /// The JSON path of a setting.
    ///
    /// - Parameter setting: The setting.
    /// - Returns: Where the request wrote it (or would have).
    public func path(of setting: WaterfallSetting) -> String {
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
