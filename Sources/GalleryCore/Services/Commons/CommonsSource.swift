import FoundationEssentials
import GObjectBindings

/// Wikimedia Commons: a user's uploads, newest first, through the MediaWiki Action API —
/// `generator=allimages&gaiuser=USER&gaisort=timestamp` with `prop=imageinfo` for URLs, sizes and types,
/// paged by merging the reply's `continue` object into the next request (API:Continue).
///
/// MediaWiki may split one batch's imageinfo across several replies (the same pages come back, those
/// already described without imageinfo). A page becomes a row in the reply that carries its imageinfo;
/// the ids already delivered for a batch that is still open travel in the next request's `stage`, so the
/// source stays a value and a page never becomes two rows.
public struct CommonsSource: GallerySource {
    public static let canonicalOrigin = "https://commons.wikimedia.org"
    static let apiPath = "/w/api.php"
    /// List rows show 96 px thumbnails, grid tiles 160 px (192 and 320 on 2× screens). 250 is the smallest
    /// of Wikimedia's standard thumbnail widths that covers a row on any screen and a tile at 1×; a 2× tile
    /// gets the 330 px standard rendering (`largeRenderings`). Standard widths come from the CDN's cache, the
    /// API rounds other widths up to the next standard one anyway, and hand-made URLs with other widths are
    /// refused (429).
    static let thumbnailWidth = 250
    /// Files per request: a screenful or two, and below imageinfo's limit of 50 thumbnails per request,
    /// past which MediaWiki would split every batch across two replies.
    static let pageSize = 24
    static let maxUsernameLength = 85
    static let pageStage = "page"
    /// Stage of a request that continues an open batch: "batch:" and the page ids already delivered.
    static let batchStagePrefix = "batch:"
    /// More ids than any real batch holds (`pageSize`); a reply that keeps a batch open past this is broken.
    static let maxOpenBatchIDs = 1000
    /// Continuation values are short tokens ("20240101000000|File.jpg"); anything near this is not.
    static let maxContinueValueLength = 2048
    static let maxContinueKeys = 16
    static var serviceName: String { SourceKind.commons.displayName }

    public var kind: SourceKind { .commons }
    public let username: String
    public let endpoint: Endpoint
    /// Sent as `maxlag` (Manual:Maxlag: non-interactive tasks should send 5): a lagged server then answers
    /// "maxlag" with a Retry-After, waited out as a rate limit. nil for what the user is looking at.
    public var maxLagSeconds: Int?

    public init(username: String, endpointOverride: String?) throws(GalleryError) {
        self.username = try Self.normalizedUsername(username)
        endpoint = Endpoint(canonical: Self.canonicalOrigin, override: endpointOverride)
    }

    // MARK: Usernames

    /// The name as MediaWiki stores it, so the request matches: "user:müller_x " → "Müller x".
    static func normalizedUsername(_ raw: String) throws(GalleryError) -> String {
        var name = raw.trimmed
        // Names copied from a user page keep their namespace.
        if name.lowercased().hasPrefix("user:") { name = String(name.dropFirst(5)) }
        // MediaWiki reads "_" as a space, collapses runs of spaces and drops directional marks.
        var scalars = String.UnicodeScalarView()
        var pendingSpace = false
        for scalar in name.unicodeScalars {
            if scalar == "_" || scalar.properties.isWhitespace {
                pendingSpace = true
            } else if [0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E].contains(scalar.value) {
                continue
            } else {
                if pendingSpace && !scalars.isEmpty { scalars.append(" ") }
                pendingSpace = false
                scalars.append(scalar)
            }
        }
        name = String(scalars)
        guard let first = name.unicodeScalars.first else {
            throw .invalidUsername(reason: tr("Enter a Wikimedia Commons username."))
        }
        guard name.unicodeScalars.count <= maxUsernameLength else {
            throw .invalidUsername(reason: trn("Commons usernames are at most {count} character long.",
                                               "Commons usernames are at most {count} characters long.", maxUsernameLength))
        }
        let forbidden = Set("#<>[]|{}/".unicodeScalars)
        guard !name.unicodeScalars.contains(where: {
            forbidden.contains($0) || $0.properties.generalCategory == .control
        }) else {
            throw .invalidUsername(reason: tr("Commons usernames cannot contain # < > [ ] | { } / or control characters."))
        }
        // MediaWiki capitalises the first letter. A letter whose capital is longer ("ß" → "SS") stays.
        let capital = String(first).uppercased().unicodeScalars
        if capital.count == 1, let upper = capital.first, upper != first {
            name = String(upper) + String(name.unicodeScalars.dropFirst())
        }
        return name
    }

    // MARK: Requests

    /// The fixed query, in a fixed order; continuation parameters are appended to it.
    var baseParameters: [(name: String, value: String)] {
        [("action", "query"), ("format", "json"), ("formatversion", "2"),
         ("generator", "allimages"), ("gaiuser", username), ("gaisort", "timestamp"), ("gaidir", "older"),
         ("gailimit", String(Self.pageSize)),
         ("prop", "imageinfo"), ("iiprop", "url|size|mime|timestamp|extmetadata"),
         ("iiurlwidth", String(Self.thumbnailWidth)),
         // The description only (extmetadata has a dozen more fields, licences and categories), in the API's
         // default language.
         ("iiextmetadatafilter", "ImageDescription"),
         // Costs nothing extra and tells "no such user" from "no uploads" (the listing alone is empty for both).
         ("list", "users"), ("ususers", username)] + (maxLagSeconds.map { [("maxlag", String($0))] } ?? [])
    }

    static let headers = ["Accept": "application/json"]

    public func firstRequest() -> PageRequest {
        PageRequest(url: requestURL(continuing: [:]), stage: Self.pageStage, headers: Self.headers)
    }

    /// The base query plus the reply's `continue` parameters. A continuation key that names a fixed
    /// parameter is dropped: a reply may page, but not switch the user, module or format.
    func requestURL(continuing continuation: [String: String]) -> String {
        let fixed = baseParameters
        let fixedNames = Set(fixed.map(\.name))
        let extra = continuation.filter { !fixedNames.contains($0.key) }.sorted { $0.key < $1.key }
            .map { (name: $0.key, value: $0.value) }
        let query = (fixed + extra)
            .map { URLText.encodeComponent($0.name) + "=" + URLText.encodeComponent($0.value) }
            .joined(separator: "&")
        return endpoint.url(Self.apiPath + "?" + query)
    }

    // MARK: Responses

    public func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        let reply = try decodeReply(response)
        let pages = reply.query?.pages?.compactMap(\.value) ?? []
        if pages.isEmpty, let user = reply.query?.users?.compactMap(\.value).first {
            if user.invalid {
                throw .invalidUsername(reason: Self.notAccepted(username))
            }
            if user.missing { throw .noSuchUser(service: Self.serviceName, username: username) }
        }

        let delivered = Self.deliveredIDs(in: request.stage)
        let builder = CommonsItemBuilder(username: username, endpoint: endpoint, baseURL: response.head.url)
        let fresh = Self.merged(pages).filter { !delivered.contains($0.pageid) }
        var items: [(item: GalleryItem, time: Double?)] = []
        for page in fresh {
            if let item = builder.item(for: page) { items.append(item) }
        }
        // formatversion=2 lists pages in no particular order: newest upload first, then by title.
        items.sort { a, b in
            switch (a.time, b.time) {
            case let (x?, y?) where x != y: x > y
            case (.some, nil): true
            case (nil, .some): false
            default: a.item.title < b.item.title
            }
        }

        var next: PageRequest?
        if let continuation = reply.continuation, !continuation.isEmpty {
            try Self.check(continuation)
            var stage = Self.pageStage
            if !reply.batchComplete {
                // The same batch comes again with the rest of its imageinfo: skip what this one delivered.
                let open = delivered.union(items.compactMap { Int($0.item.id) })
                guard open.count <= Self.maxOpenBatchIDs else {
                    throw .malformedResponse(service: Self.serviceName,
                                             detail: tr("The API kept one batch of files open without end."))
                }
                stage = Self.batchStagePrefix + open.sorted().map(String.init).joined(separator: ",")
            }
            next = PageRequest(url: requestURL(continuing: continuation), stage: stage, headers: Self.headers)
        }
        return PageResult(items: items.map(\.item), next: next)
    }

    /// Status, API error object and JSON shape, in that order: an API error explains a failure better than
    /// its status does, and is sometimes sent with a 200.
    private func decodeReply(_ response: HTTPResponse) throws(GalleryError) -> CommonsReply {
        let head = response.head
        var reply: CommonsReply?
        var failure: GalleryError?
        do throws(GalleryError) {
            reply = try JSONDecoding.decode(CommonsReply.self, from: response.body, service: Self.serviceName,
                                            document: tr("API reply"), webPageHint: tr("Is this a MediaWiki server?"))
        } catch {
            failure = error
        }
        if let apiError = reply?.error { throw galleryError(for: apiError, head: head) }
        // The API sits at a fixed address, so a 404 means the address is wrong, never that the user is.
        if head.status == 404 || head.status == 410 {
            let address = endpoint.origin + Self.apiPath
            throw .malformedResponse(service: Self.serviceName,
                                     detail: tr("There is no MediaWiki API at {address} (HTTP {status}).",
                                                ["address": address, "status": head.status]))
        }
        try ResponseStatus.check(head, service: Self.serviceName, username: username)
        guard let reply else {
            throw failure ?? .malformedResponse(service: Self.serviceName, detail: tr("The API reply is empty."))
        }
        return reply
    }

    private static func notAccepted(_ username: String) -> String {
        tr("Wikimedia Commons does not accept “{name}” as a username.", ["name": username])
    }

    /// MediaWiki's error codes (API:Errors and warnings), in the window's words.
    func galleryError(for apiError: CommonsAPIError, head: HTTPResponseHead) -> GalleryError {
        let code = apiError.code
        switch code {
        case "maxlag":
            // Replication lag: MediaWiki asks for at least 5 s, usually in Retry-After.
            return .rateLimited(service: Self.serviceName,
                                retryAfterSeconds: ResponseStatus.retryAfterSeconds(head) ?? 5)
        case "ratelimited":
            return .rateLimited(service: Self.serviceName, retryAfterSeconds: ResponseStatus.retryAfterSeconds(head))
        case "readapidenied", "permissiondenied":
            return .signInRequired(service: Self.serviceName)
        case "nosuchuser":
            return .noSuchUser(service: Self.serviceName, username: username)
        case _ where code == "baduser" || code.hasPrefix("baduser_"):
            return .invalidUsername(reason: Self.notAccepted(username))
        case _ where code.hasPrefix("internal_api_error"):
            // TRANSLATORS: {code} is the MediaWiki API's error code, such as internal_api_error_DBQueryError.
            let reason = tr("The Commons API failed internally ({code})", ["code": DisplayText.clean(code, limit: 80)])
            return .serverError(service: Self.serviceName, status: head.status, reason: reason)
        default:
            let info = DisplayText.clean(apiError.info, limit: 200)
            let reason = info.isEmpty ? tr("no reason given") : info
            // TRANSLATORS: {reason} is the API's own explanation (in English), {code} its error code.
            let detail = tr("The Commons API refused the request: {reason} ({code}).",
                            ["reason": reason, "code": DisplayText.clean(code, limit: 80)])
            return .malformedResponse(service: Self.serviceName, detail: detail)
        }
    }

    // MARK: Helpers

    /// Pages by id: a page listed twice in one reply is one file; its imageinfo may be on either entry.
    static func merged(_ pages: [CommonsReply.Page]) -> [CommonsReply.Page] {
        var order: [Int] = []
        var byID: [Int: CommonsReply.Page] = [:]
        for page in pages {
            guard var existing = byID[page.pageid] else {
                order.append(page.pageid)
                byID[page.pageid] = page
                continue
            }
            if existing.imageinfo?.isEmpty ?? true { existing.imageinfo = page.imageinfo }
            if existing.title.isEmpty { existing.title = page.title }
            byID[page.pageid] = existing
        }
        return order.compactMap { byID[$0] }
    }

    static func deliveredIDs(in stage: String) -> Set<Int> {
        guard stage.hasPrefix(batchStagePrefix) else { return [] }
        return Set(stage.dropFirst(batchStagePrefix.count).split(separator: ",").compactMap { Int($0) })
    }

    private static func check(_ continuation: [String: String]) throws(GalleryError) {
        guard continuation.count <= maxContinueKeys,
              continuation.allSatisfy({ !$0.key.isEmpty && $0.key.utf8.count <= 64
                  && $0.value.utf8.count <= maxContinueValueLength })
        else {
            throw .malformedResponse(service: serviceName,
                                     detail: tr("The API sent a continuation the app does not trust."))
        }
    }

}

/// Turns one page's imageinfo into a row.
struct CommonsItemBuilder {
    let username: String
    let endpoint: Endpoint
    /// The reply's own URL, to resolve protocol-relative links against.
    let baseURL: String

    /// Originals gdk-pixbuf decodes itself; SVG through librsvg and WebP through webp-pixbuf-loader, which the
    /// app depends on at run time. Other images (TIFF scans, XCF, DjVu) are shown through a rendering.
    static let directTypes: Set<String> = ["image/jpeg", "image/png", "image/gif", "image/svg+xml", "image/webp"]
    /// Bigger originals are slow to fetch and may pass the image loader's limit (50 MiB by default); a
    /// screen-sized rendering is what the large view shows anyway.
    static let maxOriginalBytes = 32 * 1_048_576
    /// Wikimedia's standard thumbnail widths up to a screen's width: the only ones its CDN serves for a URL
    /// built by hand (phabricator T414805).
    static let renderingWidths = [250, 330, 500, 960, 1280, 1920]
    static let maxTitleLength = 300
    /// How much of a description's HTML is read: its links and spans take several times the characters of the
    /// words shown, and the item keeps `GalleryItem.maxAltTextLength` of those.
    static let maxDescriptionHTML = 16_384

    func item(for page: CommonsReply.Page) -> (item: GalleryItem, time: Double?)? {
        // No URL: the file is missing or hidden (revision-deleted); nothing to show.
        guard let info = page.imageinfo?.first, let url = link(info.url) else {
            return rejectedURL(page)
        }
        let mime = info.mime?.lowercased().trimmed ?? ""
        let width = info.width.flatMap { $0 > 0 ? $0 : nil }
        let height = info.height.flatMap { $0 > 0 ? $0 : nil }
        let thumbnail = link(info.thumburl).map {
            GalleryItem.Thumbnail(url: $0, width: info.thumbwidth.flatMap { $0 > 0 ? $0 : nil },
                                  height: info.thumbheight.flatMap { $0 > 0 ? $0 : nil })
        }
        var kind = GalleryItem.Kind.other
        var fullImageURL: String?
        var renditions: [GalleryItem.Thumbnail] = []
        if mime.hasPrefix("image/") {
            kind = .image
            renditions = largeRenderings(of: thumbnail, originalWidth: width, originalHeight: height)
            let rendering = renditions.last?.url
            if Self.directTypes.contains(mime) {
                let tooBig = (info.size ?? 0) > Self.maxOriginalBytes
                    || ImageHeader.area(width ?? 0, height ?? 0) > ImageDecodeLimits().maxPixels
                fullImageURL = tooBig ? rendering ?? url : url
            } else {
                fullImageURL = rendering ?? thumbnail?.url
            }
            // An image the app can neither decode nor get rendered opens in the browser like a document.
            if fullImageURL == nil { kind = .other }
        } else if mime.hasPrefix("video/") {
            kind = .video
        } else if mime.hasPrefix("audio/") {
            kind = .audio
        } else if mime == "application/ogg" {
            // Old Ogg uploads carry no audio/video type; MediaWiki gives video a frame size, audio none.
            kind = width != nil ? .video : .audio
        }
        var item = GalleryItem(
            id: String(page.pageid), title: title(of: page), kind: kind,
            thumbnails: (thumbnail.map { [$0] } ?? []) + renditions, fullImageURL: fullImageURL,
            pageURL: link(info.descriptionurl) ?? endpoint.url("/wiki/" + URLText.encodeComponent(
                String(page.title.map { $0 == " " ? "_" : $0 }))),
            author: username, altText: info.imageDescription.map { HTMLText.plainText($0, limit: Self.maxDescriptionHTML) },
            width: width, height: height, published: DateText.published(iso8601: info.timestamp))
        // A video's only other URL is a still frame ("250px--Talk.webm.jpg"), a TIFF's full image a PNG
        // rendering: the row should still name the original file.
        if fullImageURL != url { item.suggestedFileName = URLText.lastPathSegment(of: url) }
        // Commons' videos and sounds are WebM and Ogg (Vorbis, Opus, Theora, VP8/VP9): the large view plays them.
        if kind == .video || kind == .audio { item.media = .init(url: url, seconds: info.duration) }
        return (item, info.timestamp.flatMap { DateText.parseISO8601($0) })
    }

    /// A page whose file URL is there but not a web address: a row that says so, rather than none.
    private func rejectedURL(_ page: CommonsReply.Page) -> (item: GalleryItem, time: Double?)? {
        guard let text = page.imageinfo?.first?.url, !text.trimmed.isEmpty else { return nil }
        var item = GalleryItem(id: String(page.pageid), title: title(of: page), kind: .image, fullImageURL: nil,
                               author: username)
        item.mediaURLRejected = true
        return (item, nil)
    }

    /// "File:Sunset über Bonn.jpg" → "Sunset über Bonn": the row shows the file name from the URL as well.
    func title(of page: CommonsReply.Page) -> String {
        var name = Substring(page.title)
        if page.ns == 6 || (page.ns == nil && name.hasPrefix("File:")), let colon = name.firstIndex(of: ":") {
            name = name[name.index(after: colon)...]
        }
        if let (stem, _) = FileExtension.split(name) { name = stem }
        return DisplayText.clean(String(name), limit: Self.maxTitleLength)
    }

    /// The same file rendered at the larger standard widths, by changing the width in the thumbnail URL
    /// ("…/lossy-page1-250px-Scan.tif.jpg" → "…/lossy-page1-1920px-Scan.tif.jpg"), smallest first: the large
    /// view picks the one that covers the screen. Empty when the image is no wider than the thumbnail or the
    /// URL does not have that form.
    func largeRenderings(of thumbnail: GalleryItem.Thumbnail?, originalWidth: Int?, originalHeight: Int?) -> [GalleryItem.Thumbnail] {
        guard let thumbnail, let originalWidth, let slash = thumbnail.url.lastIndex(of: "/") else { return [] }
        let parts = thumbnail.url[thumbnail.url.index(after: slash)...]
            .split(separator: "-", omittingEmptySubsequences: false).map(String.init)
        let tokens = Set([thumbnail.width, CommonsSource.thumbnailWidth].compactMap { $0 }.map { "\($0)px" })
        guard let index = parts.dropLast().firstIndex(where: { tokens.contains($0) }) else { return [] }
        return Self.renderingWidths.filter { $0 <= originalWidth && $0 > (thumbnail.width ?? CommonsSource.thumbnailWidth) }
            .map { target in
                var renamed = parts
                renamed[index] = "\(target)px"
                let height = originalHeight.map { max(1, Int((Double($0) * Double(target) / Double(originalWidth)).rounded())) }
                return GalleryItem.Thumbnail(url: thumbnail.url[...slash] + renamed.joined(separator: "-"), width: target,
                                             height: height)
            }
    }

    /// An absolute http(s) URL from the reply (protocol-relative and relative ones resolved), or nil.
    func link(_ text: String?) -> String? { URLText.webURL(text, relativeTo: baseURL) }
}
