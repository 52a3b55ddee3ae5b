import FoundationEssentials
import GObjectBindings

/// The parts of Mastodon's JSON entities the gallery uses (docs.joinmastodon.org/entities/). Decoding is
/// strict where a mistake would mislead (ids are strings, a status page is an array, an account is an object)
/// and lenient where servers differ (optional fields, `meta`): Mastodon-compatible servers (Pleroma,
/// GoToSocial, Pixelfed…) and older Mastodon versions leave out or vary fields the docs call required.
enum MastodonJSON {
    /// `GET /api/v1/accounts/lookup`: an Account. The id is a string even when it looks like a number (Mastodon
    /// ids exceed 2^53, so a number would lose digits in many JSON readers); the name and avatar, for the
    /// owner's profile, are read leniently: a server that garbles them still shows the gallery.
    struct Account: Decodable {
        let id: String
        let displayName: String?
        let avatar: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            displayName = try? container.decodeIfPresent(String.self, forKey: .displayName)
            avatar = try? container.decodeIfPresent(String.self, forKey: .avatar)
        }

        enum CodingKeys: String, CodingKey { case id, displayName = "display_name", avatar }
    }

    struct AccountReference: Decodable {
        let acct: String?
    }

    /// One Status of `GET /api/v1/accounts/:id/statuses`.
    struct Status: Decodable {
        let id: String
        let url: String?
        let uri: String?
        let createdAt: String?
        let sensitive: Bool
        let spoilerText: String?
        let content: String?
        let account: AccountReference?
        /// Each attachment decoded on its own: one a server garbled must not sink the whole post.
        let mediaAttachments: CappedList<Lenient<MediaAttachment>>

        enum CodingKeys: String, CodingKey {
            case id, url, uri, sensitive, content, account
            case createdAt = "created_at", spoilerText = "spoiler_text", mediaAttachments = "media_attachments"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            uri = try container.decodeIfPresent(String.self, forKey: .uri)
            // Text and flags only shape titles and hiding: a wrong type there reads as absent.
            createdAt = try? container.decodeIfPresent(String.self, forKey: .createdAt)
            spoilerText = try? container.decodeIfPresent(String.self, forKey: .spoilerText)
            content = try? container.decodeIfPresent(String.self, forKey: .content)
            account = try? container.decodeIfPresent(AccountReference.self, forKey: .account)
            // …except `sensitive`, where guessing "not sensitive" would show what the author hid.
            sensitive = try container.decodeIfPresent(Bool.self, forKey: .sensitive) ?? false
            mediaAttachments = try container.decodeIfPresent(CappedList<Lenient<MediaAttachment>>.self,
                                                             forKey: .mediaAttachments) ?? CappedList()
        }
    }

    /// A MediaAttachment. `url` is null while the server is still processing the file, and may be null for
    /// remote media it has not fetched; `remote_url` is then the copy on the author's own server.
    struct MediaAttachment: Decodable {
        let id: String
        let type: String
        let url: String?
        let previewURL: String?
        let remoteURL: String?
        let description: String?
        let meta: Meta?

        enum CodingKeys: String, CodingKey {
            case id, type, url, description, meta
            case previewURL = "preview_url", remoteURL = "remote_url"
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(String.self, forKey: .id)
            type = try container.decode(String.self, forKey: .type)
            url = try container.decodeIfPresent(String.self, forKey: .url)
            previewURL = try container.decodeIfPresent(String.self, forKey: .previewURL)
            remoteURL = try container.decodeIfPresent(String.self, forKey: .remoteURL)
            description = try? container.decodeIfPresent(String.self, forKey: .description)
            // `meta` differs by media type, server and version (sizes as numbers or strings, extra keys).
            meta = try? container.decodeIfPresent(Meta.self, forKey: .meta)
        }
    }

    struct Meta: Decodable {
        let original: Size?
        let small: Size?
        /// A video's or sound's seconds: `original.duration` (88.654), else the top level's `duration`.
        let duration: Double?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            original = try? container.decodeIfPresent(Size.self, forKey: .original)
            small = try? container.decodeIfPresent(Size.self, forKey: .small)
            duration = original?.duration ?? (try? container.decodeIfPresent(Double.self, forKey: .duration)) ?? nil
        }

        enum CodingKeys: String, CodingKey { case original, small, duration }
    }

    struct Size: Decodable {
        let width: Int?
        let height: Int?
        let duration: Double?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            width = Self.dimension(try? container.decodeIfPresent(Int.self, forKey: .width))
            height = Self.dimension(try? container.decodeIfPresent(Int.self, forKey: .height))
            duration = (try? container.decodeIfPresent(Double.self, forKey: .duration)) ?? nil
        }

        enum CodingKeys: String, CodingKey { case width, height, duration }

        /// A size the layout can use: positive and not absurd.
        private static func dimension(_ value: Int??) -> Int? {
            guard let value = value ?? nil, (1...100_000).contains(value) else { return nil }
            return value
        }
    }

    /// Decodes `type` from a response body, or explains in a sentence why not.
    static func decode<T: Decodable>(_ type: T.Type, from body: Bytes, document: String) throws(GalleryError) -> T {
        try JSONDecoding.decode(type, from: body, service: SourceKind.mastodon.displayName, document: document,
                                webPageHint: tr("Is this a Mastodon server?"))
    }
}
