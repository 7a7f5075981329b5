// The names the `/diff` schema (`DiffRequestSchema.swift`) still uses, until it is moved to ``Violations``: there,
// `Walked`'s `optionErrors` and `layoutErrors` become `Violations()`. Then this file goes.

/// The former name of ``Violations``, which the `/diff` schema still uses.
typealias FieldErrors = Violations
