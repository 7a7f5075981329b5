import ArgumentParser

/// The `snapdiff` command: the HTTP service, and the same diff for scripts without a server.
@main
struct Snapdiff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapdiff",
        abstract: "Diffs snapshots of sectioned lists into changesets UIKit, RecyclerView and the web can animate.",
        subcommands: [Serve.self, Diff.self, Healthcheck.self],
        defaultSubcommand: Serve.self
    )
}
