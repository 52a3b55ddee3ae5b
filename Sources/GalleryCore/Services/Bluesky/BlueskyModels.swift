import FoundationEssentials
import GObjectBindings

/// The parts of the AppView's replies the gallery uses, as the lexicons define them (bluesky-social/atproto
/// `lexicons/app/bsky/actor/defs.json`, `feed/defs.json`, `embed/*.json`, `com/atproto/label/defs.json`).
/// Unions are told apart by `$type`; a member the app does not know is kept as `.other`, never an error: the
/// lexicons grow (`gallery#view` is from 2026). Strict where a mistake would mislead (a post's `uri`, an
/// author's `did`), lenient in what only shapes a title.
enum BlueskyJSON {
    /// An XRPC error: `{"error": "InvalidRequest", "message": "Profile not found"}`.
    struct ErrorReply: Decodable {
        let error: String?
        let message: String?
    }

    /// `com.atproto.label.defs#label`; a negation (`neg`) takes an earlier label of the same value back.
    struct Label: Decodable {
        let val: String
        let neg: Bool

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            val = try container.decode(String.self, forKey: .val)
            neg = (try? container.decodeIfPresent(Bool.self, forKey: .neg)) ?? false
        }

        enum CodingKeys: String, CodingKey { case val, neg }
    }

    /// `app.bsky.actor.defs#profileViewDetailed` (getProfile) and `#profileViewBasic` (a post's author).
    struct Profile: Decodable {
        let did: String
        let handle: String?
        let labels: CappedList<Lenient<Label>>
        let displayName: String?
        let avatar: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            did = try container.decode(String.self, forKey: .did)
            handle = try? container.decodeIfPresent(String.self, forKey: .handle)
            labels = (try? container.decodeIfPresent(CappedList<Lenient<Label>>.self, forKey: .labels)) ?? CappedList()
            displayName = try? container.decodeIfPresent(String.self, forKey: .displayName)
            avatar = try? container.decodeIfPresent(String.self, forKey: .avatar)
        }

        enum CodingKeys: String, CodingKey { case did, handle, labels, displayName, avatar }
    }

    /// `app.bsky.feed.getAuthorFeed`'s output.
    struct FeedPage: Decodable {
        let cursor: String?
        let feed: CappedList<Lenient<FeedViewPost>>

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            feed = try container.decode(CappedList<Lenient<FeedViewPost>>.self, forKey: .feed)
            cursor = try? container.decodeIfPresent(String.self, forKey: .cursor)
        }

        enum CodingKeys: String, CodingKey { case cursor, feed }
    }

    /// `app.bsky.feed.defs#feedViewPost`: a post, and why it is in the feed (`reasonRepost`, `reasonPin`).
    struct FeedViewPost: Decodable {
        let post: PostView
        /// The reason's `$type`; nil for the author's own post.
        let reason: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            post = try container.decode(PostView.self, forKey: .post)
            // A reason without a readable type is still a reason: the post is not plainly the author's.
            reason = container.contains(.reason)
                ? ((try? container.decode(Typed.self, forKey: .reason).type) ?? "unknown") : nil
        }

        enum CodingKeys: String, CodingKey { case post, reason }
    }

    /// `app.bsky.feed.defs#postView`.
    struct PostView: Decodable {
        let uri: String
        let author: Profile
        let record: PostRecord?
        let embed: Embed?
        let labels: CappedList<Lenient<Label>>
        let indexedAt: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            uri = try container.decode(String.self, forKey: .uri)
            author = try container.decode(Profile.self, forKey: .author)
            record = try? container.decodeIfPresent(PostRecord.self, forKey: .record)
            embed = try container.decodeIfPresent(Embed.self, forKey: .embed)
            labels = (try? container.decodeIfPresent(CappedList<Lenient<Label>>.self, forKey: .labels)) ?? CappedList()
            indexedAt = try? container.decodeIfPresent(String.self, forKey: .indexedAt)
        }

        enum CodingKeys: String, CodingKey { case uri, author, record, embed, labels, indexedAt }
    }

    /// The post record (`app.bsky.feed.post`, an `unknown` in the view): its text, date and self-labels.
    struct PostRecord: Decodable {
        let text: String?
        let createdAt: String?
        /// `labels` (`com.atproto.label.defs#selfLabels`): values the author put on the post.
        let selfLabels: [String]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            text = try? container.decodeIfPresent(String.self, forKey: .text)
            createdAt = try? container.decodeIfPresent(String.self, forKey: .createdAt)
            let labels = try? container.decodeIfPresent(SelfLabels.self, forKey: .labels)
            selfLabels = labels?.values.compactMap { $0.value?.val } ?? []
        }

        enum CodingKeys: String, CodingKey { case text, createdAt, labels }
    }

    struct SelfLabels: Decodable {
        let values: CappedList<Lenient<Label>>
    }

    /// The embed union of a post view.
    enum Embed: Decodable {
        /// Images, a video or a gallery of the post's own.
        case media(Media)
        /// A quoted post with media of the post's own (`recordWithMedia#view`); only `media` is the author's.
        case recordWithMedia(Media)
        /// A quoted post alone (`record#view`): someone else's gallery, or the author's other post.
        case record
        case other(type: String)

        init(from decoder: any Decoder) throws {
            let type = try Typed(from: decoder).type
            switch type {
            case "app.bsky.embed.record#view":
                self = .record
            case "app.bsky.embed.recordWithMedia#view":
                let container = try decoder.container(keyedBy: CodingKeys.self)
                self = .recordWithMedia(try container.decode(Media.self, forKey: .media))
            default:
                let media = try Media(from: decoder)
                if case .other = media { self = .other(type: type) } else { self = .media(media) }
            }
        }

        enum CodingKeys: String, CodingKey { case media }
    }

    /// The media members of the embed union (`recordWithMedia#view`'s `media` is one of these). Not
    /// recursive: a server nesting embeds in embeds gets `.other` one level down.
    enum Media: Decodable {
        case images(CappedList<Lenient<Image>>)
        case gallery(CappedList<Lenient<GalleryMember>>)
        case video(Video)
        case external
        case other(type: String)

        init(from decoder: any Decoder) throws {
            let type = try Typed(from: decoder).type
            let container = try decoder.container(keyedBy: CodingKeys.self)
            switch type {
            case "app.bsky.embed.images#view":
                self = .images(try container.decode(CappedList<Lenient<Image>>.self, forKey: .images))
            case "app.bsky.embed.gallery#view":
                self = .gallery(try container.decode(CappedList<Lenient<GalleryMember>>.self, forKey: .items))
            case "app.bsky.embed.video#view":
                self = .video(try Video(from: decoder))
            case "app.bsky.embed.external#view":
                self = .external
            default:
                self = .other(type: type)
            }
        }

        enum CodingKeys: String, CodingKey { case images, items }
    }

    /// `images#viewImage` (`thumb`) and `gallery#viewImage` (`thumbnail`): URLs on the CDN, the alt text and
    /// an aspect ratio (which is not a size in pixels).
    struct Image: Decodable {
        let thumb: String?
        let fullsize: String?
        let alt: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            thumb = try container.decodeIfPresent(String.self, forKey: .thumb)
                ?? container.decodeIfPresent(String.self, forKey: .thumbnail)
            fullsize = try container.decodeIfPresent(String.self, forKey: .fullsize)
            alt = try? container.decodeIfPresent(String.self, forKey: .alt)
        }

        enum CodingKeys: String, CodingKey { case thumb, thumbnail, fullsize, alt }
    }

    /// A member of `gallery#view`'s `items` union: only `#viewImage` exists so far.
    enum GalleryMember: Decodable {
        case image(Image)
        case other(type: String)

        init(from decoder: any Decoder) throws {
            let type = try Typed(from: decoder).type
            self = type == "app.bsky.embed.gallery#viewImage" ? .image(try Image(from: decoder)) : .other(type: type)
        }
    }

    /// `video#view`: the blob's CID (its original is on the author's PDS), the HLS playlist and a still.
    struct Video: Decodable {
        let cid: String?
        let thumbnail: String?
        let playlist: String?
        let alt: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            cid = try? container.decodeIfPresent(String.self, forKey: .cid)
            thumbnail = try container.decodeIfPresent(String.self, forKey: .thumbnail)
            playlist = try? container.decodeIfPresent(String.self, forKey: .playlist)
            alt = try? container.decodeIfPresent(String.self, forKey: .alt)
        }

        enum CodingKeys: String, CodingKey { case cid, thumbnail, playlist, alt }
    }

    /// A union member's `$type`.
    struct Typed: Decodable {
        let type: String

        enum CodingKeys: String, CodingKey { case type = "$type" }
    }

    /// Decodes `type` from a response body, or explains in a sentence why not.
    static func decode<T: Decodable>(_ type: T.Type, from body: Bytes, document: String) throws(GalleryError) -> T {
        try JSONDecoding.decode(type, from: body, service: SourceKind.bluesky.displayName, document: document,
                                webPageHint: tr("Is this a Bluesky AppView?"))
    }
}
