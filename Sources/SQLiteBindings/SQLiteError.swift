internal import CSQLite

/// A failed SQLite call: its result code (extended where SQLite gives one) and SQLite's own message.
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The extended result code; `primaryCode` is its low byte.
    public let code: Int32
    public let message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    public var primaryCode: Int32 { code & 0xff }

    /// SQLITE_CORRUPT or SQLITE_NOTADB: the file is damaged or not a database; only moving it aside helps.
    public var isCorruption: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }

    /// SQLITE_BUSY or SQLITE_LOCKED: another connection held the database past the busy timeout.
    public var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }

    public var description: String { "\(message) (SQLite \(code))" }

    /// The error for `code` from `connection` (whose message describes the last failed call), or from the
    /// code alone when there is no connection to ask.
    static func from(_ code: Int32, _ connection: OpaquePointer?) -> SQLiteError {
        let text = connection.flatMap { sqlite3_errmsg($0) } ?? sqlite3_errstr(code)
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        return SQLiteError(code: extended & 0xff == code & 0xff ? extended : code,
                           message: text.map { String(cString: $0) } ?? "SQLite error")
    }
}
