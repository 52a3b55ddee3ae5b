import GObjectBindings

/// Wikimedia Commons: a user's uploads through the MediaWiki Action API.
enum CommonsService {
    static let descriptor = ServiceDescriptor(
        kind: .commons,
        displayName: { "Wikimedia Commons" },
        usernamePlaceholder: { tr("Commons username") },
        linkHosts: ["commons.wikimedia.org", "commons.m.wikimedia.org"],
        profileLinkExample: "https://commons.wikimedia.org/wiki/User:NAME",
        readLink: { _, components, segments in ProfileLink.commons(components, segments) },
        paging: .continuation, usernameMatching: .exact, features: [.altText, .video],
        makeSource: { username, endpoint throws(GalleryError) in
            try CommonsSource(username: username, endpointOverride: endpoint)
        },
        // MediaWiki capitalises the first letter; the source does too.
        demoUsername: { $0.prefix(1).uppercased() + $0.dropFirst() },
        fuzzTarget: "FuzzCommonsJSON", fixtureFolder: "commons")
}
