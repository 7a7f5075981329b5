import SnapshotJSON

extension FieldErrors {
    /// The 422 problem for the errors.
    var problem: Problem {
        var problem = Problem(
            .invalidRequest,
            detail: count == 1
                ? "\(errors[0].path): \(errors[0].message)"
                : "\(count) values are invalid; see errors" + (count > errors.count ? " (the first \(errors.count) are listed)." : "."))
        problem.errors = errors
        problem.errorCount = count
        return problem
    }
}
