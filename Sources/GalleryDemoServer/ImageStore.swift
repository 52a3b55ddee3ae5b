import GObjectBindings

/// Image files of the demo gallery, read with GIO's asynchronous I/O (never a blocking read on the main loop)
/// and kept in a bounded LRU memory cache. Concurrent requests for the same file share one read.
@MainActor
final class ImageStore {
    let directory: String
    private let cache: LRUCache<String, Bytes>
    private var pending: [String: [@MainActor (Result<Bytes, GLibError>) -> Void]] = [:]
    private(set) var diskReads = 0

    init(directory: String, capacityBytes: Int) {
        self.directory = directory
        cache = LRUCache(capacity: capacityBytes)
    }

    var cachedBytes: Int { cache.totalCost }

    /// `relativePath` is below `directory` ("full/aurora-001-x.jpg"); callers build it from catalog names only.
    func load(_ relativePath: String, completion: @escaping @MainActor (Result<Bytes, GLibError>) -> Void) {
        if let bytes = cache.value(for: relativePath) { return completion(.success(bytes)) }
        if pending[relativePath] != nil {
            pending[relativePath]!.append(completion)
            return
        }
        pending[relativePath] = [completion]
        diskReads += 1
        File(path: directory + "/" + relativePath).loadContents { [self] result in
            if case .success(let bytes) = result { cache.insert(bytes, for: relativePath, cost: bytes.count) }
            let waiting = pending.removeValue(forKey: relativePath) ?? []
            waiting.forEach { $0(result) }
        }
    }
}
