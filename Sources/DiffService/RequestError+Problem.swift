import SnapshotJSON

extension RequestError {
    /// The problem a request reading error is answered with.
    var problem: Problem {
        switch self {
        case .emptyBody:
            return Problem(.emptyBody, detail: "The request body is empty; send a JSON object with \"old\" and \"new\".")
        case .malformedJSON(let message, let offset, let line, let column):
            var problem = Problem(.malformedJSON, detail: "\(message) at line \(line), column \(column) (byte \(offset)).")
            (problem.line, problem.column, problem.offset) = (line, column, offset)
            return problem
        case .invalidUTF8(let offset):
            var problem = Problem(.invalidUTF8, detail: "The body is not valid UTF-8 at byte \(offset).")
            problem.offset = offset
            return problem
        case .tooDeep(let limit, let offset):
            var problem = Problem(
                .nestingTooDeep, detail: "Arrays and objects nest deeper than \(limit) levels (at byte \(offset)).")
            problem.limit = limit
            problem.offset = offset
            return problem
        case .tooLarge(let count):
            return Problem(.contentTooLarge, detail: "The body of \(count) bytes is larger than the parser accepts.")
        case .invalid(let violations, let omitted):
            let total = violations.count + omitted
            var problem = Problem(
                .invalidRequest,
                detail: total == 1
                    ? "\(Self.display(violations[0].path)): \(violations[0].message)"
                    : "\(total) values are invalid; see errors"
                        + (omitted > 0 ? " (the first \(violations.count) are listed)." : "."))
            problem.errors = violations.map { Violation(path: Self.display($0.path), message: $0.message) }
            problem.errorCount = total
            return problem
        }
    }

    /// The root's path is empty in the reader; problems call it `$`.
    private static func display(_ path: String) -> String { path.isEmpty ? "$" : path }
}
