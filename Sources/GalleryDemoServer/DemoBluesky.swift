/// The demo users as a Bluesky AppView answers for them (`/xrpc/app.bsky.actor.getProfile`,
/// `/xrpc/app.bsky.feed.getAuthorFeed`), in the lexicons' shapes: handle `NAME.demo.test` (".test" is reserved
/// for testing, so no real account is named), a DID made from the name, images and gallery embeds, a video
/// post now and then, and a repost of another demo user's post that a client must leave out.
public enum DemoBluesky {
    public static let handleSuffix = ".demo.test"
    /// Bluesky's own moderation service, which labels adult content.
    static let moderationDID = "did:plc:ar7c4by46qjdydhdevvrndac"

    public static func handle(of user: String) -> String { user + handleSuffix }
    public static func did(of user: String) -> String { "did:plc:" + DemoPosts.word("did:" + user, length: 24) }

    /// The user an `actor` (handle or DID) names.
    static func user(forActor actor: String, in catalog: DemoCatalog) -> DemoUser? {
        let actor = actor.lowercased()
        if actor.hasSuffix(handleSuffix) { return catalog.user(named: String(actor.dropLast(handleSuffix.count))) }
        return catalog.users.first { did(of: $0.name) == actor }
    }

    static func notFound() -> ServerResponse {
        json(#"{"error":"InvalidRequest","message":"Profile not found"}"#, status: 400)
    }

    static func profile(_ user: DemoUser, baseURL: String) -> ServerResponse {
        let posts = DemoPosts.posts(of: user)
        let value: JSONValue = .object([
            ("did", .string(did(of: user.name))), ("handle", .string(handle(of: user.name))),
            ("displayName", .string(DemoPosts.displayName(user.name))), ("description", "An offline demo gallery."),
            ("avatar", .string(baseURL + user.avatarPath)), ("followersCount", 0), ("followsCount", 0),
            ("postsCount", .int(posts.count)), ("indexedAt", .string(RFC822Date.iso8601(secondsSince1970: DemoCatalog.newestDate))),
            ("createdAt", "2024-01-01T00:00:00.000Z"), ("labels", .array([])),
        ])
        return json(value.render())
    }

    /// The page of the feed starting at `cursor` (an entry offset), `limit` entries (1–100, as the lexicon).
    static func authorFeed(_ user: DemoUser, catalog: DemoCatalog, cursor: String?, limit: Int?, baseURL: String) -> ServerResponse {
        guard let offset = Int(cursor ?? "0"), offset >= 0 else {
            return json(#"{"error":"InvalidRequest","message":"Malformed cursor"}"#, status: 400)
        }
        let size = min(100, max(1, limit ?? 50))
        let entries = feedEntries(of: user, catalog: catalog)
        let page = entries.dropFirst(offset).prefix(size)
        var members: [(String, JSONValue)] = [("feed", .array(page.map { $0.render(baseURL: baseURL) }))]
        if offset + size < entries.count { members.append(("cursor", .string(String(offset + size)))) }
        let text = JSONValue.object(members).render()
        return DemoValidators.validated(json(user.feedIsBroken ? String(text.prefix(text.count / 2)) : text),
                                        newest: user.items.lazy.map(\.published).max())
    }

    // MARK: - Feed entries

    private struct Entry {
        let post: DemoPost
        let author: String
        /// Reposted by the feed's owner: not theirs.
        let repostedBy: String?

        func render(baseURL: String) -> JSONValue {
            var members: [(String, JSONValue)] = [("post", DemoBluesky.postView(post, author: author, baseURL: baseURL))]
            if let repostedBy {
                members.append(("reason", .object([
                    ("$type", "app.bsky.feed.defs#reasonRepost"),
                    ("by", .object([("did", .string(did(of: repostedBy))), ("handle", .string(handle(of: repostedBy)))])),
                    ("indexedAt", .string(RFC822Date.iso8601(secondsSince1970: post.published + 60))),
                ])))
            }
            return .object(members)
        }
    }

    /// The user's posts, with a repost of another demo user's post after every eighth.
    private static func feedEntries(of user: DemoUser, catalog: DemoCatalog) -> [Entry] {
        let other = catalog.users.first { $0.name != user.name && !$0.items.isEmpty }
        let otherPosts = other.map(DemoPosts.posts(of:)) ?? []
        var entries: [Entry] = []
        for post in DemoPosts.posts(of: user) {
            entries.append(Entry(post: post, author: user.name, repostedBy: nil))
            if post.index % 8 == 0, let other, !otherPosts.isEmpty {
                entries.append(Entry(post: otherPosts[(post.index / 8 - 1) % otherPosts.count], author: other.name,
                                     repostedBy: user.name))
            }
        }
        return entries
    }

    static func recordKey(of post: DemoPost) -> String { "3k" + DemoPosts.word("rkey:\(post.id)", length: 11) }
    static func cid(_ seed: String) -> String { "bafkrei" + DemoPosts.word("cid:" + seed, length: 52) }

    private static func postView(_ post: DemoPost, author: String, baseURL: String) -> JSONValue {
        let authorDID = did(of: author)
        let uri = "at://\(authorDID)/app.bsky.feed.post/\(recordKey(of: post))"
        let created = JSONValue.string(RFC822Date.iso8601(secondsSince1970: post.published))
        let labels: [JSONValue] = post.isAdult ? [.object([
            ("src", .string(moderationDID)), ("uri", .string(uri)), ("val", "sexual"), ("cts", created),
        ])] : []
        return .object([
            ("uri", .string(uri)), ("cid", .string(cid("post:\(post.id)"))),
            ("author", .object([("did", .string(authorDID)), ("handle", .string(handle(of: author))),
                                ("displayName", .string(DemoPosts.displayName(author))), ("avatar", .string(baseURL + "/avatars/\(author).png")),
                                ("labels", .array([]))])),
            ("record", .object([("$type", "app.bsky.feed.post"), ("createdAt", created), ("langs", .array(["en"])),
                                ("text", .string(post.isVideo ? "Timelapse: \(post.text)" : post.text))])),
            ("embed", embed(post, baseURL: baseURL, authorDID: authorDID)),
            ("replyCount", 0), ("repostCount", 0), ("likeCount", .int(post.index % 13)), ("quoteCount", 0),
            ("indexedAt", created), ("labels", .array(labels)),
        ])
    }

    /// A video for a video post, a gallery for three pictures (the 2026 embed), images otherwise.
    private static func embed(_ post: DemoPost, baseURL: String, authorDID: String) -> JSONValue {
        let ratio = { (item: DemoItem) in JSONValue.object([("width", .int(item.width)), ("height", .int(item.height))]) }
        if post.isVideo, let item = post.items.first {
            let videoCID = cid("video:\(item.id)")
            return .object([
                ("$type", "app.bsky.embed.video#view"), ("cid", .string(videoCID)),
                ("playlist", .string(baseURL + "/video/\(videoCID)/playlist.m3u8")),
                ("thumbnail", .string(baseURL + item.imagePath(thumbnailLongSide: 300))),
                ("alt", .string(item.altText ?? "")), ("aspectRatio", ratio(item)),
            ])
        }
        if post.items.count == 3 {
            return .object([("$type", "app.bsky.embed.gallery#view"), ("items", .array(post.items.map { item in
                .object([("$type", "app.bsky.embed.gallery#viewImage"),
                         ("thumbnail", .string(baseURL + item.imagePath(thumbnailLongSide: 300))),
                         ("fullsize", .string(baseURL + item.imagePath())), ("alt", .string(item.altText ?? "")),
                         ("aspectRatio", ratio(item))])
            }))])
        }
        return .object([("$type", "app.bsky.embed.images#view"), ("images", .array(post.items.map { item in
            .object([("thumb", .string(baseURL + item.imagePath(thumbnailLongSide: 300))),
                     ("fullsize", .string(baseURL + item.imagePath())), ("alt", .string(item.altText ?? "")),
                     ("aspectRatio", ratio(item))])
        }))])
    }

    /// The user's DID document, as the PLC directory serves it (`GET /DID`): its PDS is this server.
    static func didDocument(_ did: String, catalog: DemoCatalog, baseURL: String) -> ServerResponse {
        guard let user = catalog.users.first(where: { Self.did(of: $0.name) == did }) else {
            return .text(#"{"message":"DID not registered: \#(did)"}"#, status: 404, contentType: "application/json; charset=utf-8")
        }
        let value: JSONValue = .object([
            ("@context", .array(["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1",
                                 "https://w3id.org/security/suites/secp256k1-2019/v1"])),
            ("id", .string(did)), ("alsoKnownAs", .array([.string("at://" + handle(of: user.name))])),
            ("verificationMethod", .array([.object([
                ("id", .string(did + "#atproto")), ("type", "Multikey"), ("controller", .string(did)),
                ("publicKeyMultibase", .string("zQ3sh" + DemoPosts.word("key:" + did, length: 44))),
            ])])),
            ("service", .array([.object([
                ("id", "#atproto_pds"), ("type", "AtprotoPersonalDataServer"), ("serviceEndpoint", .string(baseURL)),
            ])])),
        ])
        return .text(value.render(), contentType: "application/did+ld+json")
    }

    /// Whether `cid` is one of `did`'s video blobs (`com.atproto.sync.getBlob`); the demo serves its clip for each.
    static func isVideoBlob(did: String, cid: String, catalog: DemoCatalog) -> Bool {
        guard let user = catalog.users.first(where: { Self.did(of: $0.name) == did }) else { return false }
        return DemoPosts.posts(of: user).contains { post in post.isVideo && post.items.first.map { Self.cid("video:\($0.id)") } == cid }
    }

    /// What `playlist` names: an HLS playlist without segments (the app never plays it: it plays the original).
    static func playlist() -> ServerResponse {
        .text("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-ENDLIST\n", contentType: "application/vnd.apple.mpegurl")
    }

    static func json(_ text: String, status: UInt32 = 200) -> ServerResponse {
        .text(text, status: status, contentType: "application/json; charset=utf-8")
    }
}
