import GObjectBindings

/// The offline demo gallery: DeviantArt's feed, served by the embedded (or a separate) demo server.
enum DemoService {
    static let descriptor = ServiceDescriptor(
        kind: .demo,
        // TRANSLATORS: the built-in offline demo gallery, one of the sources next to DeviantArt and Mastodon.
        displayName: { tr("Demo") },
        // TRANSLATORS: aurora and atlas are usernames of the demo gallery: keep them as they are.
        usernamePlaceholder: { tr("Demo user (aurora, atlas…)") },
        paging: .feedNextLink, usernameMatching: .ignoringCase, features: [.altText, .sensitiveFlags],
        makeSource: { username, endpoint throws(GalleryError) in
            try DeviantArtSource(username: username, endpointOverride: endpoint, kind: .demo)
        },
        demoUsername: { $0 },
        // DeviantArt's parser and fuzz target.
        fuzzTarget: nil, fixtureFolder: nil)
}
