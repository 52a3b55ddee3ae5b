/// Why a gallery could not be shown, worded for the window: a short title for the subtitle and status page,
/// and a sentence that says what to do.
public enum GalleryError: Error, Equatable, Sendable {
    case invalidUsername(reason: String)
    case noSuchUser(service: String, username: String)
    case emptyGallery(username: String)
    case signInRequired(service: String)
    case refused(service: String, status: UInt32)
    case rateLimited(service: String, retryAfterSeconds: Int?)
    case malformedResponse(service: String, detail: String)
    case serverError(service: String, status: UInt32, reason: String)
    case network(service: String, detail: String)
    case certificate(service: String, detail: String)
    /// Paging did not end: a "next" link repeated or the page limit was reached.
    case pagingLoop(service: String)
    /// A "next" link pointed at a host other than the service (or its override).
    case foreignLink(service: String, host: String)
    /// Reply after reply without items, each linking to another.
    case emptyPages(service: String, count: Int)
    /// Showing a saved copy of the first page: what it does not hold needs the network.
    case offline(service: String)

    public var title: String {
        switch self {
        case .invalidUsername: "Not a valid username"
        case .noSuchUser(_, let username): "No such user: \(username)"
        case .emptyGallery(let username): "\(username) has no images yet"
        case .signInRequired: "Sign-in required"
        case .refused(let service, _): "\(service) refused the request"
        case .rateLimited(let service, _): "\(service) asks to slow down"
        case .malformedResponse(let service, _): "\(service) sent a response the app could not read"
        case .serverError(let service, let status, _): "\(service) had a problem (HTTP \(status))"
        case .network: "Could not connect"
        case .certificate: "Untrusted certificate"
        case .pagingLoop(let service): "\(service) kept sending the same pages"
        case .foreignLink(let service, _): "\(service) sent a link to another server"
        case .emptyPages(let service, _): "\(service) sent only empty pages"
        case .offline: "Offline"
        }
    }

    public var explanation: String {
        switch self {
        case .invalidUsername(let reason): reason
        case .noSuchUser(let service, let username): "\(service) has no user called “\(username)”. Check the spelling."
        case .emptyGallery: "This gallery is empty."
        case .signInRequired(let service): "This server requires sign-in to view profiles (\(service))."
        case .refused(_, let status): "The service answered HTTP \(status). It may block anonymous access."
        case .rateLimited(_, let seconds?): "Too many requests. Trying again in \(Self.duration(seconds))."
        case .rateLimited: "Too many requests. Try again later."
        case .malformedResponse(_, let detail): detail
        case .serverError(_, _, let reason): "\(reason). Try again later."
        case .network(_, let detail): "\(detail). Check your network connection."
        case .certificate(_, let detail): "\(detail). The connection was not made."
        case .pagingLoop: "Stopped loading more pages."
        case .foreignLink(_, let host): "The next page is on \(host); it was not followed."
        case .emptyPages(_, let count): "Stopped after \(count) pages in a row without any images."
        case .offline(let service): "\(service) cannot be reached. Try again when you are back online."
        }
    }

    static func duration(_ seconds: Int) -> String {
        seconds < 60 ? "\(seconds) s" : "\((seconds + 59) / 60) min"
    }
}
