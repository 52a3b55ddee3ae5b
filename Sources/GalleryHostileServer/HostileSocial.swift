import GObjectBindings
import GalleryDemoServer

/// Hostile Bluesky and Misskey accounts: the same misbehaviour answered in both wire formats. Each case is a
/// Bluesky handle `NAME.hostile.test` (`/xrpc/…`) and a Misskey user `NAME@hostile.test` (`POST /api/…`).
public enum HostileSocialFeed: String, CaseIterable, Sendable {
    /// 10,000 posts of four images each in one reply (5–7 MB: under the page limit, so it is read).
    case manyPosts = "many-posts"
    /// The list of posts nested 100,000 arrays deep.
    case deepNesting = "deep-nesting"
    /// Media and post links with `javascript:`, `data:`, `file:`, `ftp:`, relative, protocol-relative and
    /// malformed URLs.
    case oddSchemes = "odd-schemes"
    /// Every reply one post that is not the user's (someone else's, a renote) and a new cursor, forever.
    case endlessCursor = "endless-cursor"
    /// One post of the user's and the same cursor (untilId) every time.
    case sameCursor = "same-cursor"
    /// A 3 MB post text and as much alt text.
    case hugeText = "huge-text"
    /// 429 forever, the reset "now".
    case rateLimited = "rate-limited"
    /// A web page instead of JSON.
    case html = "html"

    public var blueskyHandle: String { rawValue + ".hostile.test" }
    public var misskeyAccount: String { rawValue + "@hostile.test" }

    /// "did:plc:" and 24 letters of the name (a DID by the spec's syntax).
    var did: String {
        "did:plc:" + String((rawValue.filter(\.isLetter) + String(repeating: "z", count: 24)).prefix(24))
    }

    var misskeyUserID: String { "9h" + rawValue.filter { $0.isLetter } }

    /// The thumbnail and full URLs of the odd-scheme media: (thumbnail, full). The relative ones resolve
    /// against the reply and load; the others must become "Not a web address" rows.
    static func oddMedia(baseURL: String) -> [(String, String)] {
        let host = baseURL.dropFirst("http:".count)  // "//127.0.0.1:PORT"
        return [
            ("/img/valid?odd=relative", "/img/valid?odd=relative-full"),
            ("\(host)/img/valid?odd=protocol-relative", "\(host)/img/valid?odd=protocol-relative-full"),
            ("data:image/png;base64,iVBORw0KGgo=", "data:image/png;base64,iVBORw0KGgo="),
            ("javascript:alert(1)", "javascript:alert(2)"),
            ("ftp://127.0.0.1/image.png", "file:///etc/passwd"),
            ("http://[::1", "smb://fileserver/share/secret.png"),
        ]
    }
}

/// The documents of `HostileSocialFeed` in Bluesky's and Misskey's formats, and the server's answers.
@MainActor
enum HostileSocial {
    // MARK: - Bluesky

    static func xrpc(method: String, query: [String: String], baseURL: String) -> ServerResponse {
        let actor = query["actor"] ?? ""
        guard let feed = HostileSocialFeed.allCases.first(where: { $0.blueskyHandle == actor || $0.did == actor }) else {
            return json(#"{"error":"InvalidRequest","message":"Profile not found"}"#, status: 400)
        }
        if let refusal = refusal(feed) { return refusal }
        switch method {
        case "app.bsky.actor.getProfile":
            return json(JSONValue.object([("did", .string(feed.did)), ("handle", .string(feed.blueskyHandle))]).render())
        case "app.bsky.feed.getAuthorFeed":
            return json(blueskyFeed(feed, cursor: Int(query["cursor"] ?? "0") ?? 0, baseURL: baseURL))
        default:
            return json(#"{"error":"MethodNotImplemented"}"#, status: 501)
        }
    }

    private static func blueskyFeed(_ feed: HostileSocialFeed, cursor: Int, baseURL: String) -> String {
        let post = { (uri: String, author: String, text: String, images: [(String, String, String)]) -> JSONValue in
            .object([("post", .object([
                ("uri", .string(uri)), ("author", .object([("did", .string(author)), ("handle", .string(feed.blueskyHandle))])),
                ("record", .object([("text", .string(text))])),
                ("embed", .object([("$type", "app.bsky.embed.images#view"), ("images", .array(images.map { thumb, full, alt in
                    .object([("thumb", .string(thumb)), ("fullsize", .string(full)), ("alt", .string(alt))])
                }))])),
            ]))])
        }
        let own = { (key: String) in "at://\(feed.did)/app.bsky.feed.post/\(key)" }
        switch feed {
        case .manyPosts:
            return cached("bluesky-many") {
                // Each image its own URL: the window shows one row per URL.
                let posts = (0..<10_000).map { index in
                    post(own("3k\(index)"), feed.did, "many", (0..<4).map { ("/img/valid?n=\(index)-\($0)", "/img/valid?n=\(index)-\($0)", "") })
                        .render()
                }
                return "{\"feed\":[" + posts.joined(separator: ",") + "]}"
            }
        case .deepNesting:
            return "{\"feed\":" + nested(100_000) + "}"
        case .oddSchemes:
            let media = HostileSocialFeed.oddMedia(baseURL: baseURL)
            let posts = [post(own("3kodd1"), feed.did, "Odd schemes", media.map { ($0.0, $0.1, "odd") }),
                         post("javascript:alert(1)", feed.did, "An odd post link", [("/img/valid", "/img/valid", "")])]
            return JSONValue.object([("feed", .array(posts))]).render()
        case .endlessCursor:
            let someoneElse = post("at://did:plc:someoneelsezzzzzzzzzzzzz/app.bsky.feed.post/3k\(cursor)",
                                   "did:plc:someoneelsezzzzzzzzzzzzz", "not mine", [("/img/valid", "/img/valid", "")])
            return JSONValue.object([("feed", .array([someoneElse])), ("cursor", .string(String(cursor + 1)))]).render()
        case .sameCursor:
            return JSONValue.object([("feed", .array([post(own("3ksame"), feed.did, "same", [("/img/valid", "/img/valid", "")])])),
                                     ("cursor", "same")]).render()
        case .hugeText:
            return cached("bluesky-huge") {
                let text = String(repeating: "Long text ", count: 3 * 1_048_576 / 10)
                return JSONValue.object([("feed", .array([post(own("3khuge"), feed.did, text, [("/img/valid", "/img/valid", text)])]))]).render()
            }
        case .rateLimited, .html:
            return ""  // answered by `refusal`
        }
    }

    // MARK: - Misskey

    static func misskey(path: String, body: Bytes, baseURL: String) -> ServerResponse {
        let text = body.text
        switch path {
        case "/api/users/show":
            guard let feed = HostileSocialFeed.allCases.first(where: { text.contains("\"\($0.rawValue)\"") }) else {
                return json(#"{"error":{"message":"No such user.","code":"NO_SUCH_USER","id":"4362f8dc-731f-4ad8-a694-be5a88922a24"}}"#,
                            status: 404)
            }
            return refusal(feed) ?? json(#"{"id":"\#(feed.misskeyUserID)","username":"\#(feed.rawValue)","host":null}"#)
        case "/api/users/notes":
            guard let feed = HostileSocialFeed.allCases.first(where: { text.contains("\"\($0.misskeyUserID)\"") }) else {
                return json(#"{"error":{"message":"No such user.","code":"NO_SUCH_USER"}}"#, status: 400)
            }
            return refusal(feed) ?? json(misskeyNotes(feed, untilID: untilID(in: text), baseURL: baseURL))
        default:
            return json(#"{"error":{"message":"No such endpoint.","code":"NO_SUCH_ENDPOINT"}}"#, status: 404)
        }
    }

    private static func misskeyNotes(_ feed: HostileSocialFeed, untilID: String?, baseURL: String) -> String {
        let note = { (id: String, text: String, uri: String?, files: [(String, String, String)]) -> JSONValue in
            var members: [(String, JSONValue)] = [("id", .string(id)), ("text", .string(text))]
            if let uri { members.append(("uri", .string(uri))) }
            members.append(("files", .array(files.enumerated().map { index, file in
                .object([("id", .string("\(id)f\(index)")), ("type", "image/png"), ("thumbnailUrl", .string(file.0)),
                         ("url", .string(file.1)), ("comment", .string(file.2)), ("isSensitive", false)])
            })))
            return .object(members)
        }
        switch feed {
        case .manyPosts:
            guard untilID == nil else { return "[]" }
            return cached("misskey-many") {
                "[" + (0..<10_000).map { index in
                    note("9m\(index)", "many", nil, (0..<4).map { ("/img/valid?n=\(index)-\($0)", "/img/valid?n=\(index)-\($0)", "") })
                        .render()
                }.joined(separator: ",") + "]"
            }
        case .deepNesting:
            return nested(100_000)
        case .oddSchemes:
            guard untilID == nil else { return "[]" }
            let media = HostileSocialFeed.oddMedia(baseURL: baseURL)
            return JSONValue.array([note("9odd1", "Odd schemes", "file:///etc/passwd", media.map { ($0.0, $0.1, "odd") }),
                                    note("9odd2", "An odd note link", "javascript:alert(1)", [("/img/valid", "/img/valid", "")])]).render()
        case .endlessCursor:
            let next = (untilID.flatMap { Int($0.dropFirst(2)) } ?? 1_000_000) - 1
            return #"[{"id":"9e\#(next)","text":null,"renoteId":"9a","files":[]}]"#
        case .sameCursor:
            return JSONValue.array([note("9same", "same", nil, [("/img/valid", "/img/valid", "")])]).render()
        case .hugeText:
            guard untilID == nil else { return "[]" }
            return cached("misskey-huge") {
                let text = String(repeating: "Long text ", count: 3 * 1_048_576 / 10)
                return JSONValue.array([note("9huge", text, nil, [("/img/valid", "/img/valid", text)])]).render()
            }
        case .rateLimited, .html:
            return ""  // answered by `refusal`
        }
    }

    private static func untilID(in body: String) -> String? {
        guard let range = body.firstRange(of: #""untilId":""#) else { return nil }
        return String(body[range.upperBound...].prefix { $0 != "\"" })
    }

    // MARK: - Shared

    /// The cases answered without a document.
    private static func refusal(_ feed: HostileSocialFeed) -> ServerResponse? {
        switch feed {
        case .rateLimited:
            var response = json(#"{"error":"RateLimitExceeded","message":"Rate Limit Exceeded"}"#, status: 429)
            response.headers.append(("RateLimit-Remaining", "0"))
            response.headers.append(("RateLimit-Reset", "0"))
            return response
        case .html:
            return .html(title: "Welcome", message: "This is a web page, not an API.")
        default:
            return nil
        }
    }

    private static func nested(_ depth: Int) -> String {
        String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    }

    @MainActor private static var documents: [String: String] = [:]

    private static func cached(_ key: String, _ build: () -> String) -> String {
        if let document = documents[key] { return document }
        let document = build()
        documents[key] = document
        return document
    }

    /// Builds the megabyte documents now, before a client waits for them.
    static func prepare() {
        for feed in [HostileSocialFeed.manyPosts, .hugeText] {
            _ = blueskyFeed(feed, cursor: 0, baseURL: "")
            _ = misskeyNotes(feed, untilID: nil, baseURL: "")
        }
    }

    static func json(_ text: String, status: UInt32 = 200) -> ServerResponse {
        .text(text, status: status, contentType: "application/json; charset=utf-8")
    }
}
