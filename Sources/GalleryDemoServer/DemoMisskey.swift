import FoundationEssentials
import GObjectBindings

/// The demo users as a Misskey server answers for them: `POST /api/users/show {"username","host"}` and
/// `POST /api/users/notes {"userId","untilId","limit",…}`, in the shapes of Misskey's schemas. Each post is a
/// note with its pictures as drive files (adult ones `isSensitive`), a video post a note with a video file.
/// Note ids fall as the notes get older, as Misskey's time-based ids do, so `untilId` pages.
public enum DemoMisskey {
    /// The request bodies the demo understands; extra fields (`withFiles`, `withRenotes`) are accepted.
    struct ShowRequest: Decodable {
        let username: String?
    }

    struct NotesRequest: Decodable {
        let userId: String?
        let untilId: String?
        let limit: Int?
    }

    public static func userID(of user: String) -> String { "9d" + DemoPosts.word("misskey:" + user, length: 8, alphabet: "0123456789abcdefghijklmnopqrstuvwxyz") }

    /// "9n" and ten digits that fall as the post index rises: newer notes have larger ids.
    static func noteID(_ post: DemoPost) -> String {
        let value = String(9_999_999_999 - post.id)
        return "9n" + String(repeating: "0", count: max(0, 10 - value.count)) + value
    }

    static func noSuchUser() -> ServerResponse {
        json(#"{"error":{"message":"No such user.","code":"NO_SUCH_USER","id":"4362f8dc-731f-4ad8-a694-be5a88922a24","kind":"client"}}"#,
             status: 404)
    }

    static func invalidParam(_ detail: String) -> ServerResponse {
        let value = JSONValue.object([("error", .object([("message", "Invalid param."), ("code", "INVALID_PARAM"),
                                                         ("id", "3d81ceae-475f-4600-b2a8-2bc116157532"),
                                                         ("info", .object([("detail", .string(detail))]))]))])
        return json(value.render(), status: 400)
    }

    static func show(body: Bytes, catalog: DemoCatalog, baseURL: String) -> ServerResponse {
        guard let request = try? JSONDecoder().decode(ShowRequest.self, from: Data(body.array)), let name = request.username else {
            return invalidParam("users/show takes {\"username\", \"host\"}")
        }
        guard let user = catalog.user(named: name) else { return noSuchUser() }
        let value: JSONValue = .object([
            ("id", .string(userID(of: user.name))), ("name", .string(DemoPosts.displayName(user.name))),
            ("username", .string(user.name)), ("host", nil), ("avatarUrl", .string(baseURL + user.avatarPath)),
            ("avatarBlurhash", nil), ("avatarDecorations", .array([])), ("isBot", false), ("isCat", false),
            ("emojis", .object([])), ("onlineStatus", "unknown"), ("createdAt", "2024-01-01T00:00:00.000Z"),
            ("description", "An offline demo gallery."), ("notesCount", .int(DemoPosts.posts(of: user).count)),
            ("isLocked", false), ("isSuspended", false), ("requireSigninToViewContents", false),
            ("makeNotesFollowersOnlyBefore", nil), ("makeNotesHiddenBefore", nil),
        ])
        return json(value.render())
    }

    static func notes(body: Bytes, catalog: DemoCatalog, baseURL: String) -> ServerResponse {
        guard let request = try? JSONDecoder().decode(NotesRequest.self, from: Data(body.array)), let id = request.userId else {
            return invalidParam("users/notes takes {\"userId\", \"untilId\", \"limit\"}")
        }
        guard let user = catalog.users.first(where: { userID(of: $0.name) == id }) else {
            return json(#"{"error":{"message":"No such user.","code":"NO_SUCH_USER","id":"27e494ba-2ac2-48e8-893b-10d4d8c2387b","kind":"client"}}"#,
                        status: 400)
        }
        let limit = min(100, max(1, request.limit ?? 10))
        let page = DemoPosts.posts(of: user).lazy.filter { request.untilId == nil || noteID($0) < request.untilId! }.prefix(limit)
        let text = JSONValue.array(page.map { note($0, user: user, baseURL: baseURL) }).render()
        return json(user.feedIsBroken ? String(text.prefix(text.count / 2)) : text)
    }

    private static func note(_ post: DemoPost, user: DemoUser, baseURL: String) -> JSONValue {
        let created = JSONValue.string(RFC822Date.iso8601(secondsSince1970: post.published))
        let files = post.items.map { file($0, media: DemoMedia.of(post), baseURL: baseURL) }
        return .object([
            ("id", .string(noteID(post))), ("createdAt", created), ("userId", .string(userID(of: user.name))),
            ("user", .object([("id", .string(userID(of: user.name))), ("username", .string(user.name)), ("host", nil),
                              ("avatarUrl", .string(baseURL + user.avatarPath))])),
            ("text", post.text.isEmpty ? nil : .string(post.isVideo ? "Timelapse: \(post.text)" : post.text)), ("cw", nil),
            ("visibility", "public"), ("renoteCount", 0), ("repliesCount", 0), ("reactions", .object([])),
            ("fileIds", .array(post.items.map { .string(fileID($0)) })), ("files", .array(files)),
            ("replyId", nil), ("renoteId", nil),
        ])
    }

    static func fileID(_ item: DemoItem) -> String { "9f" + String(item.id) }

    /// A picture, or a video post's video or sound: a drive file whose `type` is its MIME type.
    private static func file(_ item: DemoItem, media: DemoMedia?, baseURL: String) -> JSONValue {
        let created = JSONValue.string(RFC822Date.iso8601(secondsSince1970: item.published))
        let name = media.map { String(item.fileName.prefix { $0 != "." }) + "." + ($0.fileName.split(separator: ".").last ?? "") }
            ?? item.fileName
        let frame = media.map { $0.size } ?? (item.width, item.height)
        return .object([
            ("id", .string(fileID(item))), ("createdAt", created), ("name", .string(name)),
            ("type", .string(media?.mediaType ?? item.format.mediaType)), ("md5", .string(DemoPosts.word(item.fileName, length: 32, alphabet: "0123456789abcdef"))),
            ("size", 0), ("isSensitive", .bool(item.rating == .adult)), ("blurhash", nil),
            ("properties", .object(frame.map { [("width", .int($0.width)), ("height", .int($0.height))] } ?? [])),
            ("url", .string(media.map { baseURL + $0.path } ?? baseURL + item.imagePath())),
            ("thumbnailUrl", .string(baseURL + item.imagePath(thumbnailLongSide: 300))),
            ("comment", item.altText.map { JSONValue.string($0) } ?? .null), ("folderId", nil), ("userId", nil),
        ])
    }

    static func json(_ text: String, status: UInt32 = 200) -> ServerResponse {
        .text(text, status: status, contentType: "application/json; charset=utf-8")
    }
}
