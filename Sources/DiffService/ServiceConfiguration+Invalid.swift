import MicroHTTP

extension ServiceConfiguration {
    /// A configuration that cannot work, with what a command line or a log needs to say why.
    public enum Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        /// A setting whose value is out of its allowed range (a duration's in whole seconds).
        case outOfRange(Setting, value: Int, allowed: ClosedRange<Int>)
        /// Cursor secret `position` (from 1) of `count` has `length` characters, fewer than
        /// ``ServiceConfiguration/minimumCursorSecretLength``.
        case cursorSecretTooShort(position: Int, count: Int, length: Int)
        /// An entry of the CORS origin list (``ServiceConfiguration/cors``) is not an origin a browser sends.
        case invalidCORSOrigin(String, CORSPolicy.OriginDefect)
        /// The memory budget cannot hold the largest request the body limit allows (`largestRequest` bytes at its
        /// peak); `largestBody` is the largest body limit it can hold.
        case budgetTooSmall(budget: Int, maxBodyBytes: Int, largestRequest: Int, largestBody: Int)
        /// The probe port (``ServiceConfiguration/probePort``) is not a port, or is the service's own `port`.
        case invalidProbePort(Int, port: Int)

        /// What is wrong, in a sentence, with the settings under their Swift names.
        public var description: String {
            switch self {
            case .outOfRange(let setting, let value, let allowed):
                "\(setting) \(value) is not in \(allowed.lowerBound)…\(allowed.upperBound)"
            case .cursorSecretTooShort(let position, let count, let length):
                "cursor key \(position) of \(count) has \(length) characters; each needs at least "
                    + "\(ServiceConfiguration.minimumCursorSecretLength) (they key the layout cursors' HMAC)"
            case .invalidCORSOrigin(let origin, let defect):
                "the CORS origin \"\(origin)\" \(defect)"
            case .budgetTooSmall(let budget, let maxBodyBytes, let largestRequest, let largestBody):
                "a memory budget of \(budget) bytes cannot hold the largest request the body limit of "
                    + "\(maxBodyBytes) bytes allows (\(largestRequest) bytes at its peak); raise the budget to at least "
                    + "\(largestRequest) or lower the body limit to at most \(largestBody) bytes"
            case .invalidProbePort(let probePort, let port):
                probePort == port
                    ? "probePort \(probePort) is the service's port; the probes need a port of their own"
                    : "probePort \(probePort) is not in 0…65535"
            }
        }
    }
}
