import DiffService
import MicroHTTP

#if canImport(Glibc)
import Glibc
#endif

/// The cursor codec of the fuzzed service: the README example's key (`SNAPDIFF_CURSOR_KEY`), so that the
/// corpus' cursors, the README's, open and their pages are laid out.
private let cursors = CursorCodec(secret: "readme-example-key-not-a-secret")

/// libFuzzer's entry point: feeds the bytes through `POST /diff` and `POST /layout` exactly as the HTTP
/// route does (JSON reading, validation, diff or layout, response writing) and checks
/// ``ResponseInvariants`` on both answers.
///
/// `/diff` is asked twice: once with the spare capacity the server reserves after a body (simdjson reads
/// it in place) and once without (the parser copies it into a padded buffer), the two paths a body takes;
/// and, when it answers 200, a third time with whitespace added inside some objects, which must not change
/// the answer (items are compared by their raw text first, by their canonical encoding when texts differ).
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

    if diff.status == 200 {
        // The same request with whitespace added after some `{`: the same meaning, so the same answer, while
        // items no longer repeat their copies byte for byte as they did (raw texts against canonical ones).
        var respacedBody = respaced(exact, seed: UInt64(size))
        respacedBody.reserveCapacity(respacedBody.count + 64)
        let again = DiffEndpoint.respond(to: respacedBody, cursors: cursors)
        precondition(again == diff, "/diff: the answer changes with whitespace inside objects (\(again.status))")
    }

    let layout = LayoutEndpoint.respond(to: padded, cursors: cursors)
    ResponseInvariants.check(layout, route: "/layout")
    return 0
}

/// `json` with a space after some `{` outside strings, chosen by `seed` (an LCG): valid JSON stays valid and
/// means the same. Strings are followed byte by byte (quotes, backslash escapes); invalid input is only copied.
func respaced(_ json: [UInt8], seed: UInt64) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(json.count * 2)
    var inString = false, escaped = false
    var state = seed | 1
    for byte in json {
        out.append(byte)
        if inString {
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
            }
        } else if byte == UInt8(ascii: "\"") {
            inString = true
        } else if byte == UInt8(ascii: "{") {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            if state >> 63 == 1 { out.append(UInt8(ascii: " ")) }
        }
    }
    return out
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
