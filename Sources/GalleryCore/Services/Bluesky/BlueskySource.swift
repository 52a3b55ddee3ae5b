import GObjectBindings

/// A Bluesky account's media, read from the public AppView without signing in:
/// 1. `GET /xrpc/app.bsky.actor.getProfile?actor=HANDLE` → the account's DID and labels (stage "profile",
///    no items); an account labelled `!no-unauthenticated` ends here with a message;
/// 2. the DID's document (`BlueskyIdentity`, stage "identity", no items) → the account's PDS, where its
///    videos' files are; a lookup the gallery does without (the videos then open the post in the browser)
///    when it fails or is slow (`PageRequest.fallback`);
/// 3. `GET /xrpc/app.bsky.feed.getAuthorFeed?actor=DID&filter=posts_with_media&limit=50`, paged by `cursor`
///    until a reply has no cursor or no posts; each page request carries the PDS (`PageRequest.context`).
/// Every image of a post (images, gallery, the media of a quote) is one item, a video one item played from
/// its original on the PDS; reposts and quoted posts are someone else's and left out. See `BlueskyItems`.
/// A followed gallery's check starts at 3 with the DID and PDS earlier lookups gave (`firstRequest(resolved:)`);
/// an answer that the DID's account is not there, or whose posts are by another handle than the one followed
/// (the handle moved to another account), looks the account up again.
public struct BlueskySource: GallerySource {
    public enum Stage {
        public static let profile = "profile"
        public static let feed = "feed"
        /// The first page of the feed asked for by a remembered DID.
        public static let resolvedFeed = "feed-resolved"
    }

    public let kind = SourceKind.bluesky
    /// The handle (lower-cased) or DID, as shown in messages.
    public let username: String
    public let endpoint: Endpoint
    /// The override of every server the source asks (the DID document's too), for tests and the demo.
    private let endpointOverride: String?

    static let service = SourceKind.bluesky.displayName
    static let headers = ["Accept": "application/json"]
    /// Posts per page: half the lexicon's maximum, like the official app's profile media tab.
    static let pageSize = 50
    /// Real cursors are a timestamp or a short token; a longer one is not a cursor.
    static let maxCursorBytes = 1024

    public init(actor: String, endpointOverride: String?) throws(GalleryError) {
        username = try BlueskyActor.validate(actor)
        endpoint = Endpoint(canonical: "https://public.api.bsky.app", override: endpointOverride)
        self.endpointOverride = endpointOverride
    }

    public func firstRequest() -> PageRequest {
        PageRequest(url: endpoint.url("/xrpc/app.bsky.actor.getProfile?actor=\(URLText.encodeComponent(username))"),
                    stage: Stage.profile, headers: Self.headers)
    }

    /// The feed by the remembered DID, its videos played from the remembered PDS. A resolution without a PDS
    /// one can play from (its DID document could not be read, or was slow) is incomplete, not used: the lookup
    /// runs again, rather than the gallery's videos opening the post for as long as the DID holds.
    public func firstRequest(resolved resolution: SourceResolution) -> PageRequest? {
        let did = resolution.accountID
        guard did.hasPrefix("did:"), (try? BlueskyActor.validate(did)) == did,
              !username.hasPrefix("did:") || did == username,
              let pds = resolution.context, URLText.origin(of: pds) == pds,
              pds.hasPrefix("https://") || endpoint.origin.hasPrefix("http://") && pds.hasPrefix("http://") else { return nil }
        return feedRequest(did: did, cursor: nil, pds: pds, stage: Stage.resolvedFeed)
    }

    public func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        if request.stage == BlueskyIdentity.stage {
            // Whatever the answer, the gallery goes on; without a PDS its videos open the post.
            let did = request.context ?? ""
            let pds = response.head.isSuccess ? BlueskyIdentity.personalDataServer(
                in: response.body, did: did, allowsHTTP: endpoint.origin.hasPrefix("http://")) : nil
            return PageResult(items: [], next: feedRequest(did: did, cursor: nil, pds: pds),
                              resolution: did.isEmpty ? nil : SourceResolution(accountID: did, context: pds))
        }
        if request.stage == Stage.resolvedFeed, isGone(response) { return .staleResolution }
        try check(response)
        if request.stage == Stage.profile {
            let profile = try BlueskyJSON.decode(BlueskyJSON.Profile.self, from: response.body, document: tr("Profile"))
            // getProfile's profileViewDetailed carries the owner's name and avatar, as the feed's author does.
            return PageResult(items: [], next: try identityRequest(profile: profile),
                              profile: .fromReply(displayName: profile.displayName, avatar: profile.avatar, endpoint: endpoint),
                              resolution: SourceResolution(accountID: profile.did))
        }
        // The feed was asked for by DID, the one every own post's author has.
        let did = URLText.queryValue("actor", in: request.url) ?? ""
        let page = try BlueskyItems.page(from: response.body, did: did, username: username, baseURL: response.head.url,
                                         pds: request.context)
        if request.stage == Stage.resolvedFeed, !username.hasPrefix("did:"),
           let handle = page.ownHandle, handle.lowercased() != username {
            return .staleResolution
        }
        guard let cursor = page.cursor, !cursor.isEmpty, page.postCount > 0 else {
            return PageResult(items: page.items, next: nil)
        }
        guard cursor.utf8.count <= Self.maxCursorBytes else {
            throw .malformedResponse(service: Self.service, detail: tr("The server sent a page marker the app cannot use."))
        }
        return PageResult(items: page.items, next: feedRequest(did: did, cursor: cursor, pds: request.context))
    }

    /// An answer to a feed asked for by a remembered DID that says the account is not there (any more).
    private func isGone(_ response: HTTPResponse) -> Bool {
        guard response.head.status == 400 || response.head.status == 404 || response.head.status == 410 else { return false }
        guard let reply = try? JSONDecoding.decode(BlueskyJSON.ErrorReply.self, from: response.body, service: Self.service, document: "")
        else { return response.head.status == 410 }
        let notFound = reply.message?.lowercased().contains("not found") ?? false
        switch reply.error {
        case "InvalidRequest": return notFound
        case "NotFound", "ProfileNotFound", "AccountDeactivated", "AccountTakedown": return true
        default: return false
        }
    }

    // MARK: - Requests

    private func identityRequest(profile: BlueskyJSON.Profile) throws(GalleryError) -> PageRequest {
        if BlueskyLabels.values(of: profile.labels).contains(BlueskyLabels.noUnauthenticated) {
            throw .onlyForSignedInViewers(service: Self.service, username: username)
        }
        // The DID goes into the next URL: only one that is a DID by the spec's syntax.
        guard profile.did.hasPrefix("did:"), (try? BlueskyActor.validate(profile.did)) != nil else {
            throw .malformedResponse(service: Self.service, detail: tr("The server sent an account id the app cannot use."))
        }
        let feed = feedRequest(did: profile.did, cursor: nil, pds: nil)
        guard let document = BlueskyIdentity.documentURL(of: profile.did, endpointOverride: endpointOverride) else { return feed }
        return PageRequest(url: document, stage: BlueskyIdentity.stage, headers: Self.headers, context: profile.did, fallback: feed)
    }

    private func feedRequest(did: String, cursor: String?, pds: String?, stage: String = Stage.feed) -> PageRequest {
        var query = "actor=\(URLText.encodeComponent(did))&filter=posts_with_media&limit=\(Self.pageSize)"
        if let cursor { query += "&cursor=\(URLText.encodeComponent(cursor))" }
        return PageRequest(url: endpoint.url("/xrpc/app.bsky.feed.getAuthorFeed?\(query)"), stage: stage,
                           headers: Self.headers, context: pds)
    }

    // MARK: - Errors

    /// XRPC errors come as 400 with a name (`InvalidRequest`, `AccountDeactivated`…) and a message; a 404 is
    /// a method the server does not have, not a missing user.
    private func check(_ response: HTTPResponse) throws(GalleryError) {
        let head = response.head
        guard !head.isSuccess else { return }
        let reply = (head.status == 400 || head.status == 401 || head.status == 404)
            ? try? JSONDecoding.decode(BlueskyJSON.ErrorReply.self, from: response.body, service: Self.service, document: "")
            : nil
        let notFound = reply?.message?.lowercased().contains("not found") ?? false
        switch reply?.error {
        case "AccountDeactivated":
            throw .accountUnavailable(service: Self.service, username: username,
                                      reason: tr("The account is deactivated."))
        case "AccountTakedown":
            throw .accountUnavailable(service: Self.service, username: username, reason: tr("The account is suspended."))
        case "InvalidRequest" where notFound, "NotFound", "ProfileNotFound":
            throw .noSuchUser(service: Self.service, username: username)
        case "AuthMissing", "AuthRequired":
            throw .signInRequired(service: Self.service)
        default:
            break
        }
        if head.status == 404 {
            throw .malformedResponse(service: Self.service,
                                     detail: tr("The server does not answer Bluesky’s requests (HTTP 404). Is this a Bluesky AppView?"))
        }
        try ResponseStatus.check(head, service: Self.service, username: username)
    }
}

/// The label values that matter to a gallery (`com.atproto.label.defs#labelValue`).
enum BlueskyLabels {
    static let noUnauthenticated = "!no-unauthenticated"
    /// Shown behind the sensitive-content placeholder: the adult and graphic values, and `!warn`.
    static let sensitive: Set<String> = ["porn", "sexual", "nudity", "graphic-media", "!warn"]
    /// Not shown at all.
    static let hide = "!hide"

    /// The values that apply: a negation (`neg`) takes the same value back.
    static func values(of labels: CappedList<Lenient<BlueskyJSON.Label>>) -> Set<String> {
        var applied = Set<String>()
        var negated = Set<String>()
        for label in labels.compactMap(\.value) {
            // Real values are short ASCII words; a huge one is not worth a copy.
            guard label.val.utf8.count <= 128 else { continue }
            if label.neg { negated.insert(label.val) } else { applied.insert(label.val) }
        }
        return applied.subtracting(negated)
    }
}
