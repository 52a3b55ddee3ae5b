/// Guards a feed against paging without end: a repeated "next" link, a feed that invents pages forever, and
/// pages without items that each link to another. Keeps the keys of every request sent, for the whole feed.
@MainActor
final class PagingGuard {
    /// Pages, lookups included, before the feed is considered endless: far past any real gallery (100,000
    /// items are 4,167 pages of 24), so only a feed that invents pages forever meets it.
    var maxRequests = 100_000
    /// The longest page URL followed: a service's next links are a few hundred bytes; each URL is kept (in
    /// `requestedKeys`) for the whole feed, so a feed of megabyte-long links would grow without bound.
    static let maxLinkBytes = 8 * 1024
    /// The keys (`PageRequest.key`) of the requests sent: a URL, or a URL and a body.
    private var requestedKeys: Set<String> = []
    private var emptyRepliesInARow = 0

    /// Counts `request` as sent; false once `maxRequests` were, and then it must not be.
    func admit(_ request: PageRequest) -> Bool {
        guard requestedKeys.count < maxRequests else { return false }
        requestedKeys.insert(request.key)
        return true
    }

    /// A request refused for now is asked again later: it does not make a loop with itself.
    func forget(_ request: PageRequest) {
        requestedKeys.remove(request.key)
    }

    func wasRequested(_ request: PageRequest) -> Bool { requestedKeys.contains(request.key) }

    /// A "next" link back to a page already requested would page forever.
    func loops(to next: PageRequest?) -> Bool { next.map { wasRequested($0) } ?? false }

    /// A page may be asked for ahead only while replies bring items, and within `maxRequests`: a feed of
    /// empty pages is followed one page at a time, and stopped after as many requests as without read-ahead.
    var mayAskAhead: Bool { emptyRepliesInARow == 0 && requestedKeys.count < maxRequests }

    /// Counts a reply without items (a lookup, or a page whose items were all filtered out); returns how many
    /// came in a row.
    func countEmptyReply() -> Int {
        emptyRepliesInARow += 1
        return emptyRepliesInARow
    }

    func countItems() { emptyRepliesInARow = 0 }
}
