import DiffService
import MicroHTTP

#if canImport(Glibc)
import Glibc
#endif

/// The cursor codec of the fuzzed service: the default key, so that cursors in the corpus stay valid.
private let cursors = CursorCodec()

/// libFuzzer's entry point: feeds the bytes through `POST /diff` and `POST /layout` exactly as the HTTP
/// route does (JSON reading, validation, diff or layout, response writing) and checks
/// ``ResponseInvariants`` on both answers.
///
/// `/diff` is asked twice: once with the spare capacity the server reserves after a body (simdjson reads
/// it in place) and once without (the parser copies it into a padded buffer), the two paths a body takes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let exact = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    var padded = exact
    padded.reserveCapacity(size + 64)

    let diff = DiffEndpoint.respond(to: padded, cursors: cursors)
    ResponseInvariants.check(diff, route: "/diff")
    let unpadded = DiffEndpoint.respond(to: exact, cursors: cursors)
    precondition(
        unpadded == diff, "/diff: the answer depends on the body's spare capacity (\(diff.status) vs \(unpadded.status))")

    let layout = LayoutEndpoint.respond(to: padded, cursors: cursors)
    ResponseInvariants.check(layout, route: "/layout")
    return 0
}

/// libFuzzer's driver (compiler-rt), which parses the command line and calls `callback` once per input.
@_extern(c, "LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// The executable's entry point: hands the command line to libFuzzer's driver. (SwiftPM renames an
/// executable's `main`, so libFuzzer's own `main` is not used; `LLVMFuzzerRunDriver` is its API for that.)
@main
enum SnapdiffFuzz {
    static func main() {
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzOneInput))
    }
}
