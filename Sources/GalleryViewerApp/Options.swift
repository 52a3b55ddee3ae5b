#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GalleryCore
import GObjectBindings

extension SourceKind: ExpressibleByArgument {}

/// The command line: `gallery-viewer [--source S] [--endpoint URL] [--list [--json] | --download DIR]
/// [USERNAME | LINK]`.
struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery-viewer",
        abstract: "Browse a user's public image gallery.",
        // The help stays in English (ArgumentParser builds it). One literal per line, not a multi-line
        // literal: `make pot` reads this file with xgettext, which does not know Swift's """.
        discussion: "Opens the window on USERNAME's gallery from the chosen source (default: the last one used),\n"
            + "or on the gallery a profile LINK names, whatever its service: https://www.deviantart.com/NAME,\n"
            + "https://SERVER/@NAME (Mastodon or Misskey: the server is asked which), @NAME@SERVER,\n"
            + "https://bsky.app/profile/HANDLE, at://HANDLE, https://commons.wikimedia.org/wiki/User:NAME.\n"
            + "With --list, prints the whole gallery instead, one line per item. With --download DIR, saves\n"
            + "every image at full size into DIR/SOURCE/USERNAME/; run it again to resume. --follow and\n"
            + "--unfollow change the followed galleries, --following prints them (exit status 74: their file\n"
            + "could not be read or written). --check checks them and prints the items found new (exit status\n"
            + "0: new items, 2: nothing new, 3: some gallery failed, 75: offline). --export-following and\n"
            + "--import-following write and read them as an OPML subscription list, the format of feed readers\n"
            + "(exit status 65: not a list the app can read, 66: the file could not be read, 73: it could not be\n"
            + "written).\n"
            + "A running window takes over a second launch: the search runs there.\n"
            + "GALLERY_VIEWER_ENDPOINT in the environment works like --endpoint; without --source, either\n"
            + "applies to every source, and the server of a /@NAME link is asked there.")

    @Option(help: "Where the gallery comes from: deviantart, mastodon, commons, bluesky, misskey or demo (a LINK says it itself).")
    var source: SourceKind?

    @Option(help: ArgumentHelp(
        "Replace the source's scheme://host[:port], e.g. http://127.0.0.1:8080 (mirrors, self-hosted servers, tests).",
        valueName: "URL"))
    var endpoint: String?

    @Flag(help: "Print the version and which protections image decoding runs under here, and exit.")
    var version = false

    @Flag(help: "Print the gallery (all pages) instead of opening a window.")
    var list = false

    @Flag(help: "With --list, --following or --check: one JSON object per line.")
    var json = false

    @Flag(help: "Follow the gallery of USERNAME or LINK (kept in $XDG_DATA_HOME/gallery-viewer), and exit.")
    var follow = false

    @Flag(help: "Stop following the gallery of USERNAME or LINK, and exit.")
    var unfollow = false

    @Flag(help: "Print the followed galleries, one line each, and exit.")
    var following = false

    @Flag(help: "Check every followed gallery, print the items found new, and exit.")
    var check = false

    @Option(help: ArgumentHelp(
        "Write the followed galleries as an OPML subscription list (for a feed reader) to FILE, - for standard output, and exit.",
        valueName: "FILE"))
    var exportFollowing: String?

    @Option(help: ArgumentHelp(
        "Follow the galleries an OPML subscription list names (from a feed reader or --export-following), - for standard input, and exit.",
        valueName: "FILE"))
    var importFollowing: String?

    @Option(help: ArgumentHelp(
        "Save every image at full size, video and sound into DIR/SOURCE/USERNAME/ instead of opening a window (run again to resume).",
        valueName: "DIR"))
    var download: String?

    @Flag(help: "With --download: images only, no videos or sounds.")
    var imagesOnly = false

    @Option(help: ArgumentHelp(
        "With --list or --download: read at most this many items of the gallery (default: 100000).", valueName: "N"))
    var maxItems: Int = CommandSession.defaultMaxItems

    @Argument(help: ArgumentHelp(
        "The user whose gallery to show (Mastodon, Misskey: user@server; Bluesky: a handle or DID), or a profile link.",
        valueName: "USERNAME | LINK"))
    var username: String?

    mutating func validate() throws {
        // TRANSLATORS: command-line errors: option names (--json…), USERNAME and addresses stay as they are.
        if json && !list && !following && !check {
            throw ValidationError(tr("--json only works with --list, --following or --check."))
        }
        if [list, download != nil, follow, unfollow, following, check, exportFollowing != nil, importFollowing != nil]
            .filter({ $0 }).count > 1 {
            throw ValidationError(tr("Only one of --list, --download, --follow, --unfollow, --following, --check, --export-following and --import-following at a time."))
        }
        if (exportFollowing ?? importFollowing) != nil {
            if username != nil { throw ValidationError(tr("--export-following and --import-following take no USERNAME.")) }
            if exportFollowing?.isEmpty == true || importFollowing?.isEmpty == true {
                throw ValidationError(tr("--export-following and --import-following need a FILE, or - for standard output or input."))
            }
        }
        if (follow || unfollow) && (username ?? "").trimmed.isEmpty {
            throw ValidationError(tr("--follow and --unfollow need a USERNAME or a profile LINK."))
        }
        if following && username != nil { throw ValidationError(tr("--following takes no USERNAME.")) }
        if check && username != nil { throw ValidationError(tr("--check takes no USERNAME.")) }
        if list && (username ?? "").isEmpty { throw ValidationError(tr("--list needs a USERNAME or a profile LINK.")) }
        if imagesOnly && download == nil { throw ValidationError(tr("--images-only only works with --download.")) }
        if let download {
            if download.isEmpty { throw ValidationError(tr("--download needs a folder, e.g. --download ~/Pictures.")) }
            if (username ?? "").trimmed.isEmpty { throw ValidationError(tr("--download needs a USERNAME or a profile LINK.")) }
        }
        if maxItems < 1 { throw ValidationError(tr("--max-items must be at least 1.")) }
        if let endpoint, !URLText.isWebAddress(endpoint) {
            throw ValidationError(tr("--endpoint must be an http:// or https:// address, like http://127.0.0.1:8080."))
        }
        // A typo here must not silently send the app to the real service instead.
        if endpoint == nil, let value = endpointOverride, !URLText.isWebAddress(value) {
            throw ValidationError(tr("GALLERY_VIEWER_ENDPOINT must be an http:// or https:// address, like http://127.0.0.1:8080, not “{value}”.",
                                     ["value": DisplayText.clean(value, limit: 100)]))
        }
    }

    /// The override from --endpoint, else from GALLERY_VIEWER_ENDPOINT.
    var endpointOverride: String? { endpointOverride(environment: Self.processEnvironment) }

    /// The same for a command line that came from another process (a second launch handed over to the
    /// running window), whose environment is not this process's. That process checked its own value when it
    /// parsed its arguments, before handing them over.
    func endpointOverride(environment: (String) -> String?) -> String? {
        if let endpoint { return endpoint }
        guard let value = environment("GALLERY_VIEWER_ENDPOINT"), !value.isEmpty else { return nil }
        return value
    }

    private static func processEnvironment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}
