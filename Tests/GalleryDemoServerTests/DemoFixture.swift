import CGLib
import FoundationXML
import GObjectBindings
import GalleryDemoServer
import TestSupport
import XCTest

/// The demo data of this source tree, with its images made on first use (as `make demo-data` would).
@MainActor
enum DemoFixture {
    static let dataDirectory = DemoGalleryLocation.sourceTreeDataDirectory
    private static var catalogCache: DemoCatalog?

    static func catalog() throws -> DemoCatalog {
        if let catalogCache { return catalogCache }
        let catalog = try DemoCatalog(contentsOf: DemoGalleryLocation.catalogPath(in: dataDirectory))
        let images = DemoGalleryLocation.imagesDirectory(in: dataDirectory)
        if !DemoImageGeneration.isUpToDate(images, for: catalog) {
            let report = try DemoImageGeneration.run(catalog: catalog, outputDirectory: images)
            print("DemoFixture: rendered \(report.rendered) demo images in \(report.seconds) s")
        }
        catalogCache = catalog
        return catalog
    }

    /// The bytes of a demo video or sound, as `make demo-data` made them.
    static func mediaBytes(_ media: DemoMedia) throws -> [UInt8] {
        _ = try catalog()
        let path = DemoGalleryLocation.imagesDirectory(in: dataDirectory) + "/\(DemoMedia.folder)/\(media.fileName)"
        var contents: UnsafeMutablePointer<gchar>?
        var length = 0
        guard g_file_get_contents(path, &contents, &length, nil) != 0, let contents else {
            throw MissingMedia(path: path)
        }
        defer { g_free(contents) }
        return Array(UnsafeRawBufferPointer(start: contents, count: length))
    }

    struct MissingMedia: Error { let path: String }

    /// A started demo server; stop it at the end of the test.
    static func startServer(options: DemoServer.Options = .init()) throws -> DemoServer {
        _ = try catalog()
        let server = try DemoServer(dataDirectory: dataDirectory, options: options)
        try server.start()
        return server
    }
}

/// Fetches or fails the test (nil only on a timeout of the fetch itself).
@MainActor
func fetchOrFail(_ url: String, session: Soup.Session, timeout: Double = 60,
                 file: StaticString = #filePath, line: UInt = #line) throws -> FetchResult {
    try XCTUnwrap(fetch(url, session: session, timeout: timeout), "no answer from \(url) in \(timeout) s",
                  file: file, line: line)
}

// MARK: - Reading the feed back, as a client would

struct FeedImage: Equatable {
    var url: String
    var width: Int
    var height: Int
}

struct FeedItem {
    var fields: [String: String] = [:]
    var credits: [String] = []
    var categoryLabel: String?
    var thumbnails: [FeedImage] = []
    var content: FeedImage?
    var guidIsPermaLink: String?
}

struct ParsedFeed {
    var channel: [String: String] = [:]
    var links: [String: String] = [:]
    var items: [FeedItem] = []
}

/// A small FoundationXML reader for the Media RSS the demo server writes. Throws on malformed XML.
final class FeedReader: NSObject, XMLParserDelegate {
    private var feed = ParsedFeed()
    private var item: FeedItem?
    private var text = ""

    static func parse(_ bytes: [UInt8]) throws -> ParsedFeed {
        let reader = FeedReader()
        let parser = XMLParser(data: Data(bytes))
        parser.delegate = reader
        // On Linux parse() can return true for a truncated document while parserError is set: check both.
        let succeeded = parser.parse()
        if let error = parser.parserError { throw error }
        guard succeeded else { throw NSError(domain: "FeedReader", code: 1) }
        return reader.feed
    }

    func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                attributes: [String: String] = [:]) {
        text = ""
        let image = { FeedImage(url: attributes["url"] ?? "", width: Int(attributes["width"] ?? "") ?? -1,
                                height: Int(attributes["height"] ?? "") ?? -1) }
        switch name {
        case "item": item = FeedItem()
        case "atom:link": feed.links[attributes["rel"] ?? "?"] = attributes["href"]
        case "media:thumbnail": item?.thumbnails.append(image())
        case "media:content": item?.content = image()
        case "media:category": item?.categoryLabel = attributes["label"]
        case "guid": item?.guidIsPermaLink = attributes["isPermaLink"]
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        if name == "item", let finished = item {
            feed.items.append(finished)
            item = nil
        } else if item != nil {
            if name == "media:credit" { item?.credits.append(text) } else { item?.fields[name] = text }
        } else {
            feed.channel[name] = text
        }
        text = ""
    }
}
