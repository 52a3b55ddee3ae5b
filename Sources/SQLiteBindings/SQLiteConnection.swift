internal import CSQLite

/// A value bound to a statement's parameter or read from a row: only the types the store keeps.
public enum SQLiteValue: Equatable, Sendable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null
}

/// One open database file. Closed (sqlite3_close_v2) when the last reference goes.
///
/// Not Sendable by itself: SQLite's connection may be used from any thread but by one at a time, which the
/// owner promises (the follow store hands it to one worker job at a time, in order).
public final class SQLiteConnection {
    let handle: OpaquePointer

    /// Opens (and with `create`, makes) the database at `path`. No URI names, no shared cache; `path`'s file is
    /// made with the permissions of an existing one, else 0644 less the umask (the caller narrows them first).
    public init(path: String, create: Bool = true) throws(SQLiteError) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            let error = SQLiteError.from(code, opened)
            sqlite3_close_v2(opened)
            throw error
        }
        handle = opened
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that take no parameters and whose rows are not wanted (pragmas, schema).
    public func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            throw SQLiteError(code: sqlite3_extended_errcode(handle),
                              message: message.map { String(cString: $0) } ?? "SQLite error")
        }
    }

    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw SQLiteError.from(code, handle) }
        return SQLiteStatement(statement, connection: self)
    }

    /// Runs `sql` with `values` bound to its parameters, discarding rows; the number of rows it changed.
    @discardableResult
    public func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int {
        let statement = try prepare(sql)
        try statement.bind(values)
        while try statement.step() {}
        return changes
    }

    /// Every row of `sql` with `values` bound, each read by `read` while it is current.
    public func rows<Row>(_ sql: String, _ values: [SQLiteValue] = [],
                          _ read: (SQLiteStatement) throws(SQLiteError) -> Row) throws(SQLiteError) -> [Row] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var rows: [Row] = []
        while try statement.step() { rows.append(try read(statement)) }
        return rows
    }

    /// The first column of the first row of `sql` as an integer (a pragma's value); nil without a row.
    public func integer(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> Int64? {
        try rows(sql, values) { $0.integer(0) }.first ?? nil
    }

    /// Runs `body` inside BEGIN IMMEDIATE … COMMIT, rolling back when it throws. Returns only after COMMIT
    /// returned: with synchronous=FULL the transaction is then on disk, so its caller may acknowledge it.
    /// IMMEDIATE takes the write lock at the start, so a busy database fails before any work is done.
    public func transaction<Result>(_ body: () throws(SQLiteError) -> Result) throws(SQLiteError) -> Result {
        try execute("BEGIN IMMEDIATE")
        let result: Result
        do {
            result = try body()
            try execute("COMMIT")
        } catch {
            // A failed COMMIT may have rolled back already; SQLite then answers this with an error to ignore.
            if sqlite3_get_autocommit(handle) == 0 { _ = try? execute("ROLLBACK") }
            throw error
        }
        return result
    }

    /// The rows the last finished INSERT, UPDATE or DELETE changed.
    public var changes: Int { Int(sqlite3_changes(handle)) }
}

/// A prepared statement, finalized when the last reference goes. Holds its connection, which must outlive it.
public final class SQLiteStatement {
    private let handle: OpaquePointer
    private let connection: SQLiteConnection

    init(_ handle: OpaquePointer, connection: SQLiteConnection) {
        self.handle = handle
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to parameters 1…n.
    public func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, gv_sqlite_transient())
            case .blob(let bytes):
                // An empty array would bind NULL (its base address may be nil): a zero-length blob instead.
                code = bytes.isEmpty ? sqlite3_bind_zeroblob(handle, index, 0)
                    : bytes.withUnsafeBytes { sqlite3_bind_blob(handle, index, $0.baseAddress, Int32($0.count), gv_sqlite_transient()) }
            case .null: code = sqlite3_bind_null(handle, index)
            }
            guard code == SQLITE_OK else { throw SQLiteError.from(code, connection.handle) }
        }
    }

    /// Moves to the next row: true while there is one, false once the statement is done.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw SQLiteError.from(code, connection.handle)
        }
    }

    /// Column `index` of the current row; nil when it is NULL.
    public func integer(_ index: Int32) -> Int64? {
        sqlite3_column_type(handle, index) == SQLITE_NULL ? nil : sqlite3_column_int64(handle, index)
    }

    /// Column `index` as bytes (a BLOB, or a TEXT's UTF-8); nil when it is NULL.
    public func blob(_ index: Int32) -> [UInt8]? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL else { return nil }
        // Asked for after the bytes' pointer: `sqlite3_column_bytes` may convert them first.
        let start = sqlite3_column_blob(handle, index)
        let count = Int(sqlite3_column_bytes(handle, index))
        guard let start, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: start, count: count))
    }

    public func text(_ index: Int32) -> String? {
        guard sqlite3_column_type(handle, index) != SQLITE_NULL, let bytes = sqlite3_column_text(handle, index) else {
            return nil
        }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }
}
