/// How urgently an image is wanted. Rows on screen go before rows that scrolled away; the image the user
/// opened in the large view goes before everything.
public enum LoadPriority: Int, Comparable, Sendable {
    case offscreen = 0
    case visible = 1
    case interactive = 2

    public static func < (lhs: LoadPriority, rhs: LoadPriority) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Admits at most `maxPerHost` fetches per host at a time and keeps the rest waiting by priority (then in
/// arrival order). Queueing here rather than inside libsoup means a row that scrolled into view overtakes
/// rows that scrolled out, and a waiting fetch can be dropped without ever touching the network.
@MainActor
final class FetchScheduler {
    final class Ticket {
        let host: String
        fileprivate(set) var priority: LoadPriority
        fileprivate let sequence: Int
        fileprivate let start: @MainActor (Ticket) -> Void
        fileprivate(set) var isRunning = false
        fileprivate var isFinished = false

        fileprivate init(host: String, priority: LoadPriority, sequence: Int, start: @escaping @MainActor (Ticket) -> Void) {
            self.host = host
            self.priority = priority
            self.sequence = sequence
            self.start = start
        }
    }

    let maxPerHost: Int
    private var waiting: [Ticket] = []
    private var nextSequence = 0

    init(maxPerHost: Int) {
        precondition(maxPerHost > 0)
        self.maxPerHost = maxPerHost
    }

    /// Tickets running now, oldest first. At most a few per host, so counting by scanning is cheap.
    private(set) var running: [Ticket] = []
    var runningCount: Int { running.count }
    var waitingCount: Int { waiting.count }

    /// Queues `start`, which runs once a slot for `host` is free — possibly before `submit` returns, which is
    /// why it receives its ticket. The owner must call `finish` when the work it started is over, or `cancel`
    /// to give up.
    func submit(host: String, priority: LoadPriority, start: @escaping @MainActor (Ticket) -> Void) -> Ticket {
        let ticket = Ticket(host: host, priority: priority, sequence: nextSequence, start: start)
        nextSequence += 1
        waiting.append(ticket)
        startEligible()
        return ticket
    }

    func setPriority(_ priority: LoadPriority, of ticket: Ticket) {
        ticket.priority = priority
    }

    /// Frees the slot of a running ticket, or drops a waiting one.
    func finish(_ ticket: Ticket) {
        guard !ticket.isFinished else { return }
        ticket.isFinished = true
        if ticket.isRunning {
            running.removeAll { $0 === ticket }
            startEligible()
        } else {
            waiting.removeAll { $0 === ticket }
        }
    }

    func cancel(_ ticket: Ticket) { finish(ticket) }

    private func startEligible() {
        while let next = bestEligible() {
            waiting.removeAll { $0 === next }
            next.isRunning = true
            running.append(next)
            next.start(next)
        }
    }

    private func bestEligible() -> Ticket? {
        var best: Ticket?
        for ticket in waiting where running.count(where: { $0.host == ticket.host }) < maxPerHost {
            if let current = best,
               current.priority > ticket.priority
                || (current.priority == ticket.priority && current.sequence < ticket.sequence) {
                continue
            }
            best = ticket
        }
        return best
    }
}
