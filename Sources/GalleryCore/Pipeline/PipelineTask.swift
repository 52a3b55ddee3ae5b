/// One piece of the pipeline's work — a download, a decode, a file save — shared by everyone who asks for the
/// same thing, in the manner of Nuke's `AsyncTask`, with callbacks on the GLib main loop instead of async/await:
///
/// - **Coalescing.** The pipeline keeps one task per key (a URL, a URL and size, a file); a second request
///   subscribes to the task already there instead of starting another.
/// - **Priority.** A task runs at the highest priority among its subscribers. When that changes (a row scrolls
///   into view, another leaves), the task passes it on to the tasks it depends on and, while it waits for a
///   connection slot, to the `HostScheduler`'s queue.
/// - **Cancellation.** When the last subscriber leaves before the end, the task stops its own work (`onCancel`),
///   gives up its slot or its place in the queue, and leaves the tasks it depends on — which stop in turn if it
///   was their last subscriber. Nothing it would have delivered reaches anyone.
/// - **Dependencies.** A task subscribes to others as any caller does (a decode to the download of its bytes).
/// - **Slots.** A task made with a host waits for one of that host's connection slots before its work starts,
///   and holds it until it ends.
///
/// A task starts when its first subscriber arrives and ends once: finished (every subscriber still there hears
/// the result, in the order they came) or cancelled. The pipeline drops it from its table then (`onEnd`).
@MainActor
final class PipelineTask<Value> {
    typealias Outcome = Result<Value, ImageLoadError>

    enum Event {
        case progress(LoadProgress)
        case completed(Outcome)
    }

    enum State: Equatable {
        case idle
        case waitingForSlot
        case running
        case finished
        case cancelled
    }

    private(set) var state = State.idle
    private(set) var priority = LoadPriority.offscreen
    private var subscriptions: [TaskSubscription<Value>] = []
    /// This task's subscriptions to the tasks it waits on.
    private var dependencies: [any TaskDependency] = []
    private let slot: (scheduler: HostScheduler, host: String)?
    /// Admitted into its slot, which it gives back when it ends.
    private var holdsSlot = false
    private var work: (@MainActor (PipelineTask<Value>) -> Void)?
    /// Stops the work under way (cancels its GCancellable); runs only when the task is cancelled.
    var onCancel: (@MainActor () -> Void)?
    /// Runs once when the task ends either way, before anyone hears the result.
    var onEnd: (@MainActor () -> Void)?

    /// `slot`: the scheduler and host whose connection slot the work needs; nil when it needs none.
    init(slot: (scheduler: HostScheduler, host: String)? = nil, work: @escaping @MainActor (PipelineTask<Value>) -> Void) {
        self.slot = slot
        self.work = work
    }

    var isEnded: Bool { state == .finished || state == .cancelled }
    var subscriberCount: Int { subscriptions.count }

    /// Nothing was sent for it yet: it, or a task it waits on, waits for a connection slot.
    var isWaitingForSlot: Bool {
        state == .waitingForSlot || (state == .running && dependencies.contains { $0.isWaitingForSlot })
    }

    /// Adds a subscriber; the first one starts the task. `observer` hears progress, then the result — unless
    /// the subscription is cancelled first.
    func subscribe(priority: LoadPriority, _ observer: @escaping @MainActor (Event) -> Void) -> TaskSubscription<Value> {
        precondition(!isEnded, "a task that ended takes no subscribers")
        let subscription = TaskSubscription(task: self, priority: priority, observer: observer)
        subscriptions.append(subscription)
        updatePriority()
        if state == .idle { start() }
        return subscription
    }

    /// Makes this task wait on `task`: subscribes at this task's priority, which follows this task's from now
    /// on. Call from the work closure.
    func dependOn<Other>(_ task: PipelineTask<Other>, _ observer: @escaping @MainActor (PipelineTask<Other>.Event) -> Void) {
        guard state == .running else { return }
        dependencies.append(task.subscribe(priority: priority, observer))
    }

    /// Tells every subscriber how far the work got.
    func send(_ progress: LoadProgress) {
        guard !isEnded else { return }
        for subscription in subscriptions { subscription.receive(.progress(progress)) }
    }

    /// Ends the task with `outcome`, delivered to every subscriber still there. Does nothing once it ended
    /// (a late callback of work that was cancelled).
    func finish(_ outcome: Outcome) {
        guard !isEnded else { return }
        state = .finished
        let subscribers = subscriptions
        subscriptions = []
        end()
        for subscription in subscribers { subscription.receive(.completed(outcome)) }
    }

    /// Stops the work for every subscriber, who all hear how it ended: `.cancelled` at once if it had not
    /// started, else whatever the work reports once it stopped (a save closes its partial file first).
    func interrupt() {
        switch state {
        case .idle, .waitingForSlot: finish(.failure(.http(.cancelled)))
        case .running: onCancel?()
        case .finished, .cancelled: break
        }
    }

    /// The work no longer needs its connection: the next task waiting for the host may start now rather than
    /// when this one ends (a file save whose body is all read, still closing and renaming its file).
    func releaseSlot() {
        guard holdsSlot, let slot else { return }
        holdsSlot = false
        slot.scheduler.leave(self, host: slot.host, wasRunning: true)
    }

    // MARK: Called by the scheduler and the subscriptions

    /// The scheduler admitted the task into a slot (or it needs none): its work starts.
    func admit() {
        guard state == .idle || state == .waitingForSlot else { return }
        holdsSlot = slot != nil
        state = .running
        let work = self.work
        self.work = nil
        work?(self)
    }

    func unsubscribe(_ subscription: TaskSubscription<Value>) {
        guard let index = subscriptions.firstIndex(where: { $0 === subscription }) else { return }
        subscriptions.remove(at: index)
        if subscriptions.isEmpty {
            cancel()
        } else {
            updatePriority()
        }
    }

    func updatePriority() {
        guard let highest = subscriptions.map(\.priority).max(), highest != priority else { return }
        priority = highest
        // The scheduler reads a waiting task's priority whenever a slot frees, so its queue follows too.
        for dependency in dependencies { dependency.priority = highest }
    }

    // MARK: Lifecycle

    private func start() {
        guard let slot else { return admit() }
        state = .waitingForSlot
        slot.scheduler.enqueue(self, host: slot.host)
    }

    private func cancel() {
        guard !isEnded else { return }
        state = .cancelled
        // Its own work stops before its slot goes to the next task.
        let onCancel = self.onCancel
        self.onCancel = nil
        onCancel?()
        end()
    }

    private func end() {
        work = nil
        onCancel = nil
        // Leaving what this task waited on may cancel it in turn; it never calls back here once left.
        let dependencies = self.dependencies
        self.dependencies = []
        for dependency in dependencies { dependency.cancel() }
        let onEnd = self.onEnd
        self.onEnd = nil
        onEnd?()
        if let slot { slot.scheduler.leave(self, host: slot.host, wasRunning: holdsSlot) }
        holdsSlot = false
    }
}

extension PipelineTask: SlotHolder {}

/// One subscriber's hold on a `PipelineTask`: what a caller gets back from the pipeline (`ImageTask`,
/// `FileTask`). Raise or lower its priority as the caller's need changes; cancel it when the caller no longer
/// cares (its row went away). Once cancelled, its callbacks never run.
@MainActor
public final class TaskSubscription<Value> {
    private var task: PipelineTask<Value>?
    private var observer: (@MainActor (PipelineTask<Value>.Event) -> Void)?

    fileprivate init(task: PipelineTask<Value>, priority: LoadPriority,
                     observer: @escaping @MainActor (PipelineTask<Value>.Event) -> Void) {
        self.task = task
        self.priority = priority
        self.observer = observer
    }

    /// A subscription that already ended: what a request answered at once (from the memory cache) returns.
    init(completed priority: LoadPriority) {
        self.priority = priority
    }

    public var priority: LoadPriority {
        didSet { if priority != oldValue { task?.updatePriority() } }
    }

    /// True until the result arrived or the subscription was cancelled.
    public var isPending: Bool { observer != nil }

    /// Nothing was sent for it yet: its download waits behind others to the same host.
    public var isWaitingForConnection: Bool { isPending && (task?.isWaitingForSlot ?? false) }

    /// Stops the work for everyone subscribed to it, and still hears how it ended (see `cancel()` for leaving
    /// without a word): a file save closes its partial file before it reports `.cancelled`.
    public func interrupt() { task?.interrupt() }

    public func cancel() {
        guard isPending else { return }
        observer = nil
        let task = self.task
        self.task = nil
        task?.unsubscribe(self)
    }

    fileprivate func receive(_ event: PipelineTask<Value>.Event) {
        guard let observer else { return }
        if case .completed = event {
            self.observer = nil
            task = nil
        }
        observer(event)
    }
}

/// What a task needs of its subscription to a task it depends on, whatever that task's value.
@MainActor
protocol TaskDependency: AnyObject {
    var priority: LoadPriority { get set }
    var isWaitingForSlot: Bool { get }
    func cancel()
}

extension TaskSubscription: TaskDependency {
    var isWaitingForSlot: Bool { isWaitingForConnection }
}

/// A download handed out by the pipeline: `ImagePipeline.loadImage`'s handle.
public typealias ImageTask = TaskSubscription<ImageResponse>
/// A file save handed out by the pipeline: `ImagePipeline.saveFile`'s handle.
public typealias FileTask = TaskSubscription<SavedFile>
