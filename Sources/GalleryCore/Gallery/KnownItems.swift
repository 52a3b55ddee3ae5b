/// An item of a gallery of items already known (the New view of followed galleries) and what the row says
/// of whose it is ("aurora on DeviantArt").
public struct KnownItem: Sendable {
    public var item: GalleryItem
    public var origin: String

    public init(item: GalleryItem, origin: String) {
        self.item = item
        self.origin = origin
    }
}

/// The source of a gallery of known items: it is never asked for a page (its feed ended before it began) and
/// names no service of its own, so the window neither remembers it among the recent galleries nor shows it as
/// a service's (`Gallery.isKnownItems`).
struct KnownItemsSource: GallerySource {
    /// Required by the protocol, and no service's: the window asks `Gallery.isKnownItems` before it reads a
    /// gallery's source as a service (the recent galleries, the source picker, the Follow toggle).
    var kind: SourceKind { .demo }
    var username: String { "" }
    var endpoint: Endpoint { Endpoint(canonical: "http://127.0.0.1") }
    func firstRequest() -> PageRequest { PageRequest(url: "http://127.0.0.1/") }
    func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        PageResult(items: [], next: nil)
    }
    func nextRequestAhead(_ response: HTTPResponse, of request: PageRequest) -> PageRequest? { nil }
}
