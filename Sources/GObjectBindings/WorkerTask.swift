import CGLib

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
    Unmanaged<WorkerJob>.fromOpaque(data!).takeUnretainedValue().run()
    g_task_return_boolean(task, 1)
}
