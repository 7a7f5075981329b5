import Foundation

/// Facts about the machine and the process, read from /proc.
enum Machine {
    /// The CPU model name from /proc/cpuinfo.
    static var cpuModel: String {
        let info = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
        let line = info.split(separator: "\n").first { $0.hasPrefix("model name") }
        return line.map { String($0.split(separator: ":", maxSplits: 1).last ?? "").trimmingCharacters(in: .whitespaces) }
            ?? "unknown CPU"
    }

    /// The process's peak resident set (VmHWM), in megabytes.
    static var peakResidentMegabytes: Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmHWM:") } ?? ""
        let kilobytes = Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
        return kilobytes / 1024
    }
}
