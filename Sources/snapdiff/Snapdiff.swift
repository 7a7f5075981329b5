import ArgumentParser
import DiffService

/// The `snapdiff` command: the HTTP service, and the same diff for scripts without a server.
@main
struct Snapdiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapdiff",
        abstract: "Diffs snapshots of sectioned lists into changesets UIKit, RecyclerView and the web can animate.",
        version: ServiceInfo.version,
        subcommands: [Serve.self, Diff.self, Healthcheck.self],
        defaultSubcommand: Serve.self
    )

    /// Runs the command; a first argument that is neither an option nor a subcommand is reported with the
    /// subcommands' names, where the argument parser would hand it to `serve` (the default) as a stray
    /// argument and print serve's usage.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let names = configuration.subcommands.map { $0._commandName }
        if let first = arguments.first, !first.hasPrefix("-"), first != "help", !names.contains(first) {
            exit(
                withError: ValidationError(
                    "unknown subcommand '\(first)'; the subcommands are \(names.joined(separator: ", ")) (serve when none is given)"))
        }
        main(arguments)
    }
}
