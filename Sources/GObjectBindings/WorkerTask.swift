import CGLib
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

// CPU-heavy work (decoding a 4000 px image) must not run on the main loop, and the app must not start threads
// of its own. GTask's thread pool is the sanctioned place: `run` hands `work` to a GTask worker thread and
// delivers its result back on the main loop, where the caller's completion runs on the main actor.

/// Holds the worker's output between the worker thread and the main loop. Written by the worker before
/// g_task_return_*, read on the main loop after the task completed; GTask's completion hand-off orders the two.
private final class OutputSlot<Output: Sendable>: @unchecked Sendable {
    var output: Output?
}

/// The type-erased job a worker thread runs (a C thread function cannot capture generic parameters).
private final class WorkerJob: Sendable {
    let run: @Sendable () -> Void
    init(_ run: @escaping @Sendable () -> Void) { self.run = run }
}

public enum WorkerTask {
    /// Call once at start, before any worker runs. glibc gives every thread that allocates a malloc arena of
    /// its own, and raises its mmap threshold as big blocks are freed (up to 32 MiB), after which a decoded
    /// image freed on one thread stays in its arena for that arena's next allocation: a dozen large images
    /// made on several workers and freed later left tens of megabytes resident across arenas. A fixed threshold
    /// keeps every block of 256 KiB or more — a large image, its surface, an original's bytes — in a mapping
    /// of its own, returned to the system when freed (and freed without taking an arena's lock, which a worker
    /// of lower priority may hold: sharing arenas instead made the main thread wait for one).
    public static func returnLargeBlocksWhenFreed() {
        _ = mallopt(M_MMAP_THRESHOLD, 256 * 1024)
    }

    /// Call once at start, before any worker runs, in a process without a window (`--list`, `--download`):
    /// there is no frame for the main thread to keep, and the workers' jobs (a page's parse, a file's write and
    /// rename) are the run's own critical path, which a lowered worker waits on whenever the main thread and the
    /// server keep both cores busy.
    public static func keepWorkersAtNormalPriority() {
        workersYield.store(false, ordering: .relaxed)
    }

    /// Runs `work` on a GTask worker thread and calls `completion` with its output on the main loop.
    /// `work` should watch `cancellable` itself when it can stop early; `completion` always runs.
    @MainActor
    public static func run<Output: Sendable>(
        cancellable: Cancellable? = nil,
        _ work: @escaping @Sendable () -> Output,
        completion: @escaping @MainActor (Output) -> Void
    ) {
        let slot = OutputSlot<Output>()
        let job = WorkerJob { slot.output = work() }
        let task = AsyncCallback { _, _ in completion(slot.output!) }
            .pass { g_task_new(nil, cancellable?.pointer, $0, $1) }
        // The task may be finalized on the worker thread, so the notify must not be main-actor code.
        g_task_set_task_data(task, Unmanaged.passRetained(job).toOpaque(), releaseBoxNotify)
        // The output is read from the slot, so a cancelled task must still run its function to fill it.
        g_task_set_check_cancellable(task, 0)
        g_task_run_in_thread(task, runWorkerJob)
        g_object_unref(task.map { UnsafeMutableRawPointer($0) })
    }
}

/// The GTask thread function. A file-level constant, not a closure written inside the @MainActor `run`:
/// such a closure inherits main-actor isolation and Swift checks it on entry, which traps on a worker thread.
private let runWorkerJob: GTaskThreadFunc = { task, _, data, _ in
    yieldToTheMainThread()
    Unmanaged<WorkerJob>.fromOpaque(data!).takeUnretainedValue().run()
    g_task_return_boolean(task, 1)
}

/// Work handed to a worker is background work: decoding a photo must not take the core the main loop needs to
/// answer input or paint a frame. On a two-core machine with both decoding, the main thread otherwise waits for
/// a core like any other thread. On Linux the nice value belongs to each thread, and `setpriority` with `who` 0
/// sets the calling thread's: the worker lowers its own to 10 (the main thread then weighs about ten times as
/// much). Nice values only go down for an unprivileged process, and every job run here is background work, so
/// the thread stays lowered.
private func yieldToTheMainThread() {
    guard workersYield.load(ordering: .relaxed) else { return }
    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
}

/// Whether workers lower their priority (see `WorkerTask.keepWorkersAtNormalPriority`).
private let workersYield = Atomic<Bool>(true)
