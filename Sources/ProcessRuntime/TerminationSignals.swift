#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Process-wide signal plumbing for a server executable: SIGTERM/SIGINT are received
/// synchronously with `sigwait` instead of by an asynchronous handler.
///
/// ```swift
/// TerminationSignals.block()          // first thing in main, before any thread exists
/// let server = HTTPServer(...); try server.start()
/// _ = TerminationSignals.wait()       // blocks until SIGTERM or SIGINT
/// server.shutdown()
/// ```
public enum TerminationSignals {
    /// Blocks SIGTERM and SIGINT in the calling thread and ignores SIGPIPE in the process.
    ///
    /// Call it on the main thread **before** starting the server or any other thread: threads
    /// inherit the mask, and a thread that does not block the signals would let them kill the process.
    public static func block() {
        var set = terminationSet()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits until SIGTERM or SIGINT arrives (they must have been blocked with ``block()``).
    /// - Returns: The signal number received.
    public static func wait() -> Int32 {
        var set = terminationSet()
        var received: Int32 = 0
        while true {
            let result = sigwait(&set, &received)
            if result == 0 { return received }
            if result != EINTR { return SIGTERM }
        }
    }

    /// {SIGTERM, SIGINT}.
    private static func terminationSet() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGINT)
        return set
    }
}
