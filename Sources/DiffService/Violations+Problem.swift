import SnapshotJSON

extension Violations {
    /// The 422 problem for the violations, as ``SnapshotJSON/RequestError/invalid(_:omitted:)`` is answered:
    /// the first ``SnapshotJSON/Violations/listedLimit`` listed in the order met, `errorCount` the total.
    var problem: Problem { error.problem }
}
