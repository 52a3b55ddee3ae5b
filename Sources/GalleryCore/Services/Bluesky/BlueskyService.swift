import GObjectBindings

/// Bluesky: an account's author feed through the public AppView.
enum BlueskyService {
    static let descriptor = ServiceDescriptor(
        kind: .bluesky,
        displayName: { "Bluesky" },
        // TRANSLATORS: the form of a Bluesky handle, shown in the empty username entry.
        usernamePlaceholder: { tr("handle.bsky.social") },
        linkHosts: ["bsky.app", "www.bsky.app", "staging.bsky.app"],
        profileLinkExample: "https://bsky.app/profile/HANDLE",
        readLink: { _, _, segments in ProfileLink.blueskyProfile(segments) },
        paging: .cursor, usernameMatching: .handleOrDID, features: [.altText, .video, .sensitiveFlags],
        makeSource: { username, endpoint throws(GalleryError) in
            try BlueskySource(actor: username, endpointOverride: endpoint)
        },
        demoUsername: { "\($0).\(DemoDomain.name)" },
        fuzzTarget: "FuzzBlueskyJSON", fixtureFolder: "bluesky")
}
