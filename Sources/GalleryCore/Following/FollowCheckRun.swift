import GObjectBindings

/// One run of `FollowChecker.check`: reads the followed galleries, starts their checks within the caps, writes
/// each result, and reports once every gallery is done and written.
@MainActor
final class FollowCheckRun {
    var onGalleryChecked: (@MainActor (FollowedGallery) -> Void)?

    private let store: FollowStore
    private let makeClient: @MainActor () -> HTTPClient
    /// This run's clients, one per endpoint (see `FollowChecker.init`); they go with the run.
    private var clients: [String: HTTPClient] = [:]
    private let limits: FollowChecker.Limits
    private let endpointOverride: @MainActor (SourceKind) -> String?
    private var report = FollowCheckReport()
    /// In the order followed, each with its host's key (`hostKey`), made once: `pump` looks past the galleries
    /// of busy hosts after every gallery checked, and 500 galleries of one host made that a URL parse each.
    private var pending: [(gallery: FollowedGallery, source: any GallerySource, host: String)] = []
    private var active: [ObjectIdentifier: (check: FollowGalleryCheck, host: String)] = [:]
    private var activePerHost: [String: Int] = [:]
    private var writes = 0
    private var listed = false
    /// Galleries whose service could not be reached: a problem only if some other one could be.
    private var unreachable: [(FollowedGallery, GalleryError)] = []
    private var completion: (@MainActor (FollowCheckReport) -> Void)?
    private var cancelled = false

    init(store: FollowStore, makeClient: @escaping @MainActor () -> HTTPClient, limits: FollowChecker.Limits,
         endpointOverride: @escaping @MainActor (SourceKind) -> String?) {
        self.store = store
        self.makeClient = makeClient
        self.limits = limits
        self.endpointOverride = endpointOverride
    }

    func start(completion: @escaping @MainActor (FollowCheckReport) -> Void) {
        self.completion = completion
        store.following { [weak self] result in
            guard let self, !cancelled else { return }
            listed = true
            switch result {
            case .success(let galleries): plan(galleries)
            case .failure(let error): report.storeError = error
            }
            pump()
        }
    }

    /// Stops what runs; the report so far.
    func cancel() -> FollowCheckReport {
        cancelled = true
        completion = nil
        pending = []
        active.values.forEach { $0.check.cancel() }
        active = [:]
        return report
    }

    private func plan(_ galleries: [FollowedGallery]) {
        let now = FollowStore.now()
        for gallery in galleries.prefix(FollowLimits.maxGalleries) {
            if let last = gallery.lastCheckedAt, now - last < limits.minimumInterval, now >= last {
                report.skipped += 1
                continue
            }
            do throws(GalleryError) {
                var source = try gallery.key.source.makeSource(username: gallery.key.username,
                                                               endpointOverride: endpointOverride(gallery.key.source))
                // A check is a background task: Wikimedia asks those to step back when its replicas lag.
                if var commons = source as? CommonsSource {
                    commons.maxLagSeconds = 5
                    source = commons
                }
                pending.append((gallery, source, Self.hostKey(source.endpoint.origin)))
            } catch {
                record(gallery, problem: error)
            }
        }
    }

    /// Starts pending galleries while the caps allow, in the order followed; reports when all is done.
    private func pump() {
        guard !cancelled, listed else { return }
        var index = 0
        while active.count < limits.maxGalleriesAtOnce, index < pending.count {
            let host = pending[index].host
            let cap = pending[index].source.kind == .commons ? 1 : max(1, limits.maxRequestsPerHost)
            guard activePerHost[host, default: 0] < cap else {
                index += 1
                continue
            }
            let (gallery, source, _) = pending.remove(at: index)
            begin(gallery, source: source, host: host)
        }
        if pending.isEmpty, active.isEmpty, writes == 0 { end() }
    }

    private func begin(_ gallery: FollowedGallery, source: any GallerySource, host: String) {
        let client = clients[host] ?? makeClient()
        clients[host] = client
        let check = FollowGalleryCheck(gallery: gallery, source: source, client: client, limits: limits.feed,
                                       maxPages: limits.maxPagesPerGallery, maxResolutionAge: limits.maxResolutionAge)
        let id = ObjectIdentifier(check)
        active[id] = (check, host)
        activePerHost[host, default: 0] += 1
        check.start { [weak self] outcome in
            guard let self, !cancelled else { return }
            active[id] = nil
            activePerHost[host, default: 1] -= 1
            finished(gallery, with: outcome)
            pump()
        }
    }

    private func finished(_ gallery: FollowedGallery, with outcome: FollowGalleryCheck.Outcome) {
        let time = FollowStore.now()
        switch outcome {
        case .notModified(let lookup):
            report.notModified += 1
            // A lookup before the 304 (the first check after an upgrade, a stale resolution) is kept too.
            write(FollowCheckRecord(key: gallery.key, time: time, problem: nil, newestItem: nil, validators: nil,
                                    keepsValidators: true, displayName: lookup.profile?.displayName,
                                    avatarURL: lookup.profile?.avatarURL, newItems: [], resolution: lookup.resolution,
                                    resolvedOrigin: lookup.origin),
                  of: gallery)
        case .items(let items, let validators, let lookup):
            let newest = items.first.map { FollowItemMark(id: $0.id, time: $0.published.map { Int64($0) * 1000 }) }
            write(FollowCheckRecord(key: gallery.key, time: time, problem: nil,
                                    newestItem: newest.flatMap { $0.id.utf8.count <= FollowLimits.maxItemIDBytes ? $0 : nil },
                                    validators: validators, keepsValidators: false, displayName: lookup.profile?.displayName,
                                    avatarURL: lookup.profile?.avatarURL,
                                    newItems: FollowNewness.candidates(in: items, of: gallery), resolution: lookup.resolution,
                                    resolvedOrigin: lookup.origin),
                  of: gallery)
        case .failed(let error, unreachable: true):
            unreachable.append((gallery, error))
        case .failed(let error, unreachable: false):
            record(gallery, problem: error)
        }
    }

    private func record(_ gallery: FollowedGallery, problem: GalleryError) {
        report.failures.append(FollowCheckFailure(key: gallery.key, error: problem))
        write(FollowCheckRecord(key: gallery.key, time: FollowStore.now(), problem: problem.title, newestItem: nil,
                                validators: nil, keepsValidators: true, displayName: nil, avatarURL: nil, newItems: []),
              of: gallery)
    }

    private func write(_ check: FollowCheckRecord, of gallery: FollowedGallery) {
        writes += 1
        store.record(check) { [weak self] result in
            guard let self else { return }
            writes -= 1
            if case .success(let kept?) = result {
                if check.problem == nil { report.checked += 1 }
                report.newItems += kept
                var updated = gallery
                updated.lastCheckedAt = check.time
                updated.lastProblem = check.problem
                updated.newCount += kept.count
                if let mark = check.newestItem {
                    updated.lastItemID = mark.id
                    updated.lastItemTime = mark.time
                }
                if !check.keepsValidators { updated.validators = check.validators }
                if let resolution = check.resolution {
                    updated.resolution = resolution
                    updated.resolvedOrigin = check.resolvedOrigin
                    updated.resolvedAt = check.time
                }
                onGalleryChecked?(updated)
            }
            pump()
        }
    }

    private func end() {
        guard let completion else { return }
        if !unreachable.isEmpty {
            if report.checked == 0 && report.failures.isEmpty {
                // Nothing answered: the network is down, which is no gallery's problem.
                report.offline = true
            } else {
                let failed = unreachable
                unreachable = []
                failed.forEach { record($0.0, problem: $0.1) }
                return
            }
        }
        self.completion = nil
        report.newItems.sort { Self.sortTime($0) > Self.sortTime($1) }
        completion(report)
    }

    private static func sortTime(_ item: FollowedItem) -> Int64 {
        item.item.published.map { Int64($0) * 1000 } ?? item.foundAt
    }

    /// "http://127.0.0.1:8080": what a per-host cap counts by (the port too: the demo serves every service).
    static func hostKey(_ origin: String) -> String { URLText.origin(of: origin) ?? origin }
}
