/// What waits in the `HostScheduler` for a connection slot: a pipeline task.
@MainActor
protocol SlotHolder: AnyObject {
    var priority: LoadPriority { get }
    /// A slot is free: start the work.
    func admit()
}

/// Admits at most `maxPerHost` tasks per host at a time and keeps the rest waiting, highest priority first,
/// then in arrival order (priorities are read when a slot frees, so a change while waiting counts). Queueing here rather than inside libsoup means a row that scrolled into view overtakes
/// rows that scrolled out, and a waiting download can be dropped without ever touching the network. Image
/// downloads and file saves share it, so `--download` and Save Image As keep the same per-host cap as the
/// window's thumbnails.
@MainActor
final class HostScheduler {
    private final class Host {
        var running = 0
        /// At most the tasks wanted at once for one host; scanned for the best when a slot frees.
        var waiting: [(holder: any SlotHolder, sequence: Int)] = []
    }

    let maxPerHost: Int
    private var hosts: [String: Host] = [:]
    private var nextSequence = 0
    private(set) var runningCount = 0
    private(set) var waitingCount = 0

    init(maxPerHost: Int) {
        precondition(maxPerHost > 0)
        self.maxPerHost = maxPerHost
    }

    /// Admits `holder` at once if `host` has a free slot (before this returns), else queues it.
    func enqueue(_ holder: any SlotHolder, host name: String) {
        let host = hosts[name] ?? Host()
        hosts[name] = host
        host.waiting.append((holder, nextSequence))
        nextSequence += 1
        waitingCount += 1
        admitWaiting(on: host, named: name)
    }

    /// `holder` ended: a running one frees its slot (the best waiting one on its host starts), a waiting one
    /// leaves the queue.
    func leave(_ holder: any SlotHolder, host name: String, wasRunning: Bool) {
        guard let host = hosts[name] else { return }
        if wasRunning {
            host.running -= 1
            runningCount -= 1
            admitWaiting(on: host, named: name)
        } else if let index = host.waiting.firstIndex(where: { $0.holder === holder }) {
            host.waiting.remove(at: index)
            waitingCount -= 1
        }
        if host.running == 0 && host.waiting.isEmpty { hosts[name] = nil }
    }

    private func admitWaiting(on host: Host, named name: String) {
        while host.running < maxPerHost, let index = bestWaiting(on: host) {
            let holder = host.waiting.remove(at: index).holder
            waitingCount -= 1
            host.running += 1
            runningCount += 1
            // May end at once and free its slot again (a refused URL does so later, but nothing relies on it).
            holder.admit()
        }
        if host.running == 0 && host.waiting.isEmpty && hosts[name] === host { hosts[name] = nil }
    }

    private func bestWaiting(on host: Host) -> Int? {
        var best: Int?
        for (index, entry) in host.waiting.enumerated() {
            guard let current = best else {
                best = index
                continue
            }
            let leader = host.waiting[current]
            if entry.holder.priority > leader.holder.priority
                || (entry.holder.priority == leader.holder.priority && entry.sequence < leader.sequence) {
                best = index
            }
        }
        return best
    }
}
