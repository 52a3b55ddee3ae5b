import GObjectBindings

/// A Bluesky account's media, read from the public AppView without signing in:
/// 1. `GET /xrpc/app.bsky.actor.getProfile?actor=HANDLE` → the account's DID and labels (stage "profile");
/// 2. `GET /xrpc/app.bsky.feed.getAuthorFeed?actor=DID&filter=posts_with_media&limit=50`, paged by `cursor`.
public struct BlueskySource: GallerySource {
    public enum Stage {
        public static let profile = "profile"
        public static let feed = "feed"
    }

    public let kind = SourceKind.bluesky
    /// The handle (lower-cased) or DID, as shown in messages.
    public let username: String
    public let endpoint: Endpoint

    static let service = SourceKind.bluesky.displayName
    static let headers = ["Accept": "application/json"]

    public init(actor: String, endpointOverride: String?) throws(GalleryError) {
        username = try BlueskyActor.validate(actor)
        endpoint = Endpoint(canonical: "https://public.api.bsky.app", override: endpointOverride)
    }

    public func firstRequest() -> PageRequest {
        PageRequest(url: endpoint.url("/xrpc/app.bsky.actor.getProfile?actor=\(URLText.encodeComponent(username))"),
                    stage: Stage.profile, headers: Self.headers)
    }

    public func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        throw .malformedResponse(service: Self.service, detail: "Bluesky galleries are not read yet.")
    }
}
