import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The rules of the pipeline's one task type, on tasks whose work the test finishes by hand: coalescing,
/// priority (the highest subscriber's, passed down to dependencies and read by the scheduler), cancellation
/// when the last subscriber leaves (down the dependencies, out of the scheduler's queue), and delivery.
final class PipelineTaskTests: GLibTestCase {
    /// What a task's work did, in order.
    @MainActor
    private final class Log {
        var lines: [String] = []
        func add(_ line: String) { lines.append(line) }
    }

    /// A task that records its start and cancellation and finishes only when the test says.
    @MainActor
    private static func task(_ name: String, _ log: Log, slot: (HostScheduler, String)? = nil) -> PipelineTask<String> {
        PipelineTask<String>(slot: slot.map { (scheduler: $0.0, host: $0.1) }) { task in
            log.add("start \(name)")
            task.onCancel = { log.add("cancel \(name)") }
        }
    }

    func testEverySubscriberHearsTheOneResultInOrderAndProgressBeforeIt() {
        MainActor.assumeIsolated {
            let log = Log()
            let task = Self.task("fetch", log)
            var heard: [String] = []
            let first = task.subscribe(priority: .visible) { event in
                if case .progress(let progress) = event { heard.append("1 progress \(progress.receivedBytes)") }
                if case .completed(let outcome) = event { heard.append("1 \((try? outcome.get()) ?? "failed")") }
            }
            _ = task.subscribe(priority: .offscreen) { event in
                if case .completed(let outcome) = event { heard.append("2 \((try? outcome.get()) ?? "failed")") }
            }
            XCTAssertEqual(log.lines, ["start fetch"], "started once, by its first subscriber")
            task.send(LoadProgress(receivedBytes: 10, expectedBytes: 20))
            task.finish(.success("bytes"))
            task.finish(.success("again"))
            XCTAssertEqual(heard, ["1 progress 10", "1 bytes", "2 bytes"], "once each, in the order they came")
            XCTAssertFalse(first.isPending)
            XCTAssertTrue(task.isEnded)
        }
    }

    func testTheTaskRunsAtItsHighestSubscribersPriority() {
        MainActor.assumeIsolated {
            let task = Self.task("fetch", Log())
            let row = task.subscribe(priority: .offscreen) { _ in }
            XCTAssertEqual(task.priority, .offscreen)
            let large = task.subscribe(priority: .interactive) { _ in }
            XCTAssertEqual(task.priority, .interactive)
            large.cancel()
            XCTAssertEqual(task.priority, .offscreen, "the highest of those still there")
            row.priority = .visible
            XCTAssertEqual(task.priority, .visible, "a change in flight counts")
            XCTAssertFalse(task.isEnded)
            // A pending subscription and its task hold each other until the task ends (as a download's
            // completion ends it in the app); this task's work never ends by itself.
            row.cancel()
        }
    }

    /// A decode depends on its download: the download runs at the decode's priority, which follows its own
    /// subscribers; the scheduler reads the download's priority when a slot frees, so a row scrolled into
    /// view overtakes one scrolled out even while both wait.
    func testPriorityChangesReachTheDependencyAndTheSchedulersQueue() {
        MainActor.assumeIsolated {
            let log = Log()
            let scheduler = HostScheduler(maxPerHost: 1)
            let blocker = Self.task("blocker", log, slot: (scheduler, "h"))
            let blocking = blocker.subscribe(priority: .visible) { _ in }
            var decodes: [PipelineTask<String>] = []
            var rows: [TaskSubscription<String>] = []
            for name in ["a", "b"] {
                let download = Self.task("download \(name)", log, slot: (scheduler, "h"))
                let decode = PipelineTask<String> { task in
                    task.dependOn(download) { event in
                        if case .completed(let outcome) = event { task.finish(outcome.map { "decoded " + $0 }) }
                    }
                }
                decodes.append(decode)
                rows.append(decode.subscribe(priority: .offscreen) { _ in })
            }
            XCTAssertEqual(scheduler.waitingCount, 2)
            XCTAssertTrue(rows[0].isWaitingForConnection, "nothing was sent for it: its download waits")
            rows[1].priority = .visible
            XCTAssertEqual(decodes[1].priority, .visible)
            blocker.finish(.success("done"))
            XCTAssertEqual(log.lines.last, "start download b", "b's row came into view while both waited: b goes first")
            XCTAssertFalse(rows[1].isWaitingForConnection)
            XCTAssertTrue(rows[0].isWaitingForConnection)
            // Tasks that never end by themselves: cancelled, so that they and the scheduler let go of each other.
            for row in rows { row.cancel() }
            blocking.cancel()
            XCTAssertEqual(scheduler.runningCount + scheduler.waitingCount, 0)
        }
    }

    /// The last subscriber leaving cancels the task and, through it, what it depends on — unless another
    /// task still wants that.
    func testTheLastSubscriberLeavingCancelsTheTaskAndTheDependenciesNobodyElseWants() {
        MainActor.assumeIsolated {
            let log = Log()
            let download = Self.task("download", log)
            @MainActor func decode(_ name: String) -> PipelineTask<String> {
                PipelineTask<String> { task in
                    log.add("start \(name)")
                    task.onCancel = { log.add("cancel \(name)") }
                    task.dependOn(download) { _ in log.add("\(name) heard the download") }
                }
            }
            let small = decode("small")
            let large = decode("large")
            let smallRows = [small.subscribe(priority: .visible) { _ in XCTFail("cancelled") },
                             small.subscribe(priority: .visible) { _ in XCTFail("cancelled") }]
            let largeView = large.subscribe(priority: .interactive) { _ in }
            XCTAssertEqual(download.subscriberCount, 2, "one download for both sizes")
            XCTAssertEqual(download.priority, .interactive)

            smallRows[0].cancel()
            XCTAssertFalse(small.isEnded, "another row still wants it")
            smallRows[1].cancel()
            XCTAssertTrue(small.isEnded)
            XCTAssertEqual(log.lines.suffix(1), ["cancel small"])
            XCTAssertFalse(download.isEnded, "the large view still wants the download")
            XCTAssertEqual(download.priority, .interactive)

            largeView.cancel()
            XCTAssertEqual(log.lines.suffix(2), ["cancel large", "cancel download"], "and then nobody does")
            download.finish(.success("late"))
            XCTAssertFalse(log.lines.contains { $0.hasSuffix("heard the download") }, "nothing reaches a cancelled task")
        }
    }

    func testATaskCancelledWhileWaitingForItsSlotNeverRunsAndLeavesTheQueue() {
        MainActor.assumeIsolated {
            let log = Log()
            let scheduler = HostScheduler(maxPerHost: 1)
            let running = Self.task("running", log, slot: (scheduler, "h"))
            let waiting = Self.task("waiting", log, slot: (scheduler, "h"))
            let third = Self.task("third", log, slot: (scheduler, "h"))
            let held = running.subscribe(priority: .visible) { _ in }
            let gone = waiting.subscribe(priority: .visible) { _ in XCTFail("cancelled") }
            let kept = third.subscribe(priority: .visible) { _ in }
            XCTAssertEqual(scheduler.waitingCount, 2)
            gone.cancel()
            XCTAssertEqual(scheduler.waitingCount, 1, "it gave its place up")
            XCTAssertEqual(log.lines, ["start running"], "no cancel to run for work never started")
            held.cancel()
            XCTAssertEqual(log.lines, ["start running", "cancel running", "start third"],
                           "the running one stops, then its slot goes to the next")
            XCTAssertEqual(scheduler.runningCount, 1)
            kept.cancel()
            XCTAssertEqual(scheduler.runningCount, 0, "and gives its slot back when it is cancelled")
        }
    }

    /// `interrupt` stops the work but, unlike `cancel`, still tells every subscriber how it ended (a save
    /// closes its partial file first).
    func testInterruptStopsTheWorkAndEverySubscriberHearsHowItEnded() {
        MainActor.assumeIsolated {
            let log = Log()
            let scheduler = HostScheduler(maxPerHost: 1)
            let running = PipelineTask<String>(slot: (scheduler, "h")) { task in
                task.onCancel = {
                    log.add("stopping")
                    MainLoopSource.idle { task.finish(.failure(.http(.cancelled))) }
                }
            }
            let waiting = Self.task("waiting", log, slot: (scheduler, "h"))
            var outcomes: [String] = []
            let first = running.subscribe(priority: .visible) { if case .completed = $0 { outcomes.append("running ended") } }
            let second = waiting.subscribe(priority: .visible) { event in
                if case .completed(.failure(let error)) = event, error.isCancelled { outcomes.append("waiting cancelled") }
            }
            second.interrupt()
            XCTAssertEqual(outcomes, ["waiting cancelled"], "one that never started ends at once")
            first.interrupt()
            XCTAssertEqual(log.lines, ["stopping"])
            XCTAssertTrue(outcomes.count == 1, "the running one ends when its work says so")
            XCTAssertTrue(iterateMainLoop(until: { outcomes.count == 2 }, timeout: 60))
            XCTAssertEqual(scheduler.runningCount, 0)
        }
    }
}
