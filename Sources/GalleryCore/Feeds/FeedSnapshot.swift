import FoundationEssentials
import GObjectBindings

/// The replies that made a gallery's first page (a lookup, empty batches, the first page of items), as
/// they came, so that a launch without network can show that page again: the source parses them as it
/// parsed them then. Kept because the feeds themselves rarely reach the HTTP cache: a GET with a query
/// is only stored with Expires or max-age, which feeds seldom send (and some send no-store).
///
/// Bounded whatever the feed: at most `maxReplies` replies and `maxBytes` of bodies and headers together;
/// a first page bigger than that is simply not kept.
public struct FeedSnapshot: Sendable, Equatable, Codable {
    /// Each reply as the feed received it.
    public struct Reply: Sendable, Equatable, Codable {
        /// The request's `PageRequest.key`: its URL, with its method and body when it had one (a Misskey POST).
        public var requestURL: String
        public var head: HTTPResponseHead
        public var body: Data

        init(request: PageRequest, response: HTTPResponse) {
            requestURL = request.key
            head = response.head
            body = response.body.withUnsafeBytes { Data($0) }
        }

        var response: HTTPResponse {
            var head = head
            // What the reply holds is the body as the feed read it (decompressed, whole).
            head.contentLength = body.count
            return HTTPResponse(head: head, body: Bytes(Array(body)))
        }

        /// What this reply weighs against `maxBytes`.
        var bytes: Int {
            body.count + requestURL.utf8.count + head.url.utf8.count + head.reason.utf8.count
                + (head.mediaType?.utf8.count ?? 0) + head.headers.reduce(0) { $0 + $1.key.utf8.count + $1.value.utf8.count }
        }
    }

    public static let maxReplies = 8
    /// A real first page is tens to hundreds of kilobytes (60 DeviantArt items, 40 Mastodon posts).
    public static let maxBytes = 4 * 1_048_576
    /// The file, with its encoding's overhead (base64 bodies), is never read past this.
    public static let maxFileBytes = maxBytes * 2

    /// The gallery's first request (its `PageRequest.key`): a snapshot is only used for the same source, user
    /// and endpoint.
    public var firstURL: String
    /// When the replies were received, in seconds since the Unix epoch.
    public var savedAt: Double
    public var replies: [Reply]

    public init(firstURL: String, savedAt: Double, replies: [Reply]) {
        self.firstURL = firstURL
        self.savedAt = savedAt
        self.replies = replies
    }

    /// "3 hours ago": when the page was saved, for the window.
    public var savedAgo: String { DateText.ago(savedAt) }

    /// The reply to the request whose `PageRequest.key` is `key`, if it is part of the snapshot.
    public func response(for key: String) -> HTTPResponse? {
        replies.first { $0.requestURL == key }?.response
    }

    var isWithinBounds: Bool {
        !replies.isEmpty && replies.count <= Self.maxReplies
            && replies.reduce(0) { $0 + $1.bytes } <= Self.maxBytes
    }

    /// The file's contents.
    func encoded() -> Bytes? {
        guard let data = try? JSONEncoder().encode(self) else { return nil }
        return Bytes(Array(data))
    }

    /// Nil for anything that is not a snapshot within bounds (a damaged or foreign file).
    static func decode(_ bytes: Bytes) -> FeedSnapshot? {
        bytes.withUnsafeBytes { decode($0) }
    }

    static func decode(_ bytes: UnsafeRawBufferPointer) -> FeedSnapshot? {
        guard bytes.count <= maxFileBytes else { return nil }
        let data = Data(bytes)
        guard let snapshot = try? JSONDecoder().decode(FeedSnapshot.self, from: data), snapshot.isWithinBounds else {
            return nil
        }
        return snapshot
    }
}

/// Collects a feed's replies up to its first page of items, within the snapshot's bounds.
struct FeedSnapshotRecorder {
    let firstURL: String
    private(set) var replies: [FeedSnapshot.Reply] = []
    private var bytes = 0
    /// False once the replies went past the bounds: nothing is kept for this gallery.
    private(set) var isWithinBounds = true

    init(firstURL: String) { self.firstURL = firstURL }

    mutating func record(_ response: HTTPResponse, of request: PageRequest) {
        // The body alone already too big: no copy of it is made.
        guard isWithinBounds, bytes + response.body.count <= FeedSnapshot.maxBytes else { return giveUp() }
        let reply = FeedSnapshot.Reply(request: request, response: response)
        bytes += reply.bytes
        replies.append(reply)
        if bytes > FeedSnapshot.maxBytes || replies.count > FeedSnapshot.maxReplies { giveUp() }
    }

    private mutating func giveUp() {
        isWithinBounds = false
        replies = []
    }

    func snapshot(savedAt: Double) -> FeedSnapshot? {
        isWithinBounds && !replies.isEmpty ? FeedSnapshot(firstURL: firstURL, savedAt: savedAt, replies: replies) : nil
    }
}
