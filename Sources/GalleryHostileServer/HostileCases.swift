/// What the hostile server misbehaves with: image responses (`/img/NAME`) and whole feeds
/// (`/rss.xml?q=gallery:NAME`, plus a Mastodon account). Each case is something a real server has done, or
/// could do on purpose, to a client that trusts it.
public enum HostileImage: String, CaseIterable, Sendable {
    case notFound = "404"
    case serverError = "500"
    case forbidden = "403"
    /// 429 without Retry-After.
    case tooManyRequests = "429"
    /// 429 with `Retry-After: 0`.
    case tooManyRequestsRetryNow = "429-retry-after-0"
    /// 200 with an HTML page as the "image".
    case html
    /// Content-Length promises the whole image; the connection closes halfway.
    case truncated
    /// A PNG signature followed by noise.
    case corrupt
    /// 200 with an empty body.
    case empty
    /// A redirect to itself.
    case redirectLoop = "redirect-loop"
    /// A redirect to `file:///etc/passwd`.
    case redirectToFile = "redirect-file"
    case pngBomb = "png-bomb"
    case jpegBomb = "jpeg-bomb"
    case gifBomb = "gif-bomb"
    case gifFramesBomb = "gif-frames-bomb"
    case bmpBomb = "bmp-bomb"
    case webpFramesBomb = "webp-frames-bomb"
    case avifBomb = "avif-bomb"
    /// A 400 × 300 SVG wrapping a `data:` PNG that declares 30000 × 30000.
    case svgDataBomb = "svg-data-bomb"
    /// An SVG embedding an SVG embedding that PNG.
    case svgNestedBomb = "svg-nested-bomb"
    /// An SVG referring to an image on this server (`http:`) and to `file:///etc/passwd`.
    case svgExternal = "svg-external"
    /// An ICO inside an SVG.
    case svgICO = "svg-ico"
    /// 500 MB declared and generated (never held), as image/jpeg.
    case hugeBody = "huge-body"
    /// 500 MB generated without a Content-Length (chunked).
    case hugeChunkedBody = "huge-chunked-body"
    /// 1 GB of zeros, gzip-encoded (about 1 MB on the wire).
    case gzipBomb = "gzip-bomb"
    /// Headers and a little of the body, then nothing.
    case stall
    /// The connection closes before the status line.
    case reset
    /// A 100 KB image at 128 bytes per second.
    case drip
    /// A valid PNG sent as application/octet-stream.
    case octetStream = "octet-stream"
    /// A valid PNG, sent correctly: the control.
    case valid

    public var path: String { "/img/" + rawValue }

    /// The decompression bombs, whose full image is the same URL (the large view must refuse it too).
    public var isBomb: Bool {
        [.pngBomb, .jpegBomb, .gifBomb, .gifFramesBomb, .bmpBomb, .webpFramesBomb, .avifBomb, .svgDataBomb, .svgNestedBomb]
            .contains(self)
    }
}

/// Hostile feeds, each a demo username on the hostile server.
public enum HostileFeed: String, CaseIterable, Sendable {
    /// One item per `HostileImage`, items whose URLs use odd schemes, and a huge image with a rendition.
    case gallery = "hostile"
    /// A DOCTYPE that defines nested entities (the "billion laughs").
    case billionLaughs = "billion-laughs"
    /// A page whose next link is itself.
    case selfLoop = "self-loop"
    /// Pages without items whose next link is always a new one.
    case emptyPages = "empty-pages"
    /// A feed cut off mid-document.
    case truncated = "truncated-feed"
    /// A 20 MB title (the page is larger than the app reads).
    case hugeTitle = "huge-title"
    /// A 6 MB title in a page the app does read.
    case longTitle = "long-title"
    /// 100,000 nested elements.
    case deepNesting = "deep-nesting"
    /// An HTML page instead of RSS.
    case html = "html-feed"
    /// 100,000 items in one reply.
    case manyItems = "many-items"
    /// 429 with `Retry-After: 0`, forever.
    case rateLimited = "rate-limited"
    /// 429 without Retry-After, forever.
    case rateLimitedBare = "rate-limited-bare"
    /// Different images whose URLs all end in the same file name.
    case sameFileNames = "same-file-names"
    /// Titles with terminal escape sequences, tabs and newlines.
    case controlCharacters = "control-characters"
    /// A first page whose next link is as long as the app follows (`longNextLinkBytes`), and a second whose next
    /// link is one byte longer.
    case longNextLink = "long-next-link"
    /// Items whose images are on the hostile server itself and on private addresses (10.0.0.1, ::1, a
    /// v4-mapped 192.168.1.1) at its port: under a gallery counted as public, only the first may load.
    case privateMedia = "private-media"

    /// The longest next-page link the app follows (GalleryCore's `PagingGuard.maxLinkBytes`).
    public static let longNextLinkBytes = 8 * 1024

    /// The `<link>`s of the gallery's odd-URL items: none may ever reach the browser.
    public static let oddPageLinks = ["file:///etc/passwd", "smb://fileserver/share/secret.png", "javascript:alert(1)"]

    /// The Mastodon account (`zeros@any.host`) whose statuses are 3.5 million zeros.
    public static let mastodonZerosAccount = "zeros"
    public static let mastodonZerosID = "100"
}
