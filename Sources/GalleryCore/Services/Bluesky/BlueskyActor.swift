import GObjectBindings

/// Who a Bluesky gallery belongs to, as typed: a handle ("alice.bsky.social", a domain name) or a DID
/// ("did:plc:…", "did:web:…"), checked by the AT Protocol's syntax rules (atproto.com/specs/handle,
/// /specs/did) before anything is sent.
enum BlueskyActor {
    /// The handle lower-cased (handles are case-insensitive), or the DID as typed; a leading "@" and spaces are
    /// dropped. Throws a message that says what to type.
    static func validate(_ text: String) throws(GalleryError) -> String {
        var actor = Substring(text.trimmed)
        if actor.hasPrefix("@") { actor = actor.dropFirst() }
        guard !actor.isEmpty else {
            // TRANSLATORS: alice.bsky.social is an example handle, did:plc:… a kind of identifier: keep them as they are.
            throw .invalidUsername(reason: tr("Type a Bluesky handle, like alice.bsky.social, or a did:plc:… identifier."))
        }
        if actor.lowercased().hasPrefix("did:") { return try validDID(String(actor)) }
        return try validHandle(String(actor))
    }

    /// "did:plc:" with 24 characters of base32, or "did:web:" with a host name (a port as "%3A"). The
    /// general DID syntax allows more methods, but the network resolves only these two.
    private static func validDID(_ did: String) throws(GalleryError) -> String {
        let parts = did.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        let invalid = GalleryError.invalidUsername(
            reason: tr("“{did}” is not a Bluesky identifier. Identifiers look like did:plc:ewvi7nxzyoun6zhxrhs64oiz.",
                       ["did": DisplayText.clean(did, limit: 100)]))
        guard parts.count == 3, parts[0] == "did" else { throw invalid }
        switch parts[1] {
        case "plc":
            guard parts[2].count == 24, parts[2].unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("2"..."7").contains($0) })
            else { throw invalid }
        case "web":
            let hostAndPort = parts[2].lowercased().split(separator: "%3a", omittingEmptySubsequences: false)
            guard hostAndPort.count <= 2, HostName.isValid(hostAndPort[0]),
                  hostAndPort.count == 1 || (1...5).contains(hostAndPort[1].count) && hostAndPort[1].allSatisfy({ $0.isASCII && $0.isNumber })
            else { throw invalid }
        default:
            throw .invalidUsername(reason: tr("Bluesky identifiers start with did:plc: or did:web:."))
        }
        return did
    }

    /// A domain name of at least two labels whose last label does not start with a digit.
    private static func validHandle(_ text: String) throws(GalleryError) -> String {
        let handle = text.lowercased()
        guard handle.unicodeScalars.allSatisfy(\.isASCII) else {
            throw .invalidUsername(reason: tr("Type the handle in its ASCII form (xn--…), like alice.bsky.social."))
        }
        guard handle.contains(".") else {
            let suggestion = HostName.isLabel(Substring(handle)) ? "\(handle).bsky.social" : "alice.bsky.social"
            throw .invalidUsername(reason: tr("A Bluesky handle is a domain name. Type the full handle, like {handle}.",
                                              ["handle": suggestion]))
        }
        let lastLabel = handle.split(separator: ".", omittingEmptySubsequences: false).last ?? ""
        guard HostName.isValid(Substring(handle)), let first = lastLabel.first, !first.isNumber else {
            throw .invalidUsername(reason: tr("“{handle}” is not a Bluesky handle. Handles look like alice.bsky.social.",
                                              ["handle": DisplayText.clean(String(text.prefix(100)))]))
        }
        return handle
    }
}
