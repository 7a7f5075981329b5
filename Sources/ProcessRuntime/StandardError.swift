#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes whole lines to standard error with one `write(2)` each, so that lines logged by different worker
/// threads never interleave (a pipe keeps writes of up to 4 KiB whole) and nothing is buffered at exit.
public enum StandardError {
    /// Writes `line` followed by a newline.
    ///
    /// - Parameter line: The bytes of one line, without its newline.
    public static func writeLine(_ line: [UInt8]) {
        var bytes = line
        bytes.append(UInt8(ascii: "\n"))
        writeLines(bytes)
    }

    /// Writes `bytes` as they are (whole lines, each with its newline), without copying them.
    ///
    /// - Parameter bytes: The bytes to write.
    public static func writeLines(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(STDERR_FILENO, buffer.baseAddress! + offset, buffer.count - offset)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return  // standard error is gone: nothing sensible to do
                }
            }
        }
    }
}
