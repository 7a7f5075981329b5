import SnapshotJSON
import Waterfall

extension WaterfallError {
    /// The problem a layout error is answered with, naming each offending value by its JSON path.
    ///
    /// - Parameters:
    ///   - paths: Where the settings and the page size are.
    ///   - item: The path of the item at an index.
    ///   - cursor: The path of the cursor.
    func problem(paths: WaterfallSettingPaths, item: (Int) -> String, cursor: String) -> Problem {
        switch self {
        case .invalidValues(let violations):
            var errors = Violations()
            errors.add(violations, paths: paths, item: item)
            return errors.problem
        case .continuationMismatch:
            var problem = Problem(
                .cursorMismatch,
                detail: "\(cursor) was made with other layout settings; send the settings of the first page, or start again without a cursor.")
            problem.errors = [Violation(.cursorMadeWithOtherSettings, at: cursor)]
            return problem
        case .strategyNotAppendStable(let strategy), .pagingNotSupported(let strategy):
            let path = self == .strategyNotAppendStable(strategy) ? cursor : paths.pageSize
            var problem = Problem(
                .layoutNotAppendStable,
                detail: "The \(strategy.rawValue) strategy lays out a whole section at once, so it cannot be paged or continued; use shortestColumn or roundRobin, or send every item without \(path).")
            problem.errors = [Violation(.notSupported(by: strategy), at: path)]
            return problem
        case .malformedContinuation(let defect):
            return CursorCodec.Failure.malformed(defect.phrase).problem(path: cursor)
        }
    }
}

extension ContinuationDefect {
    /// What a client is told a malformed cursor lacks, in parentheses after `malformed`.
    var phrase: String {
        switch self {
        case .unknownVersion: "unknown version"
        case .truncated: "truncated"
        case .integerTooLong: "integer too long"
        case .integerOutOfRange: "integer out of range"
        case .columnCountOutOfRange: "column count out of range"
        case .trailingBytes: "trailing bytes"
        }
    }
}

extension CursorCodec.Failure {
    /// The 400 problem for a cursor that cannot be read.
    func problem(path: String) -> Problem {
        let reason =
            switch self {
            case .malformed(let why): ViolationRule.malformedCursor(why).message
            case .tampered: ViolationRule.alteredCursor.message
            }
        var problem = Problem(.invalidCursor, detail: "\(path) is \(reason); send the nextCursor of the previous page unchanged.")
        problem.errors = [Violation(path: path, message: reason)]
        return problem
    }
}
