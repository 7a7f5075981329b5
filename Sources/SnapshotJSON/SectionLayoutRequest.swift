import Waterfall

/// One entry of a `/diff` request's `options.layouts`, decoded: lay out this section of the new snapshot.
///
/// ```json
/// {"section": "photos", "settings": {"containerWidth": 375, "columns": 2}, "pageSize": 50}
/// ```
public struct SectionLayoutRequest: Hashable, Sendable {
    /// The entry's JSON path, such as `options.layouts[0]`.
    public var path: String
    /// Where the entry wrote each setting, for the layout engine's violations.
    public var paths: WaterfallSettingPaths
    /// The section to lay out (``SectionID/implicit`` for a bare item list, written as `null` or left out).
    public var section: SectionID
    /// The layout settings.
    public var settings: WaterfallSettings
    /// The most items of the first page, if limited.
    public var pageSize: Int?
}
