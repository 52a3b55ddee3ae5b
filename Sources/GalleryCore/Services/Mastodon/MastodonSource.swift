import GObjectBindings

/// A Mastodon (or Mastodon-compatible) account's media, read from the public REST API without signing in:
/// 1. `GET /api/v1/accounts/lookup?acct=USER` → the account id (stage "lookup", no items);
/// 2. `GET /api/v1/accounts/ID/statuses?only_media=true&exclude_replies=true&limit=40`, paged by the `Link`
///    header's rel="next" (which carries `max_id`); no next link ends the gallery.
/// Every media attachment of a post becomes one item. A followed gallery's check starts at 2 with the id an
/// earlier lookup gave (`firstRequest(resolved:)`); a 404 or 410 there (the account gone) looks it up again.
/// An account that moved keeps its id and its posts, and the lookup would give the same, so that is no reason.
public struct MastodonSource: GallerySource {
    public enum Stage {
        public static let lookup = "lookup"
        public static let statuses = "statuses"
        /// The first page of statuses asked for by a remembered account id.
        public static let resolvedStatuses = "statuses-resolved"
    }

    public let kind = SourceKind.mastodon
    /// "user@instance", as shown in messages.
    public let username: String
    public let user: String
    /// Host name, lower-cased, with ":port" when one other than 443 was typed.
    public let instance: String
    public let endpoint: Endpoint

    private static let service = SourceKind.mastodon.displayName
    private static let headers = ["Accept": "application/json"]
    /// A hostile page cannot make more rows than a real one ever has (40 posts × 4 attachments).
    static let maxItemsPerPage = 1000
    static let maxSkippedReasons = SourcePage.maxSkippedReasons
    /// Mastodon's own limit for a media description.
    static let maxAltTextLength = 1500
    /// The most of a Link header read on the main thread for the next page (`nextRequestAhead`).
    static let maxLinkHeaderBytesAhead = 4096

    public init(account: String, endpointOverride: String?) throws(GalleryError) {
        (user, instance) = try Self.split(account)
        username = "\(user)@\(instance)"
        endpoint = Endpoint(canonical: "https://\(instance)", override: endpointOverride)
    }

    public func firstRequest() -> PageRequest {
        PageRequest(url: endpoint.url("/api/v1/accounts/lookup?acct=\(URLText.encodeComponent(user))"),
                    stage: Stage.lookup, headers: Self.headers)
    }

    public func firstRequest(resolved resolution: SourceResolution) -> PageRequest? {
        guard SourceText.isSafeIdentifier(resolution.accountID) else { return nil }
        return statusesRequest(accountID: resolution.accountID, stage: Stage.resolvedStatuses)
    }

    public func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        if request.stage == Stage.resolvedStatuses, [404, 410].contains(response.head.status) { return .staleResolution }
        // 403 is how servers in "limited federation" / authorized-fetch mode refuse anonymous readers; the
        // shared mapper reads it as a plain refusal, which would hide the reason.
        if response.head.status == 401 || response.head.status == 403 { throw .signInRequired(service: Self.service) }
        try ResponseStatus.check(response.head, service: Self.service, username: username)
        if request.stage == Stage.lookup {
            let account = try MastodonJSON.decode(MastodonJSON.Account.self, from: response.body, document: tr("Account"))
            return PageResult(items: [], next: try statusesRequest(account: account),
                              profile: .fromReply(displayName: account.displayName, avatar: account.avatar, endpoint: endpoint),
                              resolution: SourceResolution(accountID: account.id))
        }
        let page = try Self.items(from: response.body, fallbackAuthor: user, baseURL: response.head.url)
        return PageResult(items: page.items, next: try nextRequest(response))
    }

    /// A page of statuses names the next in its Link header; the lookup names it only in its JSON. A header
    /// longer than a real one (two links of ~150 bytes) is left to `parse`, off the main thread.
    public func nextRequestAhead(_ response: HTTPResponse, of request: PageRequest) -> PageRequest? {
        guard request.stage == Stage.statuses || request.stage == Stage.resolvedStatuses, response.head.status == 200,
              (response.head.headers["link"]?.utf8.count ?? 0) <= Self.maxLinkHeaderBytesAhead
        else { return nil }
        return try? nextRequest(response)
    }

    // MARK: - Requests

    private func statusesRequest(account: MastodonJSON.Account) throws(GalleryError) -> PageRequest {
        // Ids are opaque strings (digits on Mastodon, base62 or ULIDs elsewhere). Anything else — "..", "/",
        // "?" — could move the request to another path once decoded by a proxy, so it is refused outright.
        guard SourceText.isSafeIdentifier(account.id) else {
            throw .malformedResponse(service: Self.service, detail: tr("The server sent an account id the app cannot use."))
        }
        return statusesRequest(accountID: account.id, stage: Stage.statuses)
    }

    private func statusesRequest(accountID: String, stage: String) -> PageRequest {
        let id = URLText.encodeComponent(accountID)
        return PageRequest(url: endpoint.url("/api/v1/accounts/\(id)/statuses?only_media=true&exclude_replies=true&limit=40"),
                           stage: stage, headers: Self.headers)
    }

    private func nextRequest(_ response: HTTPResponse) throws(GalleryError) -> PageRequest? {
        guard let link = LinkHeader.target(of: "next", in: response.head.headers["link"]) else { return nil }
        let url = try endpoint.nextPageURL(link, replyURL: response.head.url, service: Self.service)
        return PageRequest(url: url, stage: Stage.statuses, headers: Self.headers)
    }

    // MARK: - Items

    typealias Page = SourcePage

    /// Items from one page of statuses. The page must be a JSON array; a post or attachment that does not
    /// decode is skipped, unless nothing on the page decodes (then the response is not what we asked for).
    /// Only the first `CappedList.limit` posts are decoded at all; relative media URLs are resolved against
    /// `baseURL`, the URL the page came from.
    static func items(from body: Bytes, fallbackAuthor: String, baseURL: String? = nil) throws(GalleryError) -> Page {
        let statuses = try MastodonJSON.decode(CappedList<Lenient<MastodonJSON.Status>>.self, from: body,
                                               document: tr("List of posts"))
        var page = Page()
        var postsRead = 0
        for (index, entry) in statuses.enumerated() {
            switch entry.result {
            case .failure(let error):
                // TRANSLATORS: a post of the list, by its position in it (0 is the first).
                page.skip(JSONDecoding.explain(error, document: tr("Post {number}", ["number": index])))
            case .success(let status):
                postsRead += 1
                append(status, to: &page, fallbackAuthor: fallbackAuthor, baseURL: baseURL)
            }
        }
        if statuses.leftOut > 0 { page.skip("\(statuses.leftOut) posts beyond the first \(statuses.count) were not read") }
        if !statuses.isEmpty && postsRead == 0 {
            let first = page.skipped.first ?? ""
            // TRANSLATORS: {reason} says what is wrong with the first post, such as "Post 0: “id” is missing.".
            throw .malformedResponse(service: service,
                                     detail: tr("No post on the page could be read. {reason}", ["reason": first]))
        }
        return page
    }

    private static func append(_ status: MastodonJSON.Status, to page: inout Page, fallbackAuthor: String, baseURL: String?) {
        var attachments: [MastodonJSON.MediaAttachment] = []
        for (index, entry) in status.mediaAttachments.enumerated() {
            switch entry.result {
            case .success(let attachment): attachments.append(attachment)
            case .failure(let error):
                page.skip("Post \(status.id), attachment \(index): \(JSONDecoding.explain(error, document: "Attachment"))")
            }
        }
        let post = PostContext(status: status, fallbackAuthor: fallbackAuthor, count: attachments.count, baseURL: baseURL)
        for (index, attachment) in attachments.enumerated() {
            guard page.items.count < maxItemsPerPage else {
                return page.skip("Post \(status.id): more than \(maxItemsPerPage) items on the page")
            }
            switch item(for: attachment, number: index + 1, in: post) {
            case .success(let item): page.items.append(item)
            case .failure(let reason): page.skip("Post \(status.id), attachment \(attachment.id): \(reason.text)")
            }
        }
    }

    /// What every attachment of one post shares.
    private struct PostContext {
        let pageURL: String?
        let author: String
        let isSensitive: Bool
        /// The post's own words for a title: its content warning when it has one (the author wants that
        /// shown instead of the text), else its text without HTML.
        let headline: String
        let date: String?
        /// `created_at`, in seconds.
        let published: Int?
        let count: Int
        /// The page's own URL, to resolve relative links against.
        let baseURL: String?

        init(status: MastodonJSON.Status, fallbackAuthor: String, count: Int, baseURL: String?) {
            pageURL = [status.url, status.uri].lazy.compactMap { URLText.webURL($0, relativeTo: baseURL) }.first
            self.baseURL = baseURL
            author = status.account?.acct.flatMap { $0.trimmed.isEmpty ? nil : String($0.trimmed.prefix(200)) } ?? fallbackAuthor
            let warning = HTMLText.headline(status.spoilerText ?? "")
            // A content warning hides the media in Mastodon's own apps, whatever `sensitive` says.
            isSensitive = status.sensitive || !warning.isEmpty
            headline = warning.isEmpty ? HTMLText.headline(HTMLText.plainText(status.content ?? "")) : warning
            // "2024-05-01T12:34:56.000Z" → "2024-05-01"; anything unexpected is left out of the title.
            let day = status.createdAt.map { String($0.prefix(10)) }
            date = day.flatMap { $0.count == 10 && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") } ? $0 : nil }
            published = DateText.published(iso8601: status.createdAt)
            self.count = count
        }
    }

    private struct SkipReason: Error { let text: String }

    /// One attachment as an item. Images, GIF-videos, videos and sounds open in the app's viewer (the latter
    /// three play their `url`); unknown media open the post in the browser.
    private static func item(for attachment: MastodonJSON.MediaAttachment, number: Int,
                             in post: PostContext) -> Result<GalleryItem, SkipReason> {
        let mediaURL = URLText.webURL(attachment.url, relativeTo: post.baseURL)
            ?? URLText.webURL(attachment.remoteURL, relativeTo: post.baseURL)
        let previewURL = URLText.webURL(attachment.previewURL, relativeTo: post.baseURL)
        // URLs the server did name, but not as web addresses (`javascript:`, `file:`): the row says so.
        let namedOtherURLs = [attachment.url, attachment.remoteURL, attachment.previewURL]
            .contains { $0.map { !$0.trimmed.isEmpty } ?? false }
        let type = attachment.type.lowercased()
        let kind: GalleryItem.Kind = switch type {
        case "image": .image
        case "gifv", "video": .video
        case "audio": .audio
        default: .other
        }
        var fullImageURL: String?
        if kind == .image {
            // `url` and `remote_url` are both null while a server is still processing an upload. The preview
            // is the same picture, only smaller: better a small image than a missing one. With no preview
            // either, there is nothing to show at all.
            fullImageURL = mediaURL ?? previewURL
            guard fullImageURL != nil || namedOtherURLs else {
                return .failure(SkipReason(text: "image without any URL"))
            }
        } else if previewURL == nil && post.pageURL == nil {
            return .failure(SkipReason(text: "\(type) without a preview or a post to open"))
        }
        let small = attachment.meta?.small
        let thumbnails = previewURL.map { [GalleryItem.Thumbnail(url: $0, width: small?.width, height: small?.height)] } ?? []
        let altText = attachment.description.map { String($0.trimmed.prefix(maxAltTextLength)) }.flatMap { $0.isEmpty ? nil : $0 }
        var item = GalleryItem(
            id: attachment.id, title: title(altText: altText, number: number, post: post), kind: kind,
            thumbnails: thumbnails, fullImageURL: fullImageURL, pageURL: post.pageURL, author: post.author,
            altText: altText, isSensitive: post.isSensitive,
            width: attachment.meta?.original?.width, height: attachment.meta?.original?.height, published: post.published)
        item.suggestedFileName = fileName(id: attachment.id, type: type, url: mediaURL ?? fullImageURL)
        item.mediaURLRejected = kind == .image && fullImageURL == nil
        if kind == .video || kind == .audio, let mediaURL {
            item.media = .init(url: mediaURL, seconds: attachment.meta?.duration, loops: type == "gifv")
        }
        return .success(item)
    }

    /// Mastodon media have no titles. The alt text describes this very attachment, so it comes first; then
    /// the post's content warning or text, numbered when the post has several attachments; then who and when.
    private static func title(altText: String?, number: Int, post: PostContext) -> String {
        let numbering = post.count > 1 ? " (\(number)/\(post.count))" : ""
        // The alt text would describe what the content warning hides; the warning wins for sensitive posts.
        if let altText, !post.isSensitive { return HTMLText.headline(altText) }
        if !post.headline.isEmpty { return post.headline + numbering }
        guard let date = post.date else { return tr("Post by @{author}", ["author": post.author]) + numbering }
        // TRANSLATORS: a Mastodon post's title when it has no text; {date} is like 2024-04-27.
        return tr("Post by @{author}, {date}", ["author": post.author, "date": date]) + numbering
    }

    /// The row's file name: the media URL's own name when it has an extension. Remote media are often stored
    /// under bare ids or a shared name like "original", which would read badly in the row and, in
    /// `--download`, make every such file a clash renamed by its id; so those become the attachment id plus
    /// the usual extension of the media type (Mastodon converts GIFs and videos to MP4 and audio to MP3).
    static func fileName(id: String, type: String, url: String?) -> String {
        if let segment = url.flatMap(URLText.lastPathSegment), FileExtension.exists(in: segment) { return segment }
        let safeID = String(id.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }
            .map(Character.init).prefix(64))
        let stem = safeID.isEmpty ? "mastodon-media" : safeID
        let ext: String? = switch type {
        case "image": "jpg"
        case "gifv", "video": "mp4"
        case "audio": "mp3"
        default: nil
        }
        return ext.map { "\(stem).\($0)" } ?? stem
    }

    // MARK: - Account names

    /// "user@instance" or "@user@instance" → (user, instance), with messages that say what to type.
    static func split(_ text: String) throws(GalleryError) -> (user: String, instance: String) {
        let address = try FediverseAddress.split(text, service: service, example: "alice@mastodon.social")
        return (address.user, address.server)
    }
}
