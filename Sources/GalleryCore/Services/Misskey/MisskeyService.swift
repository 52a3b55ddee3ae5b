import GObjectBindings

/// Misskey and its forks.
enum MisskeyService {
    static let descriptor = ServiceDescriptor(
        kind: .misskey,
        displayName: { "Misskey" },
        // TRANSLATORS: the form of a Misskey address, shown in the empty username entry.
        usernamePlaceholder: { tr("user@server") },
        paging: .untilID, usernameMatching: .ignoringCase,
        features: [.altText, .video, .sensitiveFlags, .fediverseAddresses],
        serverSoftware: ServerSoftware.misskeyFamily,
        makeSource: { username, endpoint throws(GalleryError) in
            try MisskeySource(account: username, endpointOverride: endpoint)
        },
        demoUsername: { ProfileLink.address($0, DemoDomain.name) },
        fuzzTarget: "FuzzMisskeyJSON", fixtureFolder: "misskey")
}
