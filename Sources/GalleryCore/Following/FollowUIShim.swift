// TEMPORARY: the API the checker branch (follow-check) provides, so the window can be built meanwhile.
// Deleted when that branch is merged.
import GObjectBindings

public struct FollowedItem: Sendable, Equatable {
    public let gallery: FollowedGallery.Key
    public let galleryName: String
    public let item: GalleryItem
    public let foundAt: Int64
}

public struct FollowCheckFailure: Sendable {
    public let key: FollowedGallery.Key
    public let message: String
}

public struct FollowCheckReport: Sendable {
    public var checked = 0
    public var skipped = 0
    public var notModified = 0
    public var failures: [FollowCheckFailure] = []
    public var newItems: [FollowedItem] = []
    public var offline = false
}

extension FollowedGallery {
    public var newCount: Int { 0 }
    public var avatarURL: String? { nil }
}

extension FollowStore {
    public func follow(_ key: FollowedGallery.Key, displayName: String, knownItems: [GalleryItem],
                       completion: @escaping @MainActor (Result<Bool, FollowStoreError>) -> Void) {
        follow(key, displayName: displayName, completion: completion)
    }
    public func newItems(completion: @escaping @MainActor (Result<[FollowedItem], FollowStoreError>) -> Void) {
        MainLoopSource.idle { completion(.success([])) }
    }
    public func markAllSeen(completion: @escaping @MainActor (Result<Int, FollowStoreError>) -> Void) {
        MainLoopSource.idle { completion(.success(0)) }
    }
    public func newItemCount(completion: @escaping @MainActor (Result<Int, FollowStoreError>) -> Void) {
        MainLoopSource.idle { completion(.success(0)) }
    }
}

@MainActor
public final class FollowChecker {
    public struct Limits: Sendable { public init() {} }
    public init(store: FollowStore, client: HTTPClient, limits: Limits = .init(),
                endpointOverride: @escaping @MainActor (SourceKind) -> String? = { _ in nil }) {}
    public private(set) var isChecking = false
    public var onGalleryChecked: (@MainActor (FollowedGallery) -> Void)?
    public func check(completion: @escaping @MainActor (FollowCheckReport) -> Void) {
        MainLoopSource.idle { completion(FollowCheckReport()) }
    }
    public func cancel() {}
}
