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

    @Flag(help: "Keep the first occurrence of a repeated id instead of rejecting the snapshots.")
    var keepFirst = false

    @Flag(help: "Pretty-print the output.")
    var pretty = false

    func validate() throws {
        if request != nil {
            guard snapshots.isEmpty else { throw ValidationError("give either --request or two snapshot files, not both") }
            guard !staged && !sequential && !keepFirst && !pretty else {
                throw ValidationError("with --request, options belong in the request's \"options\"")
            }
        } else if snapshots.count != 2 {
            throw ValidationError("give two snapshot files, OLD and NEW (or --request FILE)")
        }
    }

    func run() throws {
        let body: [UInt8]
        var oldLines = 0
        if let request {
            body = try read(request)
        } else {
            let old = try read(snapshots[0])
            let new = try read(snapshots[1])
            oldLines = old.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            var renderings: [String] = []
            if staged || !sequential { renderings.append("\"staged\"") }
            if sequential { renderings.append("\"sequential\"") }
            let options = "{\"renderings\":[\(renderings.joined(separator: ","))],\"duplicates\":\"\(keepFirst ? "keepFirst" : "reject")\",\"pretty\":\(pretty)}"
            // Each file starts on a line of its own, so that a syntax error's line maps back to the file.
            body = Array("{\"old\":\n".utf8) + old + Array("\n,\"new\":\n".utf8) + new + Array("\n,\"options\":\(options)}".utf8)
        }
        let response = DiffEndpoint.respond(to: body)
        FileHandle.standardOutput.write(Data(response.body))
        if !response.body.isEmpty && response.body.last != UInt8(ascii: "\n") {
            FileHandle.standardOutput.write(Data("\n".utf8))
        }
        guard response.status == 200 else {
            if let note = locationNote(response.body, oldLines: oldLines) {
                FileHandle.standardError.write(Data("snapdiff: \(note)\n".utf8))
            }
            throw ExitCode(1)
        }
    }

    private func read(_ path: String) throws -> [UInt8] {
        if path == "-" { return Array(FileHandle.standardInput.readDataToEndOfFile()) }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ValidationError("cannot read \(path)")
        }
        return Array(data)
    }

    /// The detail without its position in the composed request.
    private func message(_ detail: String) -> String {
        guard let range = detail.range(of: " at line ") else { return detail }
        return String(detail[..<range.lowerBound])
    }

    /// For a syntax error in OLD NEW mode, the file and line it is in.
    private func locationNote(_ problem: [UInt8], oldLines: Int) -> String? {
        guard
            let object = try? JSONSerialization.jsonObject(with: Data(problem)) as? [String: Any],
            let detail = object["detail"] as? String
        else { return nil }
        guard request == nil, let line = object["line"] as? Int, let column = object["column"] as? Int else {
            return detail
        }
        if line >= 2 && line <= 1 + oldLines { return "\(snapshots[0]) line \(line - 1), column \(column): \(message(detail))" }
        // Lines of the composed body: 1 `{"old":`, then OLD, then `,"new":`, then NEW.
        let newFirst = oldLines + 3
        let newLines = (try? read(snapshots[1]))?.reduce(1) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) } ?? 0
        if line >= newFirst && line < newFirst + newLines {
            return "\(snapshots[1]) line \(line - newFirst + 1), column \(column): \(message(detail))"
        }
        return detail
    }
}
