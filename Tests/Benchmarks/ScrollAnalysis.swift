/// Matches the server's request log (arrival times, same monotonic clock) against the rows' visibility.
///
/// Timing tolerance: the server stamps a request within ~1 ms of its arrival, and arrival follows the fetch
/// start by well under a millisecond on loopback; `slack` (3 ms) absorbs both, always in the direction that
/// does not count a fetch as wrong when it might have been right.
struct ScrollAnalysis {
    static let slack: Int = 3_000

    var rowsShown = 0
    var leftBeforeFetch = 0
    var leftBeforeFetchFetchedLater = 0
    var requestsUntilSettled = 0
    var staleUntilSettled = 0
    var requestsAfterSettled = 0
    /// Fetches that started for a row already scrolled past while a row certainly on screen was still
    /// waiting for its own — the one thing priorities exist to prevent.
    var inversions = 0
    var neverShown = 0
    var duplicates = 0

    /// `requests`: every thumbnail request of the run, including those before the scroll `start`ed (the
    /// rows on screen at the top were fetched then).
    init(requests: [DemoServerProcess.Request], start: Int, rowOfPath: [String: Int], timeline: VisibilityTimeline,
         settled: Int) {
        let shown = timeline.everShown
        rowsShown = shown.count
        var firstRequest: [Int: Int] = [:]
        var seen: Set<String> = []
        for request in requests {
            if !seen.insert(request.path).inserted { duplicates += 1 }
            guard let row = rowOfPath[request.path] else { continue }
            if firstRequest[row] == nil { firstRequest[row] = request.time }
        }
        for request in requests where request.time >= start {
            guard let row = rowOfPath[request.path] else { continue }
            guard shown.contains(row) else {
                neverShown += 1
                continue
            }
            let time = request.time - Self.slack
            guard request.time <= settled else {
                requestsAfterSettled += 1
                continue
            }
            requestsUntilSettled += 1
            guard timeline.certainlyScrolledPast(row, at: time) else { continue }
            staleUntilSettled += 1
            // A visible row that certainly entered before this fetch began and whose own request came later.
            let waiting = timeline.rowsCertainlyVisible(at: time).filter { other in
                (firstRequest[other] ?? .max) > request.time + Self.slack
            }
            if !waiting.isEmpty { inversions += 1 }
        }
        for row in shown {
            guard let interval = timeline.intervals[row]?.first, let left = interval.leftBy else { continue }
            let requested = firstRequest[row]
            if requested.map({ $0 > left + Self.slack }) ?? true {
                leftBeforeFetch += 1
                if requested != nil { leftBeforeFetchFetchedLater += 1 }
            }
        }
    }
}
