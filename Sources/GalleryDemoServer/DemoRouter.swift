import CGLib
import GObjectBindings

/// Maps a request's path and query to a response: feed pages (DeviantArt's RSS, Bluesky's XRPC, Mastodon's
/// REST API, Commons' MediaWiki API), item pages, images (with faults) and avatars; and Misskey's POST API
/// (`routePost`).
/// Only names from the catalog ever reach the disk, so no request path can escape the images directory.
@MainActor
final class DemoRouter {
    /// The catalog as it is now: grown galleries (`DemoGrowth`) included.
    var catalog: DemoCatalog
    let images: ImageStore
    var baseURL = ""
    private let itemsByFileName: [String: DemoItem]

    init(catalog: DemoCatalog, images: ImageStore) {
        self.catalog = catalog
        self.images = images
        itemsByFileName = Dictionary(catalog.allItems.map { ($0.fileName, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Calls `respond` exactly once, right away or after a disk read.
    func route(path: String, query: [String: String], respond: @escaping @MainActor (ServerResponse) -> Void) {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if let nodeInfo = DemoNodeInfo.route(segments, baseURL: baseURL) { return respond(nodeInfo) }
        switch segments.first {
        case nil:
            respond(DemoPages.index(catalog: catalog, baseURL: baseURL))
        case "rss.xml" where segments.count == 1:
            respond(feed(query: query))
        case "art" where segments.count == 2:
            respond(itemPage(segments[1]))
        case "images" where segments.count == 2:
            image(fileName: segments[1], directory: "full", query: query, path: path, respond: respond)
        case "thumbs" where segments.count == 3 && DemoItem.thumbnailLongSides.map(String.init).contains(segments[1]):
            image(fileName: segments[2], directory: segments[1], query: query, path: path, respond: respond)
        case "avatars" where segments.count == 2 && segments[1].hasSuffix(".png"):
            avatar(userName: String(segments[1].dropLast(4)), respond: respond)
        case "api" where segments.count > 2 && segments[1] == "v1":
            respond(DemoMastodon.route(Array(segments.dropFirst(2)), query: query, catalog: catalog, baseURL: baseURL))
        case "w" where segments == ["w", "api.php"]:
            respond(DemoCommons.query(query, catalog: catalog, baseURL: baseURL))
        case "xrpc" where segments == ["xrpc", "com.atproto.sync.getBlob"]:
            // A PDS's blob: the demo's clip stands for every video's original.
            guard DemoBluesky.isVideoBlob(did: query["did"] ?? "", cid: query["cid"] ?? "", catalog: catalog) else {
                return respond(DemoBluesky.json(#"{"error":"BlobNotFound","message":"Blob not found"}"#, status: 400))
            }
            media(fileName: DemoMedia.clip.fileName, respond: respond)
        case "xrpc" where segments.count == 2:
            respond(xrpc(method: segments[1], query: query))
        case let did? where segments.count == 1 && did.hasPrefix("did:plc:"):
            respond(DemoBluesky.didDocument(did, catalog: catalog, baseURL: baseURL))
        case "media" where segments.count == 2:
            media(fileName: segments[1], respond: respond)
        case "video" where segments.count == 3 && segments[2] == "playlist.m3u8":
            respond(DemoBluesky.playlist())
        case let name? where segments.count == 2 && segments[1] == "gallery":
            respond(catalog.user(named: name).map { DemoPages.gallery($0, baseURL: baseURL) } ?? noSuchUser(name))
        default:
            respond(.html(status: 404, title: "Not Found", message: "Nothing lives at \(path)."))
        }
    }

    /// Misskey's API: every call is a POST with a JSON body.
    func routePost(path: String, body: Bytes) -> ServerResponse {
        switch path {
        case "/api/users/show": DemoMisskey.show(body: body, catalog: catalog, baseURL: baseURL)
        case "/api/users/notes": DemoMisskey.notes(body: body, catalog: catalog, baseURL: baseURL)
        default: DemoMisskey.json(#"{"error":{"message":"No such endpoint.","code":"NO_SUCH_ENDPOINT","id":"e5f5e3d1-0bbe-4b15-a5ce-0b39a5d6c6b6","kind":"client"}}"#, status: 404)
        }
    }

    private func xrpc(method: String, query: [String: String]) -> ServerResponse {
        let user = query["actor"].flatMap { DemoBluesky.user(forActor: $0, in: catalog) }
        switch method {
        case "app.bsky.actor.getProfile":
            return user.map { DemoBluesky.profile($0, baseURL: baseURL) } ?? DemoBluesky.notFound()
        case "app.bsky.feed.getAuthorFeed":
            guard let user else { return DemoBluesky.notFound() }
            return DemoBluesky.authorFeed(user, catalog: catalog, cursor: query["cursor"], limit: query["limit"].flatMap { Int($0) },
                                          baseURL: baseURL)
        default:
            return DemoBluesky.json(#"{"error":"MethodNotImplemented","message":"Method Not Implemented"}"#, status: 501)
        }
    }

    private func feed(query: [String: String]) -> ServerResponse {
        if let type = query["type"], type != "deviation" {
            return .html(status: 400, title: "Bad Request", message: "Only type=deviation feeds exist here.")
        }
        guard let search = query["q"], search.hasPrefix("gallery:") else {
            return .html(status: 400, title: "Bad Request", message: "Ask for q=gallery:USERNAME.")
        }
        let name = String(search.dropFirst("gallery:".count))
        let offsetText = query["offset"] ?? "0"
        guard let offset = Int(offsetText), offset >= 0 else {
            return .html(status: 400, title: "Bad Request", message: "offset must be a number of items, not \(offsetText).")
        }
        let xml: String
        if let user = catalog.user(named: name) {
            xml = DemoFeed.render(user: user, offset: offset, baseURL: baseURL)
        } else if let huge = DemoHugeGallery(name: name, catalog: catalog) {
            xml = DemoFeed.render(huge: huge, offset: offset, baseURL: baseURL)
        } else {
            return noSuchUser(name)
        }
        return .text(xml, contentType: "application/rss+xml; charset=utf-8")
    }

    private func noSuchUser(_ name: String) -> ServerResponse {
        .html(status: 404, title: "No such user", message: "No such user: \(name).")
    }

    /// "/art/<slug>-<id>": the id decides, the slug is decoration (as on the real site).
    private func itemPage(_ segment: String) -> ServerResponse {
        guard let idText = segment.split(separator: "-").last, let id = Int(idText),
              let item = catalog.item(id: id) ?? hugeItem(id: id) else {
            return .html(status: 404, title: "Not Found", message: "No deviation \(segment).")
        }
        return DemoPages.item(item, baseURL: baseURL)
    }

    /// A synthetic item's page names it by the id the feed gave it, in the default-size gallery's numbering.
    private func hugeItem(id: Int) -> DemoItem? {
        guard let index = DemoHugeGallery.index(ofID: id),
              let gallery = DemoHugeGallery(name: "huge-\(DemoHugeGallery.maxCount)", catalog: catalog) else { return nil }
        return gallery.item(index: index)
    }

    private func image(fileName: String, directory: String, query: [String: String], path: String,
                       respond: @escaping @MainActor (ServerResponse) -> Void) {
        // A synthetic item's file is the catalog file it reuses, under a name of its own.
        let fileName = DemoHugeGallery.sourceFileName(of: fileName) ?? DemoGrowth.sourceFileName(of: fileName) ?? fileName
        guard let item = itemsByFileName[fileName] else {
            return respond(.html(status: 404, title: "Not Found", message: "No demo image \(fileName)."))
        }
        var fault: DemoFault?
        if let value = query["fault"] {
            guard let parsed = DemoFault(rawValue: value) else {
                let known = DemoFault.allCases.map(\.rawValue).joined(separator: ", ")
                return respond(.html(status: 400, title: "Bad Request", message: "Unknown fault \(value); known: \(known)."))
            }
            fault = parsed
        }
        if let fault, let response = DemoFaults.responseWithoutImage(fault, redirectTarget: urlWithoutFault(path, query)) {
            return respond(response)
        }
        let contentType = item.format.mediaType
        images.load("\(directory)/\(fileName)") { result in
            switch result {
            case .success(let bytes):
                if let fault {
                    respond(DemoFaults.response(fault, image: bytes, contentType: contentType))
                } else {
                    respond(ServerResponse(headers: [("Cache-Control", "public, max-age=86400")],
                                         contentType: contentType, body: bytes))
                }
            case .failure(let error):
                respond(.html(status: 404, title: "Not Found",
                              message: "The image file is missing (\(error.message)); run `make demo-data`."))
            }
        }
    }

    /// A video or sound of `DemoMedia`. libsoup's server answers a Range request for it by itself (a 206 with
    /// that part of the complete body), as a media host does.
    private func media(fileName: String, respond: @escaping @MainActor (ServerResponse) -> Void) {
        guard let media = DemoMedia.allCases.first(where: { $0.fileName == fileName }) else {
            return respond(.html(status: 404, title: "Not Found", message: "No demo media \(fileName)."))
        }
        images.load("\(DemoMedia.folder)/\(media.fileName)") { result in
            switch result {
            case .success(let bytes):
                respond(ServerResponse(headers: [("Cache-Control", "public, max-age=86400"), ("Accept-Ranges", "bytes")],
                                       contentType: media.mediaType, body: bytes))
            case .failure(let error):
                respond(.html(status: 404, title: "Not Found",
                              message: "The media file is missing (\(error.message)); run `make demo-data`."))
            }
        }
    }

    private func avatar(userName: String, respond: @escaping @MainActor (ServerResponse) -> Void) {
        guard let user = catalog.user(named: userName) else { return respond(noSuchUser(userName)) }
        images.load("avatars/\(user.avatarFileName)") { result in
            switch result {
            case .success(let bytes):
                respond(ServerResponse(headers: [("Cache-Control", "public, max-age=86400")],
                                     contentType: "image/png", body: bytes))
            case .failure(let error):
                respond(.html(status: 404, title: "Not Found", message: "No avatar (\(error.message))."))
            }
        }
    }

    /// The same URL without `fault`, other parameters kept (sorted, so the result is stable).
    private func urlWithoutFault(_ path: String, _ query: [String: String]) -> String {
        let rest = query.filter { $0.key != "fault" }.sorted { $0.key < $1.key }
        let encoded = rest.map { "\(percentEncoded($0.key))=\(percentEncoded($0.value))" }.joined(separator: "&")
        return baseURL + path + (encoded.isEmpty ? "" : "?\(encoded)")
    }

    private func percentEncoded(_ text: String) -> String {
        takeString(g_uri_escape_string(text, nil, 0)) ?? ""
    }
}
