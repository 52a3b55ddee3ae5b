import CGLib
import GObjectBindings
import GalleryCore
import GalleryDemoServer

/// The followed galleries of the New-view benchmarks: `feed-G` (G from 1) is the demo's synthetic gallery seen
/// from item `spacing × G + headroom − step` on, newest first, so every gallery has images of its own (the
/// demo's `huge-N` galleries all begin with the same items, which the New view would show once) and each
/// growth step (`/grow`) puts one newer image at the top of every gallery. Only the feed pages come from here;
/// the items, their pages and their pictures are the demo server's (`imagesBaseURL`).
enum FollowedFeeds {
    static let spacing = 1_000
    /// Growth steps a gallery has room for before it reaches the images of the gallery before it.
    static let headroom = 500

    static func name(_ gallery: Int) -> String { "feed-\(gallery)" }

    /// The demo index (1-based) of the gallery's newest image at `step`.
    static func firstIndex(of gallery: Int, step: Int) -> Int { spacing * gallery + headroom - step }

    /// A follow time (ms since 1970) after which exactly the `count` newest images of `gallery` at step 0 are
    /// new: the demo dates its synthetic images 10 minutes apart.
    static func followedAt(_ gallery: Int, newImages count: Int, catalog: DemoCatalog) throws(BenchmarkError) -> Int64 {
        guard let huge = DemoHugeGallery(name: "huge", catalog: catalog) else {
            throw BenchmarkError(description: "the demo catalog has no synthetic gallery")
        }
        return Int64(huge.item(index: firstIndex(of: gallery, step: 0) + count - 1).published) * 1000 - 1
    }
}

/// `gallery-benchmarks serve --followed-feeds IMAGES_BASE_URL`: the feeds of `FollowedFeeds`, in the serve
/// child process as the demo server is.
@MainActor
final class FollowedFeedsServer: ServedForBenchmark {
    private let http = LocalHTTPServer(serverHeader: "gallery-benchmarks")
    private let gallery: DemoHugeGallery
    private let imagesBaseURL: String
    private var step = 0

    init(imagesBaseURL: String, catalog: DemoCatalog) throws(BenchmarkError) {
        guard let gallery = DemoHugeGallery(name: "huge-\(DemoHugeGallery.maxCount)", catalog: catalog) else {
            throw BenchmarkError(description: "the demo catalog has no synthetic gallery")
        }
        self.gallery = gallery
        self.imagesBaseURL = imagesBaseURL
    }

    func start() throws(GLibError) {
        try http.start { [weak self] message in self?.handle(message) }
    }

    var baseURL: String { http.baseURL }
    var acceptedConnections: Int { http.acceptedConnections }
    var requestCount: Int { http.requestCount }
    var requestLog: [String] { http.requestLog }
    func stop() { http.stop() }

    private func handle(_ message: Soup.ServerMessage) {
        if message.path == "/grow" {
            step = min(step + 1, FollowedFeeds.headroom)
            return ResponseWriter.send(.text("step \(step)\n"), to: message)
        }
        let prefix = "gallery:feed-"
        guard message.path == "/rss.xml", let search = message.query["q"], search.hasPrefix(prefix),
              let number = Int(search.dropFirst(prefix.count)), number >= 1,
              FollowedFeeds.firstIndex(of: number + 1, step: 0) < DemoHugeGallery.maxCount else {
            return ResponseWriter.send(.html(status: 404, title: "No such user", message: "No such feed."), to: message)
        }
        // The first page starts at the gallery's newest image; the next ones as its "next" links say (the
        // demo's own offsets, which stay as they are).
        let offset = message.query["offset"].flatMap { Int($0) } ?? FollowedFeeds.firstIndex(of: number, step: step) - 1
        let xml = DemoFeed.render(huge: gallery, offset: offset, baseURL: imagesBaseURL)
            .replacing(gallery.name, with: FollowedFeeds.name(number))
            .replacing(imagesBaseURL + "/rss.xml", with: baseURL + "/rss.xml")
        ResponseWriter.send(.text(xml, contentType: "application/rss+xml; charset=utf-8"), to: message)
    }
}
