import GObjectBindings

/// A Misskey-family account's media (Misskey, Sharkey, Firefish, Iceshrimp…), read from the public API without
/// signing in. Every call is a POST with a JSON body:
/// 1. `/api/users/show {"username","host"}` → the user's id (stage "show", no items); a user who shows notes
///    to signed-in people only ends here with a message;
/// 2. `/api/users/notes {"userId","withFiles":true,"withRenotes":false,"limit":40,"untilId"}`, paged by
///    `untilId` = the last note's id until a reply is an empty array.
/// Every file of a note is one item (see `MisskeyItems`). A followed gallery's check starts at 2 with the id an
/// earlier lookup gave (`firstRequest(resolved:)`); NO_SUCH_USER there (the account gone) looks it up again.
public struct MisskeySource: GallerySource {
    public enum Stage {
        public static let show = "show"
        public static let notes = "notes"
        /// The first page of notes asked for by a remembered user id.
        public static let resolvedNotes = "notes-resolved"
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
    static let headers = ["Accept": "application/json", "Content-Type": "application/json"]
    /// Notes per page (the API allows 1–100).
    static let pageSize = 40

    /// `server`: the Misskey server to ask about a user of another server (its copy of a remote account,
    /// "host" in the request); nil asks the user's own server.
    public init(account: String, endpointOverride: String?, server: String? = nil) throws(GalleryError) {
        (user, host) = try Self.split(account)
        username = "\(user)@\(host)"
        if let server { self.server = try Self.split("x@\(server)").host } else { self.server = host }
        endpoint = Endpoint(canonical: "https://\(self.server)", override: endpointOverride)
    }

    public func firstRequest() -> PageRequest {
        // The server's own users are asked for with a null host; compared with the server asked, not with the
        // endpoint (an override stands in for that server).
        let body = MisskeyJSON.ShowBody(username: user, host: host == server ? nil : host)
        return PageRequest(url: endpoint.url("/api/users/show"), stage: Stage.show, headers: Self.headers,
                           method: "POST", body: MisskeyJSON.body(body))
    }

    public func firstRequest(resolved resolution: SourceResolution) -> PageRequest? {
        guard Self.isID(resolution.accountID) else { return nil }
        return notesRequest(userID: resolution.accountID, untilID: nil, stage: Stage.resolvedNotes)
    }

    public func parse(_ response: HTTPResponse, of request: PageRequest) throws(GalleryError) -> PageResult {
        if request.stage == Stage.resolvedNotes, !response.head.isSuccess, errorCode(response) == "NO_SUCH_USER" {
            return .staleResolution
        }
        try check(response)
        if request.stage == Stage.show {
            let user = try MisskeyJSON.decode(MisskeyJSON.User.self, from: response.body, document: tr("Account"))
            return PageResult(items: [], next: try notesRequest(user: user),
                              profile: .fromReply(displayName: user.name, avatar: user.avatarUrl, endpoint: endpoint),
                              resolution: SourceResolution(accountID: user.id))
        }
        let context = MisskeyItems.Context(username: username, user: user, server: server, baseURL: response.head.url)
        let page = try MisskeyItems.page(from: response.body, context: context)
        guard let lastID = page.lastNoteID, let userID = Self.userID(in: request) else {
            return PageResult(items: page.content.items, next: nil)
        }
        return PageResult(items: page.content.items, next: notesRequest(userID: userID, untilID: lastID))
    }

    // MARK: - Requests

    private func notesRequest(user: MisskeyJSON.User) throws(GalleryError) -> PageRequest {
        if user.requireSigninToViewContents {
            throw .onlyForSignedInViewers(service: Self.service, username: username)
        }
        guard Self.isID(user.id) else {
            throw .malformedResponse(service: Self.service, detail: tr("The server sent an account id the app cannot use."))
        }
        return notesRequest(userID: user.id, untilID: nil)
    }

    private func notesRequest(userID: String, untilID: String?, stage: String = Stage.notes) -> PageRequest {
        let body = MisskeyJSON.NotesBody(userId: userID, limit: Self.pageSize, untilId: untilID)
        return PageRequest(url: endpoint.url("/api/users/notes"), stage: stage, headers: Self.headers,
                           method: "POST", body: MisskeyJSON.body(body))
    }

    /// The user id the notes request asked for, read back from its body (the source keeps no state).
    private static func userID(in request: PageRequest) -> String? {
        guard let body = request.body else { return nil }
        let id = JSONDecoding.decodeQuietly(NotesBodyID.self, from: body)?.userId
        return id.flatMap { isID($0) ? $0 : nil }
    }

    private struct NotesBodyID: Decodable { let userId: String }

    /// Misskey's ids (aid, aidx, meid, ulid, objectid) are short runs of letters and digits.
    static func isID(_ text: String) -> Bool { SourceText.isSafeIdentifier(text, lengths: 1...64) }

    // MARK: - Errors

    /// Errors come as `{"error": {"code": …}}` with a status that differs by endpoint and version
    /// (NO_SUCH_USER is a 404 from users/show, a 400 from users/notes): the code decides.
    private func check(_ response: HTTPResponse) throws(GalleryError) {
        let head = response.head
        guard !head.isSuccess else { return }
        let code = errorCode(response)
        switch code {
        case "NO_SUCH_USER", "FAILED_TO_RESOLVE_REMOTE_USER":
            throw .noSuchUser(service: Self.service, username: username)
        case "SIGNIN_REQUIRED", "CONTENT_RESTRICTED_BY_USER":
            throw .onlyForSignedInViewers(service: Self.service, username: username)
        case "CREDENTIAL_REQUIRED", "CONTENT_RESTRICTED_BY_SERVER":
            throw .signInRequired(service: Self.service)
        default:
            break
        }
        if head.status == 404 && code == nil {
            throw .malformedResponse(service: Self.service,
                                     detail: tr("The server does not answer Misskey’s requests (HTTP 404). Is this a Misskey server?"))
        }
        try ResponseStatus.check(head, service: Self.service, username: username)
    }

    private func errorCode(_ response: HTTPResponse) -> String? {
        (try? JSONDecoding.decode(MisskeyJSON.ErrorReply.self, from: response.body, service: Self.service, document: ""))?.error.code
    }

    /// "user@host" or "@user@host" → (user, host), with messages that say what to type.
    static func split(_ text: String) throws(GalleryError) -> (user: String, host: String) {
        let address = try FediverseAddress.split(text, service: service, example: "alice@misskey.io")
        return (address.user, address.server)
    }
}
