import FoundationEssentials
import GObjectBindings

/// The parts of Misskey's API entities the gallery uses, as misskey-dev/misskey defines them
/// (`packages/backend/src/models/json-schema/user.ts`, `note.ts`, `drive-file.ts`), and the request bodies of
/// `users/show` and `users/notes`. Forks (Sharkey, Firefish, Iceshrimp) add fields and sometimes drop
/// optional ones: strict only on ids, lenient on what shapes titles.
enum MisskeyJSON {
    /// `{"error": {"code": "NO_SUCH_USER", "message": "No such user.", "id": "…"}}`.
    struct ErrorReply: Decodable {
        struct Detail: Decodable {
            let code: String?
            let message: String?
        }

        let error: Detail
    }

    /// `UserDetailed` (users/show): the id, whether the user hides their notes from visitors, and the name and
    /// avatar of the owner's profile (read leniently).
    struct User: Decodable {
        let id: String
        let requireSigninToViewContents: Bool
        let name: String?
        let avatarUrl: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            requireSigninToViewContents = (try? container.decodeIfPresent(Bool.self, forKey: .requireSigninToViewContents)) ?? false
            name = try? container.decodeIfPresent(String.self, forKey: .name)
            avatarUrl = try? container.decodeIfPresent(String.self, forKey: .avatarUrl)
        }

        enum CodingKeys: String, CodingKey { case id, requireSigninToViewContents, name, avatarUrl }
    }

    /// A `Note` of users/notes. Its `renote` and `reply` (notes themselves) are not decoded: their files are
    /// someone else's, and not decoding them keeps the model flat however deep a server nests them.
    struct Note: Decodable {
        let id: String
        let createdAt: String?
        let text: String?
        /// A content warning; present (even empty) means the note is behind one.
        let cw: String?
        let renoteId: String?
        /// The server blanked the note for this viewer (followers only, hidden after a while, sign-in only).
        let isHidden: Bool
        let url: String?
        let uri: String?
        let files: CappedList<Lenient<DriveFile>>

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            createdAt = try? container.decodeIfPresent(String.self, forKey: .createdAt)
            text = try? container.decodeIfPresent(String.self, forKey: .text)
            // A warning that does not decode still warns: guessing "none" would show what the author hid.
            if container.contains(.cw), (try? container.decodeNil(forKey: .cw)) != true {
                cw = (try? container.decode(String.self, forKey: .cw)) ?? ""
            } else {
                cw = nil
            }
            renoteId = try? container.decodeIfPresent(String.self, forKey: .renoteId)
            isHidden = (try? container.decodeIfPresent(Bool.self, forKey: .isHidden)) ?? false
            url = try? container.decodeIfPresent(String.self, forKey: .url)
            uri = try? container.decodeIfPresent(String.self, forKey: .uri)
            files = try container.decodeIfPresent(CappedList<Lenient<DriveFile>>.self, forKey: .files) ?? CappedList()
        }

        enum CodingKeys: String, CodingKey { case id, createdAt, text, cw, renoteId, isHidden, url, uri, files }
    }

    /// A `DriveFile`. `url` and `thumbnailUrl` are nullable (a remote file not cached, a file without a
    /// thumbnail); `comment` is the alt text.
    struct DriveFile: Decodable {
        let id: String
        let name: String?
        let type: String
        let url: String?
        let thumbnailUrl: String?
        let isSensitive: Bool
        let comment: String?
        let width: Int?
        let height: Int?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            type = (try? container.decodeIfPresent(String.self, forKey: .type)) ?? "application/octet-stream"
            name = try? container.decodeIfPresent(String.self, forKey: .name)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            thumbnailUrl = try container.decodeIfPresent(String.self, forKey: .thumbnailUrl)
            // `isSensitive` decides hiding: a value that is not a boolean must not read as "not sensitive".
            isSensitive = try container.decodeIfPresent(Bool.self, forKey: .isSensitive) ?? false
            comment = try? container.decodeIfPresent(String.self, forKey: .comment)
            let properties = try? container.decodeIfPresent(Properties.self, forKey: .properties)
            width = properties?.width.flatMap { (1...100_000).contains($0) ? $0 : nil }
            height = properties?.height.flatMap { (1...100_000).contains($0) ? $0 : nil }
        }

        enum CodingKeys: String, CodingKey { case id, name, type, url, thumbnailUrl, isSensitive, comment, properties }
    }

    struct Properties: Decodable {
        let width: Int?
        let height: Int?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            width = try? container.decodeIfPresent(Int.self, forKey: .width)
            height = try? container.decodeIfPresent(Int.self, forKey: .height)
        }

        enum CodingKeys: String, CodingKey { case width, height }
    }

    /// users/show's body. `host` is null for a user of the server asked (JSON null, not left out).
    struct ShowBody: Encodable {
        let username: String
        let host: String?

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(username, forKey: .username)
            try container.encode(host, forKey: .host)
        }

        enum CodingKeys: String, CodingKey { case username, host }
    }

    /// users/notes' body: the user's own notes with files, newest first, before `untilId`.
    struct NotesBody: Encodable {
        let userId: String
        let withFiles = true
        let withRenotes = false
        let limit: Int
        let untilId: String?
    }

    /// The JSON text of a request body, keys sorted: the same request is always the same text (the feed tells
    /// pages apart by their bodies).
    static func body(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// Decodes `type` from a response body, or explains in a sentence why not.
    static func decode<T: Decodable>(_ type: T.Type, from body: Bytes, document: String) throws(GalleryError) -> T {
        try JSONDecoding.decode(type, from: body, service: SourceKind.misskey.displayName, document: document,
                                webPageHint: tr("Is this a Misskey server?"))
    }
}
