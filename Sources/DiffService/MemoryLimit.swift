import Foundation

/// The memory limit the process runs under: its cgroup's (a container's or a Kubernetes pod's limit), else
/// the machine's physical memory.
public enum MemoryLimit {
    /// The cgroup memory limit in bytes (v2 `memory.max`, or v1 `memory.limit_in_bytes`), or `nil` when there is
    /// none (`max`, or v1's "unlimited" near 2^63) or it cannot be read.
    public static func cgroupLimit() -> Int? {
        guard let membership = try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8) else { return nil }
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
            guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { continue }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if value == "max" { return nil }
            if let bytes = Int(value), bytes > 0 { return bytes < 1 << 60 ? bytes : nil }
        }
        return nil
    }

    /// The machine's physical memory in bytes.
    public static var physicalMemory: Int { Int(clamping: ProcessInfo.processInfo.physicalMemory) }

    /// The limit: the cgroup's, else physical memory.
    public static var current: Int { cgroupLimit() ?? physicalMemory }
}
