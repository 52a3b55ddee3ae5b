/// The demo users as a Mastodon server answers for them, in the shapes of docs.joinmastodon.org's entities:
/// `GET /api/v1/accounts/lookup?acct=USER` gives the Account, `GET /api/v1/accounts/ID/statuses?max_id=…`
/// its Statuses newest first, each post's pictures as `media_attachments` (a video post a video attachment,
/// adult posts `sensitive`). Like Mastodon, a full page names the next in its `Link` header (`max_id` of the
/// page's last status); a shorter page ends the list. Status ids fall as posts get older, so `max_id` pages.
public enum DemoMastodon {
    /// Mastodon's default page size and its ceiling.
    static let defaultLimit = 20
    static let maxLimit = 40

    /// An 18-digit id made from the name, as Mastodon's snowflake ids look.
    public static func accountID(of user: String) -> String { "10" + DemoPosts.word("mastodon:" + user, length: 16, alphabet: "0123456789") }

    /// 18 digits that fall as the post index rises: newer posts have larger ids.
    static func statusID(_ post: DemoPost) -> Int { 110_000_000_000_000_000 + 9_999_999_999 - post.id }

    /// Routes `/api/v1/…` (the segments after "v1").
    static func route(_ segments: [String], query: [String: String], catalog: DemoCatalog, baseURL: String) -> ServerResponse {
        switch segments.count {
        case 2 where segments == ["accounts", "lookup"]:
            return lookup(acct: query["acct"], catalog: catalog, baseURL: baseURL)
        case 3 where segments[0] == "accounts" && segments[2] == "statuses":
            guard let user = catalog.users.first(where: { accountID(of: $0.name) == segments[1] }) else { return notFound() }
            return statuses(user, query: query, baseURL: baseURL)
        default:
            return json(#"{"error":"Not Found"}"#, status: 404)
        }
    }

    static func notFound() -> ServerResponse { json(#"{"error":"Record not found"}"#, status: 404) }

    /// `acct` is "USER" or "USER@DOMAIN"; the demo server is every domain.
    static func lookup(acct: String?, catalog: DemoCatalog, baseURL: String) -> ServerResponse {
        guard let acct, !acct.isEmpty else { return json(#"{"error":"Record not found"}"#, status: 404) }
        let name = String(acct.drop { $0 == "@" }.prefix { $0 != "@" })
        guard let user = catalog.user(named: name) else { return notFound() }
        return json(account(user, baseURL: baseURL, full: true).render())
    }

    static func statuses(_ user: DemoUser, query: [String: String], baseURL: String) -> ServerResponse {
        var maxID: Int?
        if let text = query["max_id"] {
            guard let value = Int(text) else { return json(#"{"error":"max_id must be a status id"}"#, status: 422) }
            maxID = value
        }
        let limit = min(maxLimit, max(1, query["limit"].flatMap { Int($0) } ?? defaultLimit))
        let page = Array(DemoPosts.posts(of: user).lazy.filter { maxID == nil || statusID($0) < maxID! }.prefix(limit))
        let text = JSONValue.array(page.map { status($0, user: user, baseURL: baseURL) }).render()
        var response = json(user.feedIsBroken ? String(text.prefix(text.count / 2)) : text)
        if let first = page.first, let last = page.last {
            let list = "\(baseURL)/api/v1/accounts/\(accountID(of: user.name))/statuses?only_media=true&exclude_replies=true&limit=\(limit)"
            var links: [String] = []
            if page.count == limit { links.append("<\(list)&max_id=\(statusID(last))>; rel=\"next\"") }
            links.append("<\(list)&min_id=\(statusID(first))>; rel=\"prev\"")
            response.headers.append(("Link", links.joined(separator: ", ")))
        }
        return DemoValidators.validated(response, newest: user.items.lazy.map(\.published).max())
    }

    private static func account(_ user: DemoUser, baseURL: String, full: Bool) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("id", .string(accountID(of: user.name))), ("username", .string(user.name)), ("acct", .string(user.name)),
            ("display_name", .string(DemoPosts.displayName(user.name))), ("url", .string("https://demo.test/@\(user.name)")),
        ]
        if full {
            members += [
                ("locked", false), ("bot", false), ("group", false), ("created_at", "2024-01-01T00:00:00.000Z"),
                ("note", "<p>An offline demo gallery.</p>"), ("avatar", .string(baseURL + user.avatarPath)),
                ("avatar_static", .string(baseURL + user.avatarPath)), ("followers_count", 0), ("following_count", 0),
                ("statuses_count", .int(DemoPosts.posts(of: user).count)), ("emojis", .array([])), ("fields", .array([])),
            ]
        }
        return .object(members)
    }

    private static func status(_ post: DemoPost, user: DemoUser, baseURL: String) -> JSONValue {
        let id = String(statusID(post))
        let text = post.isVideo ? "Timelapse: \(post.text)" : post.text
        return .object([
            ("id", .string(id)), ("created_at", .string(RFC822Date.iso8601(secondsSince1970: post.published))),
            ("in_reply_to_id", nil), ("in_reply_to_account_id", nil), ("sensitive", .bool(post.isAdult)),
            ("spoiler_text", ""), ("visibility", "public"), ("language", "en"),
            ("uri", .string("https://demo.test/users/\(user.name)/statuses/\(id)")),
            // The demo's own page of the post's first picture, which a browser can open.
            ("url", .string(baseURL + post.items[0].pagePath)),
            ("replies_count", 0), ("reblogs_count", 0), ("favourites_count", 0), ("edited_at", nil),
            ("content", .string(post.text.isEmpty ? "" : "<p>\(XMLEscaping.html(text))</p>")), ("reblog", nil),
            ("account", account(user, baseURL: baseURL, full: false)),
            ("media_attachments", .array(post.items.map { attachment($0, media: DemoMedia.of(post), baseURL: baseURL) })),
            ("mentions", .array([])), ("tags", .array([])), ("emojis", .array([])), ("card", nil), ("poll", nil),
        ])
    }

    /// A picture, or a video post's gifv, video or audio attachment with the `meta` Mastodon gives them
    /// (docs.joinmastodon.org/entities/MediaAttachment: `length`, `duration`, `fps`, `original.duration`…).
    private static func attachment(_ item: DemoItem, media: DemoMedia?, baseURL: String) -> JSONValue {
        let small = item.thumbnailSize(longSide: 300)
        let size = { (width: Int, height: Int) -> JSONValue in
            .object([("width", .int(width)), ("height", .int(height)), ("size", .string("\(width)x\(height)")),
                     ("aspect", .double(Double(width) / Double(max(1, height))))])
        }
        var meta: [(String, JSONValue)] = [("original", size(item.width, item.height)), ("small", size(small.width, small.height))]
        if let media {
            let hundredths = Int((media.duration * 100).rounded())
            let seconds = hundredths / 100, fraction = hundredths % 100
            let length = "0:00:" + (seconds < 10 ? "0" : "") + "\(seconds)." + (fraction < 10 ? "0" : "") + "\(fraction)"
            meta = [("length", .string(length)), ("duration", .double(media.duration))]
            if let frame = media.size {
                meta += [("fps", 15), ("size", .string("\(frame.width)x\(frame.height)")), ("width", .int(frame.width)),
                         ("height", .int(frame.height)), ("aspect", .double(Double(frame.width) / Double(frame.height))),
                         ("original", .object([("width", .int(frame.width)), ("height", .int(frame.height)),
                                               ("frame_rate", "15/1"), ("duration", .double(media.duration)),
                                               ("bitrate", 400_000)])),
                         ("small", size(small.width, small.height))]
            } else {
                meta += [("audio_encode", "vorbis"), ("audio_bitrate", "44100 Hz"), ("audio_channels", "mono"),
                         ("original", .object([("duration", .double(media.duration)), ("bitrate", 80_000)]))]
            }
        }
        return .object([
            ("id", .string(String(item.id))), ("type", .string(media?.mastodonType ?? "image")),
            ("url", .string(media.map { baseURL + $0.path } ?? baseURL + item.imagePath())),
            ("preview_url", .string(baseURL + item.imagePath(thumbnailLongSide: 300))),
            ("remote_url", nil), ("preview_remote_url", nil), ("text_url", nil),
            ("meta", .object(meta)),
            ("description", .optional(item.altText)), ("blurhash", nil),
        ])
    }

    static func json(_ text: String, status: UInt32 = 200) -> ServerResponse {
        .text(text, status: status, contentType: "application/json; charset=utf-8")
    }
}
