import GObjectBindings

/// Why a gallery could not be shown, worded for the window: a short title for the subtitle and status page,
/// and a sentence that says what to do.
public enum GalleryError: Error, Equatable, Sendable {
    case invalidUsername(reason: String)
    case noSuchUser(service: String, username: String)
    case emptyGallery(username: String)
    case signInRequired(service: String)
    /// The user asked the service to show their posts to signed-in viewers only (Bluesky's
    /// `!no-unauthenticated`, Misskey's `requireSigninToViewContents`); the app does not sign in.
    case onlyForSignedInViewers(service: String, username: String)
    /// The account exists but cannot be shown: deactivated or suspended (`reason` says which).
    case accountUnavailable(service: String, username: String, reason: String)
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
        case .invalidUsername: tr("Not a valid username")
        // TRANSLATORS: {name} is the username typed in the header bar.
        case .noSuchUser(_, let username): tr("No such user: {name}", ["name": username])
        case .emptyGallery(let username): tr("{name} has no images yet", ["name": username])
        case .signInRequired: tr("Sign-in required")
        case .onlyForSignedInViewers(_, let username): tr("{name} shows posts to signed-in people only", ["name": username])
        case .accountUnavailable(_, let username, _): tr("{name} is not available", ["name": username])
        // TRANSLATORS: {service} is a service's name: DeviantArt, Mastodon, Wikimedia Commons or Demo.
        case .refused(let service, _): tr("{service} refused the request", ["service": service])
        case .rateLimited(let service, _): tr("{service} asks to slow down", ["service": service])
        case .malformedResponse(let service, _):
            tr("{service} sent a response the app could not read", ["service": service])
        // TRANSLATORS: {status} is an HTTP status code such as 503.
        case .serverError(let service, let status, _):
            tr("{service} had a problem (HTTP {status})", ["service": service, "status": status])
        case .network: tr("Could not connect")
        case .certificate: tr("Untrusted certificate")
        case .pagingLoop(let service): tr("{service} kept sending the same pages", ["service": service])
        case .foreignLink(let service, _): tr("{service} sent a link to another server", ["service": service])
        case .emptyPages(let service, _): tr("{service} sent only empty pages", ["service": service])
        case .offline: tr("Offline")
        }
    }

    public var explanation: String {
        switch self {
        case .invalidUsername(let reason): reason
        case .noSuchUser(let service, let username):
            tr("{service} has no user called “{name}”. Check the spelling.", ["service": service, "name": username])
        case .emptyGallery: tr("This gallery is empty.")
        case .signInRequired(let service): tr("This server requires sign-in to view profiles ({service}).", ["service": service])
        case .onlyForSignedInViewers(let service, let username):
            tr("{name} asked {service} not to show their posts to people who are not signed in. Gallery Viewer does not sign in; open the profile on {service} instead.",
               ["name": username, "service": service])
        case .accountUnavailable(_, _, let reason): reason
        case .refused(_, let status): tr("The service answered HTTP {status}. It may block anonymous access.", ["status": status])
        // TRANSLATORS: {duration} is "30 s" or "2 min".
        case .rateLimited(_, let seconds?):
            tr("Too many requests. Trying again in {duration}.", ["duration": Self.duration(seconds)])
        case .rateLimited: tr("Too many requests. Try again later.")
        case .malformedResponse(_, let detail): detail
        // TRANSLATORS: {reason} is a short technical reason such as "HTTP 503 Service Unavailable".
        case .serverError(_, _, let reason): tr("{reason}. Try again later.", ["reason": reason])
        // TRANSLATORS: {reason} is a short technical reason such as "Could not find the server: …".
        case .network(_, let detail): tr("{reason}. Check your network connection.", ["reason": detail])
        case .certificate(_, let detail): tr("{reason}. The connection was not made.", ["reason": detail])
        case .pagingLoop: tr("Stopped loading more pages.")
        // TRANSLATORS: {host} is a server's name such as example.com.
        case .foreignLink(_, let host): tr("The next page is on {host}; it was not followed.", ["host": host])
        case .emptyPages(_, let count):
            trn("Stopped after {count} page in a row without any images.",
                "Stopped after {count} pages in a row without any images.", count)
        case .offline(let service): tr("{service} cannot be reached. Try again when you are back online.", ["service": service])
        }
    }

    /// Title and explanation on one line, for the terminal.
    public var sentence: String {
        // TRANSLATORS: an error on the terminal: {title} is like "No such user: bob", {explanation} a sentence.
        tr("{title}. {explanation}", ["title": title, "explanation": explanation])
    }

    /// "30 s", "2 min": a wait, rounded up to whole minutes from a minute on.
    static func duration(_ seconds: Int) -> String {
        // TRANSLATORS: a duration, in seconds, abbreviated.
        seconds < 60 ? tr("{seconds} s", ["seconds": seconds])
            // TRANSLATORS: a duration, in minutes, abbreviated.
            : tr("{minutes} min", ["minutes": (seconds + 59) / 60])
    }
}
