import GObjectBindings

/// DeviantArt: the public Media RSS feed of a user's gallery.
enum DeviantArtService {
    static let descriptor = ServiceDescriptor(
        kind: .deviantArt,
        displayName: { "DeviantArt" },
        usernamePlaceholder: { tr("DeviantArt username") },
        linkHosts: ["deviantart.com"], linkSubdomains: true,
        profileLinkExample: "https://www.deviantart.com/NAME",
        readLink: { host, _, segments in ProfileLink.deviantArt(host: host, segments) },
        paging: .feedNextLink, usernameMatching: .ignoringCase, features: [.sensitiveFlags],
        makeSource: { username, endpoint throws(GalleryError) in
            try DeviantArtSource(username: username, endpointOverride: endpoint, kind: .deviantArt)
        },
        demoUsername: { $0 },
        fuzzTarget: "FuzzMediaRSS", fixtureFolder: "deviantart")
}
