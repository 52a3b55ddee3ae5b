import GObjectBindings
import SQLiteBindings

/// Why the follow store could not do what was asked. Every case has a sentence the window or the command line
/// shows as it is.
public enum FollowStoreError: Error, Equatable, Sendable {
    /// The folder or file could not be made or opened (permissions, a full disk, not a directory).
    case unusable(path: String, detail: String)
    /// The file was written by a newer version of the app; it is left as it is.
    case newerSchema(path: String, found: Int, known: Int)
    /// The file is some other program's SQLite database (another `application_id`); it is left as it is.
    case notOurs(path: String)
    /// A statement failed (a busy database past the timeout, an I/O error).
    case failed(detail: String)
    case notFollowed(FollowedGallery.Key)
    case tooMany(limit: Int)
    case invalid(reason: String)

    public var sentence: String {
        switch self {
        case .unusable(let path, let detail):
            tr("The list of followed galleries could not be opened ({path}): {detail}", ["path": path, "detail": detail])
        case .newerSchema(let path, let found, let known):
            tr("The list of followed galleries ({path}) was written by a newer version of Gallery Viewer (schema {found}; this one knows {known}). It was left unchanged.",
               ["path": path, "found": found, "known": known])
        case .notOurs(let path):
            tr("{path} is not Gallery Viewer’s list of followed galleries. It was left unchanged.", ["path": path])
        case .failed(let detail):
            tr("The list of followed galleries could not be changed: {detail}", ["detail": detail])
        case .notFollowed(let key):
            tr("{user} on {source} is not followed.", ["user": key.username, "source": key.source.displayName])
        case .tooMany(let limit):
            tr("At most {limit} galleries can be followed.", ["limit": limit])
        case .invalid(let reason):
            reason
        }
    }

    static func from(_ error: SQLiteError) -> FollowStoreError { .failed(detail: error.description) }
}

/// A damaged database the store moved aside and replaced with an empty one: what the window tells the user.
public struct FollowStoreRecovery: Equatable, Sendable {
    /// Where the damaged file now is (its -wal and -shm beside it with the same name).
    public let movedTo: String
    /// SQLite's words for the damage.
    public let reason: String

    public var sentence: String {
        tr("The list of followed galleries was damaged and has been started again; the damaged file was kept as {path} ({reason}).",
           ["path": movedTo, "reason": reason])
    }
}
