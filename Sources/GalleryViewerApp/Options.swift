#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GalleryCore

extension SourceKind: ExpressibleByArgument {}

/// The command line: `gallery-viewer [--source S] [--endpoint URL] [--list [--json]] [USERNAME]`.
struct Options: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery-viewer",
        abstract: "Browse a user's public image gallery.",
        discussion: """
            Opens the window on USERNAME's gallery from the chosen source (default: the last one used).
            With --list, prints the whole gallery instead, one line per item.
            GALLERY_VIEWER_ENDPOINT in the environment works like --endpoint.
            """)

    @Option(help: "Where the gallery comes from: deviantart, mastodon, commons or demo.")
    var source: SourceKind?

    @Option(help: ArgumentHelp(
        "Replace the source's scheme://host[:port], e.g. http://127.0.0.1:8080 (mirrors, self-hosted servers, tests).",
        valueName: "URL"))
    var endpoint: String?

    @Flag(help: "Print the gallery (all pages) instead of opening a window.")
    var list = false

    @Flag(help: "With --list: one JSON object per line.")
    var json = false

    @Argument(help: "The user whose gallery to show (Mastodon: user@instance).")
    var username: String?

    mutating func validate() throws {
        if json && !list { throw ValidationError("--json only works with --list.") }
        if list && (username ?? "").isEmpty { throw ValidationError("--list needs a USERNAME.") }
        if let endpoint, !URLText.isWebAddress(endpoint) {
            throw ValidationError("--endpoint must be an http:// or https:// address, like http://127.0.0.1:8080.")
        }
        // A typo here must not silently send the app to the real service instead.
        if endpoint == nil, let value = Self.environmentEndpoint, !URLText.isWebAddress(value) {
            throw ValidationError("GALLERY_VIEWER_ENDPOINT must be an http:// or https:// address, like "
                                  + "http://127.0.0.1:8080, not “\(DisplayText.clean(value, limit: 100))”.")
        }
    }

    /// The override from --endpoint, else from GALLERY_VIEWER_ENDPOINT.
    var endpointOverride: String? { endpoint ?? Self.environmentEndpoint }

    /// GALLERY_VIEWER_ENDPOINT, when set and not empty.
    private static var environmentEndpoint: String? {
        guard let value = getenv("GALLERY_VIEWER_ENDPOINT").map({ String(cString: $0) }), !value.isEmpty else {
            return nil
        }
        return value
    }
}
