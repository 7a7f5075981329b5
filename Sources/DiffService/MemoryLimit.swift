#if canImport(Glibc)
import Glibc
#endif

/// The memory limit the process runs under: its cgroup's (a container's or a Kubernetes pod's limit), else
/// the machine's physical memory.
public enum MemoryLimit {
    /// The cgroup memory limit in bytes (v2 `memory.max`, or v1 `memory.limit_in_bytes`), or `nil` when there is
    /// none (`max`, or v1's "unlimited" near 2^63) or it cannot be read.
    public static func cgroupLimit() -> Int? {
        guard let membership = readFile("/proc/self/cgroup") else { return nil }
        var candidates: [String] = []
        for line in membership.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            let path = fields[2] == "/" ? "" : String(fields[2])
            if fields[0] == "0" && fields[1].isEmpty {
                candidates += ["/sys/fs/cgroup\(path)/memory.max", "/sys/fs/cgroup/memory.max"]
            } else if fields[1].split(separator: ",").contains("memory") {
                candidates += [
                    "/sys/fs/cgroup/memory\(path)/memory.limit_in_bytes", "/sys/fs/cgroup/memory/memory.limit_in_bytes",
                ]
            }
        }
        for file in candidates {
            guard let text = readFile(file) else { continue }
            let value = text.trimmingSpaces
            if value == "max" { return nil }
            if let bytes = Int(value), bytes > 0 { return bytes < 1 << 60 ? bytes : nil }
        }
        return nil
    }

    /// The machine's physical memory in bytes.
    public static var physicalMemory: Int {
        Int(sysconf(Int32(_SC_PHYS_PAGES))) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// The limit: the cgroup's, else physical memory.
    public static var current: Int { cgroupLimit() ?? physicalMemory }

    private static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20 {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension String {
    /// The string without leading and trailing spaces, tabs and newlines.
    fileprivate var trimmingSpaces: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[first...last])
    }
}
