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

extension Violations {
    /// Records the engine's violations under the paths the request wrote them at, each as
    /// ``SnapshotJSON/ViolationRule/notAllowed(_:)``.
    ///
    /// - Parameters:
    ///   - violations: The violations.
    ///   - paths: Where the settings are.
    ///   - item: The path of the item at an index.
    mutating func add(_ violations: [WaterfallViolation], paths: WaterfallSettingPaths, item: (Int) -> String) {
        for violation in violations {
            switch violation.subject {
            case .setting(let setting): add(.notAllowed(violation.allowed), at: paths.path(of: setting))
            case .item(let index, let field):
                add(.notAllowed(violation.allowed), at: JSONPath.member(field.memberName, of: item(index)))
            }
        }
    }
}
