extension HTTPServer {
    /// Where the server is in its one-way life.
    enum Lifecycle: Sendable {
        case idle
        case running(DaemonHandle, port: Int)
        case stopping(port: Int)
        case stopped
    }

    /// The `struct MHD_Daemon *` of a running server.
    ///
    /// `@unchecked Sendable`: an opaque handle that is only passed to libmicrohttpd functions that
    /// are safe to call from any thread while the daemon runs (`MHD_get_daemon_info`,
    /// `MHD_quiesce_daemon`), and to `MHD_stop_daemon` exactly once, by the one caller that moved
    /// the lifecycle out of `.running` under the mutex.
    struct DaemonHandle: @unchecked Sendable {
        let pointer: OpaquePointer
    }
}
