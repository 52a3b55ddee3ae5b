import GObjectBindings
import SQLiteBindings

/// What one gallery's check found, written in one transaction (`FollowDatabase.record`): a check that failed
/// records its problem only, so an interrupted or failed check never stands for items it did not see.
struct FollowCheckRecord: Sendable {
    let key: FollowedGallery.Key
    let time: Int64
    /// nil: the check failed with `problem`; its findings below are ignored.
    let problem: String?
    /// The newest item the check saw (nil keeps the last known one).
    let newestItem: FollowItemMark?
    /// The first page's validators; nil forgets the old ones (the page came without any).
    let validators: HTTPValidators?
    /// Kept: the validators stored before stay (a 304 answered them).
    let keepsValidators: Bool
    let displayName: String?
    let avatarURL: String?
    /// Candidates, newest first; those seen or already new are left out by the database.
    let newItems: [GalleryItem]
    /// What a lookup resolved in this check; nil keeps the one stored (no lookup ran).
    var resolution: SourceResolution? = nil
    /// The origin of the server that lookup asked (`FollowCheckRun.hostKey`), kept with `resolution`.
    var resolvedOrigin: String? = nil
}

/// The newest item a check saw, Sendable to cross to the worker.
struct FollowItemMark: Sendable {
    let id: String
    let time: Int64?
}

/// How a new item is kept in `new_item.item`: a format byte, then a `PackedGalleryItem`. Another format byte
/// (a newer version's) is skipped on reading, never misread.
enum FollowItemCoding {
    static let format: UInt8 = 1

    static func encode(_ item: GalleryItem) -> [UInt8] { [format] + PackedGalleryItem(item).packedBytes }

    static func decode(_ bytes: [UInt8]) -> GalleryItem? {
        guard bytes.first == format, bytes.count <= FollowLimits.maxPackedItemBytes + 1 else { return nil }
        let item = PackedGalleryItem(bytes: Array(bytes.dropFirst())).item
        guard !item.id.isEmpty, item.id.utf8.count <= GalleryItem.maxIDBytes else { return nil }
        return item
    }
}

extension FollowDatabase {
    /// Writes a check's result (see `FollowCheckRecord`); the new items it kept, newest first, or nil when the
    /// gallery is no longer followed.
    func record(_ check: FollowCheckRecord, on connection: SQLiteConnection) throws(FollowStoreError) -> [FollowedItem]? {
        if let mark = check.newestItem, mark.id.isEmpty || mark.id.utf8.count > FollowLimits.maxItemIDBytes {
            throw .invalid(reason: tr("An item’s identity must have 1 to {limit} bytes.", ["limit": FollowLimits.maxItemIDBytes]))
        }
        return try attempt { () throws -> [FollowedItem]? in
            try connection.transaction { () throws(SQLiteError) -> [FollowedItem]? in
                guard let gallery = try galleryID(check.key, on: connection) else { return nil }
                if let problem = check.problem {
                    try connection.run("UPDATE followed_gallery SET last_checked_at = ?, last_problem = ? WHERE id = ?",
                                       [.integer(check.time), .text(DisplayText.clean(problem, limit: FollowLimits.maxProblemLength)),
                                        .integer(gallery)])
                    return []
                }
                try updateGallery(gallery, after: check, on: connection)
                return try insertNewItems(check, into: gallery, on: connection)
            }
        }
    }

    private func updateGallery(_ gallery: Int64, after check: FollowCheckRecord, on connection: SQLiteConnection) throws(SQLiteError) {
        var sql = "UPDATE followed_gallery SET last_checked_at = ?, last_problem = NULL"
        var values: [SQLiteValue] = [.integer(check.time)]
        if let mark = check.newestItem {
            sql += ", last_item_id = ?, last_item_time = ?"
            values += [.text(mark.id), mark.time.map { .integer($0) } ?? .null]
        }
        if !check.keepsValidators {
            sql += ", validated_url = ?, etag = ?, last_modified = ?"
            let fits = { (value: String?) -> SQLiteValue in
                value.flatMap { $0.utf8.count <= FollowLimits.maxValidatorBytes ? .text($0) : nil } ?? .null
            }
            values += [check.validators.map { .text($0.url) } ?? .null, fits(check.validators?.etag),
                       fits(check.validators?.lastModified)]
        }
        let name = check.displayName.map { DisplayText.clean($0, limit: FollowLimits.maxDisplayNameLength) } ?? ""
        if !name.isEmpty {
            sql += ", display_name = ?"
            values.append(.text(name))
        }
        if let avatar = check.avatarURL, URLText.isWebAddress(avatar), avatar.utf8.count <= FollowLimits.maxItemIDBytes {
            sql += ", avatar_url = ?"
            values.append(.text(avatar))
        }
        if let resolution = check.resolution,
           let kept = Self.resolution(accountID: resolution.accountID, context: resolution.context) {
            // Made at this check: its age counts from here, and without its server it is never used
            // (`FollowedGallery.usableResolution`).
            sql += ", resolved_account = ?, resolved_context = ?, resolved_origin = ?, resolved_at = ?"
            values += [.text(kept.accountID), kept.context.map { .text($0) } ?? .null,
                       check.resolvedOrigin.flatMap(Self.origin).map { .text($0) } ?? .null, .integer(check.time)]
        }
        try connection.run(sql + " WHERE id = ?", values + [.integer(gallery)])
    }

    /// Inserts the candidates not seen and not new already, then lets the oldest past
    /// `maxNewItemsPerGallery` go; the inserted ones that stayed, newest first.
    private func insertNewItems(_ check: FollowCheckRecord, into gallery: Int64,
                                on connection: SQLiteConnection) throws(SQLiteError) -> [FollowedItem] {
        guard !check.newItems.isEmpty else { return [] }
        let name = try connection.rows("SELECT display_name FROM followed_gallery WHERE id = ?", [.integer(gallery)]) {
            $0.text(0) ?? ""
        }.first ?? check.key.username
        let insert = try connection.prepare(
            "INSERT INTO new_item (gallery_id, item_id, found_at, published, sort_time, item) SELECT ?1, ?2, ?3, ?4, ?5, ?6 "
                + "WHERE NOT EXISTS (SELECT 1 FROM seen_item WHERE gallery_id = ?1 AND item_id = ?2) ON CONFLICT DO NOTHING")
        var inserted: [FollowedItem] = []
        for item in check.newItems.prefix(FollowLimits.maxNewItemsPerGallery) {
            let packed = FollowItemCoding.encode(item)
            guard !item.id.isEmpty, packed.count <= FollowLimits.maxPackedItemBytes + 1 else { continue }
            let published = item.published.map { Int64($0) }
            try insert.bind([.integer(gallery), .text(item.id), .integer(check.time), published.map { .integer($0) } ?? .null,
                             .integer(published.map { $0 * 1000 } ?? check.time), .blob(packed)])
            while try insert.step() {}
            if connection.changes == 1 {
                inserted.append(FollowedItem(gallery: check.key, galleryName: name, item: item, foundAt: check.time))
            }
        }
        try connection.run(
            "DELETE FROM new_item WHERE gallery_id = ?1 AND item_id IN ( "
                + "SELECT item_id FROM new_item WHERE gallery_id = ?1 "
                + "ORDER BY sort_time DESC, item_id LIMIT -1 OFFSET ?2)",
            [.integer(gallery), .integer(Int64(FollowLimits.maxNewItemsPerGallery))])
        guard connection.changes > 0 else { return inserted }
        // Some went: report only those kept.
        let kept = try connection.prepare("SELECT 1 FROM new_item WHERE gallery_id = ? AND item_id = ?")
        var stayed: [FollowedItem] = []
        for found in inserted {
            try kept.bind([.integer(gallery), .text(found.item.id)])
            if try kept.step() { stayed.append(found) }
        }
        return stayed
    }

    /// Every new item of every followed gallery, newest first, at most `FollowLimits.maxNewItems`.
    func newItems(on connection: SQLiteConnection) throws(FollowStoreError) -> [FollowedItem] {
        try attempt { () throws -> [FollowedItem?] in
            try connection.rows(
                "SELECT source, username, display_name, new_item.found_at, new_item.item FROM new_item "
                    + "JOIN followed_gallery ON followed_gallery.id = new_item.gallery_id "
                    + "ORDER BY new_item.sort_time DESC, new_item.item_id LIMIT ?",
                [.integer(Int64(FollowLimits.maxNewItems))]) { row in
                guard let source = row.text(0).flatMap(SourceKind.init(rawValue:)), let username = row.text(1),
                      Self.isValid(username), let item = row.blob(4).flatMap(FollowItemCoding.decode) else { return nil }
                return FollowedItem(gallery: .init(source: source, username: username),
                                    galleryName: DisplayText.clean(row.text(2) ?? username, limit: FollowLimits.maxDisplayNameLength),
                                    item: item, foundAt: row.integer(3) ?? 0)
            }
        }.compactMap { $0 }
    }

    func newItemCount(on connection: SQLiteConnection) throws(FollowStoreError) -> Int {
        try attempt { () throws -> Int in Int(try connection.integer("SELECT count(*) FROM new_item") ?? 0) }
    }

    /// Every new item becomes seen at `time`; how many there were.
    func markAllSeen(at time: Int64, on connection: SQLiteConnection) throws(FollowStoreError) -> Int {
        try attempt { () throws -> Int in
            try connection.transaction { () throws(SQLiteError) -> Int in
                let galleries = try connection.rows("SELECT DISTINCT gallery_id FROM new_item") { $0.integer(0) ?? 0 }
                try connection.run("INSERT INTO seen_item (gallery_id, item_id, seen_at) SELECT gallery_id, item_id, ? "
                                   + "FROM new_item WHERE true ON CONFLICT DO NOTHING", [.integer(time)])
                let count = try connection.run("DELETE FROM new_item")
                for gallery in galleries { try trimSeenMarks(of: gallery, on: connection) }
                return count
            }
        }
    }
}
