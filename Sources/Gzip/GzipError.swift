/// Why gzip data could not be made or read.
public enum GzipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A compression level outside ``GzipCodec/levels``.
    case invalidLevel(Int)
    /// The data is not gzip (RFC 1952) or is damaged; zlib's reason, e.g. `"incorrect header check"`.
    case corrupt(String)
    /// The data ended inside a gzip member (or held none).
    case truncated
    /// The decompressed data would be longer than the limit given to ``GzipCodec/decompress(_:limit:)``.
    case tooLarge(limit: Int)
    /// zlib could not allocate its state.
    case outOfMemory

    /// What is wrong, in a phrase.
    public var description: String {
        switch self {
        case .invalidLevel(let level): "compression level \(level) is not in \(GzipCodec.levels.lowerBound)…\(GzipCodec.levels.upperBound)"
        case .corrupt(let reason): "the gzip data is damaged (\(reason))"
        case .truncated: "the gzip data ends before the end of its stream"
        case .tooLarge(let limit): "the gzip data decompresses to more than \(limit) bytes"
        case .outOfMemory: "zlib could not allocate its state"
        }
    }
}
