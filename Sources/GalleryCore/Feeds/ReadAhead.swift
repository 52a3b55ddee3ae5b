import GObjectBindings

/// With read-ahead on (`loadAllPages`: every page will be wanted), the page a reply names cheaply
/// (`GallerySource.nextRequestAhead`) is asked for while the reply is parsed on a worker: the chain of pages
/// goes at the server's pace, not at the parse's. One page ahead at most, never one asked for before, within
/// `maxRequests`, and only while replies bring items (see `PagingGuard.mayAskAhead`). A feed whose parse once
/// named another page than its guess is not guessed for again, so a feed cannot make the app ask for more than
/// one page it did not need.
@MainActor
final class ReadAhead {
    private let client: HTTPClient
    /// Set by `loadAllPages`: every page will be wanted, so the next is asked for as soon as a reply names it.
    private var isOn = false
    /// Pages asked for while the page before was still being parsed.
    private(set) var pagesAskedAhead = 0
    /// The page asked for ahead of its turn, until the parse of the one before says whether it is the next.
    private var lookahead: Lookahead?
    /// A parse named another page than the one asked for ahead: no more guesses for this feed.
    private var guessedWrong = false

    init(client: HTTPClient) {
        self.client = client
    }

    func turnOn() { isOn = true }

    /// Whether to make a guess now; checked before the source is asked for one.
    var wantsGuess: Bool { isOn && !guessedWrong && lookahead == nil }

    func ask(for guess: PageRequest, with httpRequest: HTTPRequest) {
        let ahead = Lookahead(request: guess)
        lookahead = ahead
        pagesAskedAhead += 1
        ahead.fetch(httpRequest, with: client)
    }

    /// The page asked for ahead if it is `request`; any other is given up (the parse named another page).
    func take(for request: PageRequest) -> Lookahead? {
        guard let ahead = lookahead else { return nil }
        guard ahead.request == request else {
            drop(guessedWrong: true)
            return nil
        }
        lookahead = nil
        return ahead
    }

    /// A parse named `next`: a page asked for ahead that is not it was a wrong guess.
    func expect(_ next: PageRequest?) {
        if let ahead = lookahead, ahead.request != next { drop(guessedWrong: true) }
    }

    /// Gives up the page asked for ahead: the feed ended, or the parse named another page.
    func drop(guessedWrong wrong: Bool = false) {
        guard let ahead = lookahead else { return }
        if wrong { guessedWrong = true }
        ahead.cancellable.cancel()
        lookahead = nil
    }
}

/// A page asked for before the parse of the one before named it; its answer waits here until then.
@MainActor
final class Lookahead {
    let request: PageRequest
    /// Cancels the request; once the page is handed over, the page load holds it as its request in flight.
    let cancellable = Cancellable()
    private var answer: Result<HTTPResponse, HTTPError>?
    /// Set once the page is the feed's own request: the answer goes straight on. It must not hold the
    /// lookahead itself (a cycle), and is let go once it ran.
    private var onAnswer: (@MainActor (Result<HTTPResponse, HTTPError>) -> Void)?

    init(request: PageRequest) { self.request = request }

    fileprivate func fetch(_ httpRequest: HTTPRequest, with client: HTTPClient) {
        // Holds the lookahead until the answer: after the hand-over nothing else does.
        client.fetch(httpRequest, cancellable: cancellable) { [self] result in
            guard !cancellable.isCancelled else { return }
            guard let onAnswer else { return answer = result }
            self.onAnswer = nil
            onAnswer(result)
        }
    }

    /// `finish` gets the answer: now if it came, else when it comes.
    func handOver(to finish: @escaping @MainActor (Result<HTTPResponse, HTTPError>) -> Void) {
        if let answer { finish(answer) } else { onAnswer = finish }
    }
}
