import GObjectBindings

/// A Misskey-family account's media (Misskey, Sharkey, Firefish, Iceshrimp…), read from the public API without
/// signing in. Every call is a POST with a JSON body:
/// 1. `/api/users/show {"username","host"}` → the user's id (stage "show");
/// 2. `/api/users/notes {"userId","withFiles":true,"withRenotes":false,"limit","untilId"}`, paged by `untilId`.
public struct MisskeySource: GallerySource {
    public enum Stage {
        public static let show = "show"
        public static let notes = "notes"
    }

    public let kind = SourceKind.misskey
    /// "user@host", as shown in messages.
    public let username: String
    public let user: String
    /// The user's own server: host name, lower-cased, with ":port" when one other than 443 was typed.
    public let host: String
    /// The server asked (its canonical host): the user's own unless another one was named.
    public let server: String
    public let endpoint: Endpoint

    static let service = SourceKind.misskey.displayName

    /// `server`: the Misskey server to ask about a user of another server (its copy of a remote account);
    /// nil asks the user's own server.
    public init(account: String, endpointOverride: String?, server: String? = nil) throws(GalleryError) {
        (user, host) = try Self.split(account)
        username = "\(user)@\(host)"
        if let server { self.server = try Self.split("x@\(server)").host } else { self.server = host }
        endpoint = Endpoint(canonical: "https://\(self.server)", override: endpointOverride)
    }

    public func firstRequest() -> PageRequest {
        PageRequest(url: endpoint.url("/api/users/show"), stage: Stage.show,
                    headers: ["Accept": "application/json", "Content-Type": "application/json"], method: "POST",
                    body: "{}")
    }

    public func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        throw .malformedResponse(service: Self.service, detail: "Misskey galleries are not read yet.")
    }

    /// "user@host" or "@user@host" → (user, host), with messages that say what to type.
    static func split(_ text: String) throws(GalleryError) -> (user: String, host: String) {
        let address = try FediverseAddress.split(text, service: service, example: "alice@misskey.io")
        return (address.user, address.server)
    }
}
