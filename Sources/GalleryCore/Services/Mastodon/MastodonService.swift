import GObjectBindings

/// Mastodon and the servers that implement its client API.
enum MastodonService {
    static let descriptor = ServiceDescriptor(
        kind: .mastodon,
        displayName: { "Mastodon" },
        // TRANSLATORS: the form of a Mastodon address, shown in the empty username entry.
        usernamePlaceholder: { tr("user@instance") },
        paging: .linkHeader, usernameMatching: .ignoringCase,
        features: [.altText, .video, .sensitiveFlags, .fediverseAddresses],
        serverSoftware: ServerSoftware.mastodonAPI,
        makeSource: { username, endpoint throws(GalleryError) in
            try MastodonSource(account: username, endpointOverride: endpoint)
        },
        demoUsername: { ProfileLink.address($0, DemoDomain.name) },
        fuzzTarget: "FuzzMastodonJSON", fixtureFolder: "mastodon")
}
