internal import SimdJSON

/// The body of `POST /diff`: `{"old": Snapshot, "new": Snapshot, "options": {...}}`.
///
/// Make one with ``parseDiffRequest(_:)``.
public struct DiffRequest: Hashable, Sendable {
    /// The snapshot the changes start from.
    public let old: Snapshot
    /// The snapshot the changes lead to.
    public let new: Snapshot
    /// The options, defaulted when absent.
    public let options: DiffOptions

    /// Deepest nesting of arrays and objects accepted; the request object itself is level 1, an item's
    /// members start at level 7.
    public static let maximumNestingDepth = SimdJSONParser.maximumDepth
    /// Largest magnitude of a number's written exponent: `1e1000000000` is accepted, `1e1000000001` is not.
    public static let maximumExponentMagnitude = SimdJSONParser.maximumExponent
    /// Violations reported at most by ``RequestError/invalid(_:)``; further ones are not listed.
    public static let maximumViolationCount = 100
    /// Spare capacity after a body's bytes that lets ``parseDiffRequest(_:)`` skip copying it: reserve
    /// `contentLength + requiredPadding` when collecting a body.
    public static let requiredPadding = SimdJSONParser.padding
}
