// The names the bridge's Swift side (`SimdJSONParser+Request.swift`) still uses, until it is moved to
// ``Violations``: there, `FieldErrors()` becomes `Violations()`, `errors.errors` becomes `errors.listed`, and
// `errors.count - errors.errors.count` becomes `errors.omittedCount`. Then this file goes.

/// The former name of ``Violations``, which the bridge's Swift side still uses.
typealias FieldErrors = Violations

extension Violations {
    /// The former name of ``listed``, which the bridge's Swift side still uses.
    var errors: [Violation] { listed }
}
