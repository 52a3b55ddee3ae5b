import GObjectBindings

/// Items from one page of `app.bsky.feed.getAuthorFeed`. Only the account's own posts count: a repost
/// (`reason` `reasonRepost`), a post by another author and a quoted post (`record#view`, the record part of
/// `recordWithMedia#view`) are left out. Each image is an item; a video is one item of kind `.video`, played
/// from its original on the author's PDS when that is known (`BlueskyIdentity`), else opening the post.
enum BlueskyItems {
    /// A hostile page cannot make more rows than a real one ever has (50 posts × 10 gallery images).
    static let maxItemsPerPage = 1000
    /// The official app's limit for alt text is 2000 characters; the item keeps 1500.
    static let maxAltTextLength = 2000
    /// Record keys are at most 512 characters by the spec; real ones (TIDs) are 13.
    static let maxRecordKeyLength = 512
    /// What the AppView says for a handle that failed verification (it no longer resolves to the account).
    static let invalidHandle = "handle.invalid"

    struct Page {
        var items: [GalleryItem] { content.items }
        var content = SourcePage()
        /// Posts on the page, read or not: none means the end of the feed.
        var postCount = 0
        var cursor: String?
        /// The handle the account's own posts name it by (its current one), from the first of them; nil when
        /// they name none or `invalidHandle`, which says only that the handle failed verification, not whose it is.
        var ownHandle: String?
    }

    /// `did`: the account's DID (the feed's `actor`); `username`: what the user typed, for messages.
    /// `pds`: the author's PDS (`BlueskyIdentity`), where videos are played from; nil: they open the post.
    static func page(from body: Bytes, did: String, username: String, baseURL: String?, pds: String? = nil) throws(GalleryError) -> Page {
        let reply = try BlueskyJSON.decode(BlueskyJSON.FeedPage.self, from: body, document: tr("List of posts"))
        var page = Page(postCount: reply.feed.totalCount, cursor: reply.cursor)
        var postsRead = 0
        for (index, entry) in reply.feed.enumerated() {
            switch entry.result {
            case .failure(let error):
                page.content.skip(JSONDecoding.explain(error, document: tr("Post {number}", ["number": index])))
            case .success(let entry):
                postsRead += 1
                if page.ownHandle == nil, entry.post.author.did == did, entry.post.author.handle?.lowercased() != invalidHandle {
                    page.ownHandle = entry.post.author.handle
                }
                try append(entry, did: did, username: username, baseURL: baseURL, pds: pds, to: &page.content)
            }
        }
        if reply.feed.leftOut > 0 {
            page.content.skip("\(reply.feed.leftOut) posts beyond the first \(reply.feed.count) were not read")
        }
        if !reply.feed.isEmpty && postsRead == 0 {
            throw .malformedResponse(service: BlueskySource.service,
                                     detail: tr("No post on the page could be read. {reason}", ["reason": page.content.skipped.first ?? ""]))
        }
        return page
    }

    private static func append(_ entry: BlueskyJSON.FeedViewPost, did: String, username: String, baseURL: String?,
                               pds: String?, to page: inout SourcePage) throws(GalleryError) {
        let post = entry.post
        if let reason = entry.reason, reason != "app.bsky.feed.defs#reasonPin" {
            return page.skip("\(post.uri): a repost")
        }
        guard did.isEmpty || post.author.did == did else { return page.skip("\(post.uri): by another account") }
        let accountLabels = BlueskyLabels.values(of: post.author.labels)
        if accountLabels.contains(BlueskyLabels.noUnauthenticated) {
            throw .onlyForSignedInViewers(service: BlueskySource.service, username: username)
        }
        let postLabels = BlueskyLabels.values(of: post.labels).union(post.record?.selfLabels.prefix(10) ?? [])
        if postLabels.contains(BlueskyLabels.hide) { return page.skip("\(post.uri): labelled !hide") }
        let media: BlueskyJSON.Media
        switch post.embed {
        case .media(let own)?, .recordWithMedia(let own)?: media = own
        case .record?: return page.skip("\(post.uri): a quote without media of its own")
        case .other(let type)?: return page.skip("\(post.uri): an embed of type \(DisplayText.clean(type, limit: 80))")
        case nil: return page.skip("\(post.uri): no embed")
        }
        var images: [BlueskyJSON.Image] = []
        var video: BlueskyJSON.Video?
        switch media {
        case .images(let list):
            images = collect(list, post: post.uri, into: &page)
        case .gallery(let members):
            let list = collect(members, post: post.uri, into: &page)
            images = list.compactMap { if case .image(let image) = $0 { image } else { nil } }
            if images.count < list.count { page.skip("\(post.uri): gallery members of unknown types") }
        case .video(let one):
            video = one
        case .external, .other:
            return page.skip("\(post.uri): a link card, no media")
        }
        let context = PostContext(post: post, count: video == nil ? images.count : 1,
                                  isSensitive: !postLabels.union(accountLabels).isDisjoint(with: BlueskyLabels.sensitive),
                                  baseURL: baseURL)
        if let video {
            let original = pds.flatMap { pds in video.cid.flatMap { BlueskyIdentity.blobURL(pds: pds, did: post.author.did, cid: $0) } }
            return add(item(for: video, original: original, in: context), post: post.uri, to: &page)
        }
        for (index, image) in images.enumerated() {
            guard page.items.count < maxItemsPerPage else {
                return page.skip("\(post.uri): more than \(maxItemsPerPage) items on the page")
            }
            add(item(for: image, number: index + 1, in: context), post: post.uri, to: &page)
        }
    }

    private static func collect<T>(_ list: CappedList<Lenient<T>>, post: String, into page: inout SourcePage) -> [T] {
        list.enumerated().compactMap { index, entry in
            switch entry.result {
            case .success(let value): return value
            case .failure(let error):
                page.skip("\(post), media \(index): \(JSONDecoding.explain(error, document: "Media"))")
                return nil
            }
        }
    }

    private static func add(_ result: Result<GalleryItem, SkipReason>, post: String, to page: inout SourcePage) {
        switch result {
        case .success(let item): page.items.append(item)
        case .failure(let reason): page.skip("\(post): \(reason.text)")
        }
    }

    // MARK: - One post

    /// What every item of one post shares.
    struct PostContext {
        let uri: String
        /// https://bsky.app/profile/HANDLE/post/RKEY (the DID when the handle is not valid).
        let pageURL: String?
        let recordKey: String?
        let author: String
        let isSensitive: Bool
        /// The first line of the post's text.
        let headline: String
        let date: String?
        /// The record's `createdAt`, else when the AppView saw the post, in seconds.
        let published: Int?
        let count: Int
        let baseURL: String?

        init(post: BlueskyJSON.PostView, count: Int, isSensitive: Bool, baseURL: String?) {
            uri = post.uri
            let recordKey = BlueskyItems.recordKey(of: post.uri)
            self.recordKey = recordKey
            let handle = post.author.handle.flatMap { handle in
                handle != BlueskyItems.invalidHandle && !handle.hasPrefix("did:") ? try? BlueskyActor.validate(handle) : nil
            }
            let did = post.author.did.hasPrefix("did:") ? try? BlueskyActor.validate(post.author.did) : nil
            let profile = handle ?? did
            pageURL = profile.flatMap { profile in recordKey.map { "https://bsky.app/profile/\(profile)/post/\($0)" } }
            author = handle ?? did ?? "unknown"
            self.isSensitive = isSensitive
            headline = HTMLText.headline(post.record?.text ?? "")
            let day = (post.record?.createdAt ?? post.indexedAt).map { String($0.prefix(10)) }
            date = day.flatMap { $0.count == 10 && $0.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "-") } ? $0 : nil }
            published = DateText.published(iso8601: post.record?.createdAt) ?? DateText.published(iso8601: post.indexedAt)
            self.count = count
            self.baseURL = baseURL
        }
    }

    struct SkipReason: Error { let text: String }

    private static func item(for image: BlueskyJSON.Image, number: Int, in post: PostContext) -> Result<GalleryItem, SkipReason> {
        let thumbnail = URLText.webURL(image.thumb, relativeTo: post.baseURL)
        let full = URLText.webURL(image.fullsize, relativeTo: post.baseURL) ?? thumbnail
        let namedAny = [image.thumb, image.fullsize].contains { !($0?.trimmed.isEmpty ?? true) }
        guard full != nil || namedAny else { return .failure(SkipReason(text: "image \(number) without any URL")) }
        let altText = self.altText(image.alt)
        var item = GalleryItem(
            id: "\(post.uri)#\(number)", title: title(altText: altText, number: number, post: post), kind: .image,
            thumbnails: thumbnail.map { [GalleryItem.Thumbnail(url: $0)] } ?? [], fullImageURL: full, pageURL: post.pageURL,
            author: post.author, altText: altText, isSensitive: post.isSensitive, published: post.published)
        item.suggestedFileName = fileName(post: post, number: number, url: full, fallbackExtension: "jpg")
        item.mediaURLRejected = full == nil
        return .success(item)
    }

    /// `original`: the video's file on the author's PDS, which the large view plays; nil: the item opens the post.
    private static func item(for video: BlueskyJSON.Video, original: String?, in post: PostContext) -> Result<GalleryItem, SkipReason> {
        let thumbnail = URLText.webURL(video.thumbnail, relativeTo: post.baseURL)
        guard thumbnail != nil || post.pageURL != nil else {
            return .failure(SkipReason(text: "video without a still or a post to open"))
        }
        let altText = self.altText(video.alt)
        var item = GalleryItem(
            id: "\(post.uri)#video", title: title(altText: altText, number: 1, post: post), kind: .video,
            thumbnails: thumbnail.map { [GalleryItem.Thumbnail(url: $0)] } ?? [], fullImageURL: nil,
            pageURL: post.pageURL, author: post.author, altText: altText, isSensitive: post.isSensitive,
            published: post.published)
        item.suggestedFileName = fileName(post: post, number: 1, url: nil, fallbackExtension: "mp4")
        item.media = original.map { GalleryItem.Media(url: $0) }
        return .success(item)
    }

    private static func altText(_ text: String?) -> String? {
        text.map { String($0.prefix(maxAltTextLength)).trimmed }.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The post's first line, numbered when the post has several items; without text, the alt text (unless
    /// the post is sensitive: it would describe what the placeholder hides); then who and when.
    private static func title(altText: String?, number: Int, post: PostContext) -> String {
        let numbering = post.count > 1 ? " (\(number)/\(post.count))" : ""
        if !post.headline.isEmpty { return post.headline + numbering }
        if let altText, !post.isSensitive { return HTMLText.headline(altText) }
        guard let date = post.date else { return tr("Post by @{author}", ["author": post.author]) + numbering }
        return tr("Post by @{author}, {date}", ["author": post.author, "date": date]) + numbering
    }

    /// "RKEY-2.jpg": the CDN's names are content ids with a format suffix ("…/bafkrei…@jpeg"), unreadable and
    /// without an extension; the post's key and the image's number say what it is. A URL elsewhere that names
    /// a file ("…/harbour.png") keeps that name.
    static func fileName(post: PostContext, number: Int, url: String?, fallbackExtension: String) -> String {
        let segment = url.flatMap(URLText.lastPathSegment)
        let format = segment.flatMap { $0.contains("@") ? $0.split(separator: "@").last.map(String.init) : nil }?.lowercased()
        if format == nil, let segment, FileExtension.exists(in: segment) { return segment }
        let stem = (post.recordKey ?? "bluesky-post") + (post.count > 1 ? "-\(number)" : "")
        let ext = switch format {
        case "jpeg", "jpg": "jpg"
        case "png": "png"
        case "webp": "webp"
        case "gif": "gif"
        default: fallbackExtension
        }
        return "\(stem).\(ext)"
    }

    /// The last path segment of an `at://DID/COLLECTION/RKEY` URI when it is a record key by the spec's
    /// syntax (letters, digits and `.-_:~`; never "." or "..").
    static func recordKey(of uri: String) -> String? {
        guard uri.hasPrefix("at://"), let key = uri.split(separator: "/").last, key != ".", key != "..",
              (1...maxRecordKeyLength).contains(key.utf8.count),
              key.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)
                  || ".-_:~".unicodeScalars.contains($0)) })
        else { return nil }
        return String(key)
    }
}
