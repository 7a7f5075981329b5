extension HTTPServer.Configuration {
    /// A numeric setting of the configuration, for validation and its errors.
    public enum Setting: String, Sendable, Hashable, CaseIterable {
        /// ``HTTPServer/Configuration/port``.
        case port
        /// ``HTTPServer/Configuration/threads``.
        case threads
        /// ``HTTPServer/Configuration/connectionLimit``.
        case connectionLimit
        /// ``HTTPServer/Configuration/perConnectionMemoryLimit``.
        case perConnectionMemoryLimit
        /// ``HTTPServer/Configuration/connectionTimeout``, in whole seconds.
        case connectionTimeout
        /// ``HTTPServer/Configuration/maxBodyBytes``.
        case maxBodyBytes
        /// ``HTTPServer/Configuration/reservedTrailingCapacity``.
        case reservedTrailingCapacity
        /// ``HTTPServer/Configuration/shutdownGracePeriod``, in whole seconds.
        case shutdownGracePeriod
        /// ``HTTPServer/Configuration/computeThreads``.
        case computeThreads
        /// ``HTTPServer/Configuration/computeQueueLimit``.
        case computeQueueLimit
        /// ``HTTPServer/Configuration/inlineBodyLimit``.
        case inlineBodyLimit
        /// The capacity of ``HTTPServer/Configuration/memoryBudget``, in bytes.
        case memoryBudget
        /// ``HTTPServer/Configuration/admissionTimeout``, in whole seconds.
        case admissionTimeout
        /// ``HTTPServer/Configuration/sendTimeout``, in whole seconds.
        case sendTimeout
        /// ``HTTPServer/Configuration/requestTimeout``, in whole seconds.
        case requestTimeout
        /// ``HTTPServer/Configuration/compressionLevel``.
        case compressionLevel
        /// ``HTTPServer/Configuration/compressionThreshold``.
        case compressionThreshold

        /// The values the setting allows; a duration's in whole seconds. The one statement of every range:
        /// ``HTTPServer/Configuration/validate()`` checks it, and services and command lines report it.
        public var allowed: ClosedRange<Int> {
            let c = Int(UInt32.max)  // what libmicrohttpd takes as an unsigned int
            switch self {
            case .port: return 0...65535
            case .threads, .connectionLimit: return 1...c
            case .perConnectionMemoryLimit: return 4096...Int.max
            case .connectionTimeout, .sendTimeout, .requestTimeout: return 1...c
            case .maxBodyBytes: return 1...(1 << 40)  // 1 TiB: a request's memory estimate stays far from overflow
            case .computeQueueLimit, .inlineBodyLimit, .compressionThreshold: return 0...Int.max
            case .compressionLevel: return 0...9  // 0: none; GzipCodec.levels otherwise
            case .reservedTrailingCapacity: return 0...4096
            case .shutdownGracePeriod, .admissionTimeout: return 0...Int.max
            case .computeThreads, .memoryBudget: return 1...Int.max
            }
        }
    }

    /// A setting's value; a duration's in whole seconds, rounded away from zero (so a negative one is below 0), and a
    /// budget's its capacity in bytes.
    /// - Parameter setting: The setting.
    public func value(of setting: Setting) -> Int {
        switch setting {
        case .port: port
        case .threads: threads
        case .connectionLimit: connectionLimit
        case .perConnectionMemoryLimit: perConnectionMemoryLimit
        case .connectionTimeout: Self.wholeSeconds(connectionTimeout)
        case .maxBodyBytes: maxBodyBytes
        case .reservedTrailingCapacity: reservedTrailingCapacity
        case .shutdownGracePeriod: Self.wholeSeconds(shutdownGracePeriod)
        case .computeThreads: computeThreads
        case .computeQueueLimit: computeQueueLimit
        case .inlineBodyLimit: inlineBodyLimit
        case .memoryBudget: memoryBudget.capacity
        case .admissionTimeout: Self.wholeSeconds(admissionTimeout)
        case .sendTimeout: Self.wholeSeconds(sendTimeout)
        case .requestTimeout: Self.wholeSeconds(requestTimeout)
        case .compressionLevel: compressionLevel
        case .compressionThreshold: compressionThreshold
        }
    }

    /// Checks every setting against its range (``Setting/allowed``); ``HTTPServer/start()`` calls it.
    /// - Throws: ``HTTPServerError/invalidConfiguration(_:allowed:)`` naming the first setting out of range.
    public func validate() throws(HTTPServerError) {
        for setting in Setting.allCases where !setting.allowed.contains(value(of: setting)) {
            throw .invalidConfiguration(setting, allowed: setting.allowed)
        }
    }
}
