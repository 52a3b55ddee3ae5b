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
    /// The service turns requests away for a while (DeviantArt's 403 while it rate-limits or blocks a client):
    /// waited out like a rate limit.
    case refusingForNow(service: String, retryAfterSeconds: Int?)
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
    /// A link typed or pasted instead of a username that names no profile the app can show; `reason` says why.
    case unusableLink(reason: String)
    /// A `/@NAME` link's server runs software the app does not read (NodeInfo's software name).
    case unsupportedServer(server: String, software: String)
    /// A `/@NAME` link's server did not say what it runs (no NodeInfo, or a broken one).
    case unidentifiedServer(server: String, detail: String)

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
        case .refusingForNow(let service, _): tr("{service} is refusing requests for now", ["service": service])
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
        case .unusableLink: tr("Not a profile link the app can use")
        // TRANSLATORS: {server} is a server's name such as example.social, {software} what it runs, such as Lemmy.
        case .unsupportedServer(let server, let software): tr("{server} runs {software}", ["server": server, "software": software])
        case .unidentifiedServer(let server, _): tr("Cannot tell what {server} runs", ["server": server])
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
        case .refusingForNow(_, let seconds?):
            tr("Try again later; trying again by itself in {duration}.", ["duration": Self.duration(seconds)])
        case .refusingForNow: tr("Try again later.")
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
        case .unusableLink(let reason):
            // TRANSLATORS: {reason} says what is wrong with the link; keep the example links as they are.
            tr("{reason} The app reads profile links of DeviantArt (https://www.deviantart.com/NAME), Mastodon and Misskey (https://SERVER/@NAME), Bluesky (https://bsky.app/profile/HANDLE) and Wikimedia Commons (https://commons.wikimedia.org/wiki/User:NAME).",
               ["reason": reason])
        case .unsupportedServer:
            tr("The app shows galleries from Mastodon and Misskey servers and their kin, not from this one.")
        case .unidentifiedServer(_, let detail):
            // TRANSLATORS: {detail} says what went wrong; Mastodon, Misskey and NAME@SERVER stay as they are.
            tr("{detail} If you know it runs Mastodon or Misskey, pick that source and type NAME@SERVER.", ["detail": detail])
        }
    }

    /// A wait the feed sits out by itself (a rate limit, a refusal for now), with the seconds it waits.
    public func retrying(in seconds: Int?) -> GalleryError? {
        switch self {
        case .rateLimited(let service, _): .rateLimited(service: service, retryAfterSeconds: seconds)
        case .refusingForNow(let service, _): .refusingForNow(service: service, retryAfterSeconds: seconds)
        default: nil
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
