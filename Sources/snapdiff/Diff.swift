import ArgumentParser
import DiffService
import Foundation

/// `snapdiff diff`: prints exactly what `POST /diff` would return, without a server.
struct Diff: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Diff two snapshot files (or a whole request) and print what POST /diff would return.",
        discussion: """
            snapdiff diff OLD.json NEW.json      each file a snapshot: {"sections": [...]} or {"items": [...]}
            snapdiff diff --request REQUEST.json a whole /diff request body; - reads standard input

            Exit status: 0 with the changeset on standard output; 1 with the problem+json on standard output \
            when the endpoint would answer an error (a note on standard error says where).
            """
    )

    @Argument(help: "The old and the new snapshot files.")
    var snapshots: [String] = []

    @Option(name: .long, help: "A whole request body file ({\"old\", \"new\", \"options\"}); - for standard input.")
    var request: String?

    @Flag(help: "Include the staged rendering (the default when no rendering is chosen).")
    var staged = false

    @Flag(help: "Include the sequential rendering.")
    var sequential = false

    @Flag(help: "Include the JSON Patch (RFC 6902) rendering.")
    var jsonPatch = false

    @Flag(help: "List the top-level members that differ in every updated item and section.")
    var changedMembers = false

    @Flag(help: "Include the ranges rendering (runs of removals, insertions and updates merged).")
    var ranges = false

    @Flag(help: "Name the section or item id beside every entry of the renderings.")
    var ids = false

    @Flag(help: "Keep the first occurrence of a repeated id instead of rejecting the snapshots.")
    var keepFirst = false

    @Flag(help: "Pretty-print the output.")
    var pretty = false

    func validate() throws {
        if request != nil {
            guard snapshots.isEmpty else { throw ValidationError("give either --request or two snapshot files, not both") }
            guard !staged && !sequential && !ranges && !jsonPatch && !ids && !changedMembers && !keepFirst && !pretty else {
                throw ValidationError("with --request, options belong in the request's \"options\"")
            }
        } else if snapshots.count != 2 {
            throw ValidationError("give two snapshot files, OLD and NEW (or --request FILE)")
        }
    }

    func run() throws {
        // The layout cursors it prints open on a server with the same SNAPDIFF_CURSOR_KEY.
        var cursors = CursorCodec()
        if let list = ProcessInfo.processInfo.environment["SNAPDIFF_CURSOR_KEY"] {
            do {
                cursors = CursorCodec(secrets: try ServiceConfiguration.cursorSecrets(parsing: list))
            } catch {
                throw ValidationError(error.description)
            }
        }
        let body: [UInt8]
        var files: [(path: String, bytes: [UInt8])] = []
        if let request {
            body = try read(request)
        } else {
            let old = try read(snapshots[0])
            let new = try read(snapshots[1])
            files = [(snapshots[0], old), (snapshots[1], new)]
            var renderings: [String] = []
            if staged || !(sequential || ranges || jsonPatch) { renderings.append("\"staged\"") }
            if sequential { renderings.append("\"sequential\"") }
            if ranges { renderings.append("\"ranges\"") }
            if jsonPatch { renderings.append("\"jsonPatch\"") }
            let options = "{\"renderings\":[\(renderings.joined(separator: ","))],\"duplicates\":\"\(keepFirst ? "keepFirst" : "reject")\","
                + "\"pretty\":\(pretty),\"ids\":\(ids),\"changedMembers\":\(changedMembers)}"
            body = Array("{\"old\":".utf8) + old + Array(",\"new\":".utf8) + new + Array(",\"options\":\(options)}".utf8)
        }
        let response = DiffEndpoint.respond(to: body, cursors: cursors)
        if response.status == 400 {
            // A file that is not JSON on its own is reported as it stands, so that the line and column are in
            // that file rather than in the request composed from both.
            for (path, bytes) in files {
                let alone = DiffEndpoint.respond(to: bytes, cursors: cursors)
                guard alone.status != 400 else { fail(alone.body, file: path) }
            }
        }
        guard response.status == 200 else { fail(response.body, file: request) }
        write(response.body)
    }

    /// Prints the problem, a note on standard error saying where (a file's line and column for a syntax
    /// error, or the problem's detail), and exits 1.
    private func fail(_ problem: [UInt8], file: String?) -> Never {
        write(problem)
        if let note = note(problem, file: file) { FileHandle.standardError.write(Data("snapdiff: \(note)\n".utf8)) }
        Diff.exit(withError: ExitCode(1))
    }

    /// Writes a body to standard output, ending it with a newline.
    private func write(_ body: [UInt8]) {
        FileHandle.standardOutput.write(Data(body))
        if !body.isEmpty && body.last != UInt8(ascii: "\n") {
            FileHandle.standardOutput.write(Data("\n".utf8))
        }
    }

    /// Reads a file, or `-` for standard input; a file that cannot be read ends the command with exit
    /// status 1 and the reason.
    private func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        do {
            // Through a FileHandle: Foundation's Data(contentsOf:) leaks a 4 KiB buffer when the file is empty
            // (HARDENING.md, "Sanitizers"), which LeakSanitizer reports for the empty-file note.
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return Array(try handle.readToEnd() ?? Data())
        } catch {
            let reason: String
            if let code = (error as? CocoaError)?.underlying.flatMap({ $0 as? POSIXError })?.code {
                reason = String(cString: strerror(code.rawValue))
            } else if let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? NSError, posix.domain == NSPOSIXErrorDomain {
                reason = String(cString: strerror(Int32(posix.code)))
            } else {
                reason = error.localizedDescription
            }
            FileHandle.standardError.write(Data("snapdiff: cannot read \(path): \(reason)\n".utf8))
            throw ExitCode(1)
        }
    }

    /// Where a problem is: `FILE line L, column C: message` for a syntax error in a file, `FILE is empty`
    /// for an empty one, else the problem's detail.
    private func note(_ problem: [UInt8], file: String?) -> String? {
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(problem)) as? [String: Any],
            let detail = object["detail"] as? String
        else { return nil }
        guard let file = file.map({ $0 == "-" ? "standard input" : $0 }) else { return detail }
        if (object["type"] as? String)?.hasSuffix(":empty-body") == true {
            return "\(file) is empty; expected a JSON object"
        }
        guard let line = object["line"] as? Int, let column = object["column"] as? Int else { return "\(file): \(detail)" }
        let message = detail.range(of: " at line ").map { String(detail[..<$0.lowerBound]) } ?? detail
        return "\(file) line \(line), column \(column): \(message)"
    }
}
