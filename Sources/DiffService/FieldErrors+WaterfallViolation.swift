import SnapshotJSON
import Waterfall

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
            case .item(let index, let field): add(JSONPath.member(field.memberName, of: item(index)), violation.allowed.message)
            }
        }
    }
}
