internal import SimdJSON

/// The numbers of the ids of a request's items (``WireItem/identityNumber``): two items have the same number
/// exactly when they have the same id (`1` and `"1"` differ; `"a"` and `"\u0061"` do not), counting from 0 in
/// order of first appearance over both snapshots, in the order the walk probed them.
///
/// The walk hashes each item's id as it probes it, with ``seed``; the table that numbers them
/// (``ProbeTable/numberMembers(text:unescaped:)``, which writes each number into its probe's record,
/// ``JSONProbe/memberNumber``) falls back to SipHash should ids be crafted to collide.
enum IDNumbering {
    /// The seed of the walk's hash of each id (``DiffRequestSchema``'s probes): random per process, so that which
    /// ids collide by chance cannot be known outside.
    static let seed = UInt64.random(in: .min ... .max)

    /// Numbers each probe's id (the walk found no violation: every probe has an id).
    ///
    /// - Parameters:
    ///   - text: The body walked, which holds the ids written without escapes.
    ///   - unescaped: The unescaped bytes of the ids written with escapes.
    static func number(_ probes: ProbeTable, text: [UInt8], unescaped: [UInt8]) {
        probes.numberMembers(text: text, unescaped: unescaped)
    }
}
