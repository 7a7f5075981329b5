import Waterfall

extension WaterfallError {
    /// The problem a layout error is answered with, naming the field by its JSON path.
    ///
    /// - Parameters:
    ///   - settings: The path of the settings object.
    ///   - item: The path of the item at an index.
    ///   - cursor: The path of the cursor.
    ///   - pageSize: The path of the page size.
    func problem(settings: String, item: (Int) -> String, cursor: String, pageSize: String) -> Problem {
        var errors = FieldErrors()
        switch self {
        case .invalidSetting(let field, let reason):
            errors.add(field == "pageSize" ? pageSize : member(field, of: settings), reason)
        case .noColumnWidth(let count, let available):
            errors.add(
                member("columns", of: settings),
                "\(count) column\(count == 1 ? "" : "s") leave no positive width: \(available) pixels remain after spacing and insets")
        case .invalidItem(let index, let field, let reason):
            errors.add(member(field, of: item(index)), reason)
        case .continuationMismatch:
            var problem = Problem(
                .cursorMismatch,
                detail: "\(cursor) was made with other layout settings; send the settings of the first page, or start again without a cursor.")
            problem.errors = [Problem.FieldError(path: cursor, message: "made with other settings")]
            return problem
        case .strategyNotAppendStable(let strategy), .pagingNotSupported(let strategy):
            let path = self == .strategyNotAppendStable(strategy) ? cursor : pageSize
            var problem = Problem(
                .layoutNotAppendStable,
                detail: "The \(strategy.rawValue) strategy lays out a whole section at once, so it cannot be paged or continued; use shortestColumn or roundRobin, or send every item without \(path).")
            problem.errors = [Problem.FieldError(path: path, message: "not supported by \(strategy.rawValue)")]
            return problem
        case .malformedContinuation(let reason):
            return CursorCodec.Failure.malformed(reason).problem(path: cursor)
        }
        return errors.problem
    }
}

extension CursorCodec.Failure {
    /// The 400 problem for a cursor that cannot be read.
    func problem(path: String) -> Problem {
        let reason =
            switch self {
            case .malformed(let why): "malformed (\(why))"
            case .tampered: "altered, or issued by a deployment with another SNAPDIFF_CURSOR_KEY"
            }
        var problem = Problem(.invalidCursor, detail: "\(path) is \(reason); send the nextCursor of the previous page unchanged.")
        problem.errors = [Problem.FieldError(path: path, message: reason)]
        return problem
    }
}
