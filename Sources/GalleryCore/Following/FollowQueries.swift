import GObjectBindings
import SQLiteBindings

/// What the store does with its connection, each call one transaction (or one read), run by
/// `FollowDatabase.perform` on a worker.
extension FollowDatabase {
    /// Adds `gallery`; false when it was followed already (its record is left as it was).
    func follow(_ gallery: FollowedGallery, on connection: SQLiteConnection) throws(FollowStoreError) -> Bool {
        try Self.validate(gallery.key)
        let name = DisplayText.clean(gallery.displayName, limit: FollowLimits.maxDisplayNameLength)
        // An identity too long to keep is no stopping point: the first check then goes by dates.
        let lastItem = gallery.lastItemID.flatMap { $0.isEmpty || $0.utf8.count > FollowLimits.maxItemIDBytes ? nil : $0 }
        return try attempt { () throws -> Result<Bool, FollowStoreError> in
            try connection.transaction { () throws(SQLiteError) -> Result<Bool, FollowStoreError> in
                let count = try connection.integer("SELECT count(*) FROM followed_gallery") ?? 0
                if count >= FollowLimits.maxGalleries {
                    let exists = try galleryID(gallery.key, on: connection) != nil
                    return exists ? .success(false) : .failure(.tooMany(limit: FollowLimits.maxGalleries))
                }
                // The newest item the window showed is the checker's first stopping point: nothing up to it is new.
                let added = try connection.run(
                    "INSERT INTO followed_gallery (source, username, identity, display_name, followed_at, last_item_id, "
                        + "last_item_time) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (source, identity) DO NOTHING",
                    [.text(gallery.key.source.rawValue), .text(gallery.key.username), .text(gallery.key.identity),
                     .text(name.isEmpty ? gallery.key.username : name), .integer(gallery.followedAt),
                     lastItem.map { .text($0) } ?? .null, gallery.lastItemTime.map { .integer($0) } ?? .null])
                return .success(added == 1)
            }
        }.get()
    }

    /// Removes the gallery and its seen-marks; false when it was not followed.
    func unfollow(_ key: FollowedGallery.Key, on connection: SQLiteConnection) throws(FollowStoreError) -> Bool {
        try attempt { () throws -> Bool in
            try connection.transaction { () throws(SQLiteError) -> Bool in
                try connection.run("DELETE FROM followed_gallery WHERE source = ? AND identity = ?",
                                   [.text(key.source.rawValue), .text(key.identity)]) == 1
            }
        }
    }

    /// Every followed gallery, oldest follow first. A row no source of this version knows is left out.
    func following(on connection: SQLiteConnection) throws(FollowStoreError) -> [FollowedGallery] {
        try attempt { () throws -> [FollowedGallery?] in
            try connection.rows(
                "SELECT source, username, display_name, followed_at, last_item_id, last_item_time, last_checked_at, "
                    + "last_problem, (SELECT count(*) FROM new_item WHERE gallery_id = followed_gallery.id), avatar_url, "
                    + "validated_url, etag, last_modified, resolved_account, resolved_context, resolved_origin, resolved_at "
                    + "FROM followed_gallery ORDER BY followed_at, id LIMIT ?", [.integer(Int64(FollowLimits.maxGalleries))]) { row in
                guard let source = row.text(0).flatMap(SourceKind.init(rawValue:)), let username = row.text(1),
                      Self.isValid(username) else { return nil }
                return FollowedGallery(
                    key: .init(source: source, username: username),
                    displayName: DisplayText.clean(row.text(2) ?? username, limit: FollowLimits.maxDisplayNameLength),
                    followedAt: row.integer(3) ?? 0, lastItemID: row.text(4), lastItemTime: row.integer(5),
                    lastCheckedAt: row.integer(6),
                    lastProblem: row.text(7).map { DisplayText.clean($0, limit: FollowLimits.maxProblemLength) },
                    newCount: Int(row.integer(8) ?? 0), avatarURL: row.text(9).flatMap(Self.webAddress),
                    validators: Self.validators(url: row.text(10), etag: row.text(11), lastModified: row.text(12)),
                    resolution: Self.resolution(accountID: row.text(13), context: row.text(14)),
                    resolvedOrigin: row.text(15).flatMap(Self.origin), resolvedAt: row.integer(16))
            }
        }.compactMap { $0 }
    }

    /// Marks `itemIDs` of the gallery seen at `time` (already seen ones keep their first time), then lets the
    /// oldest marks past `FollowLimits.maxSeenMarksPerGallery` go. The number of new marks.
    func markSeen(_ itemIDs: [String], in key: FollowedGallery.Key, at time: Int64,
                  on connection: SQLiteConnection) throws(FollowStoreError) -> Int {
        guard itemIDs.count <= FollowLimits.maxSeenMarksPerGallery else {
            throw .tooMany(limit: FollowLimits.maxSeenMarksPerGallery)
        }
        for id in itemIDs where id.isEmpty || id.utf8.count > FollowLimits.maxItemIDBytes {
            throw .invalid(reason: tr("An item’s identity must have 1 to {limit} bytes.", ["limit": FollowLimits.maxItemIDBytes]))
        }
        let marked = try attempt { () throws -> Int? in
            try connection.transaction { () throws(SQLiteError) -> Int? in
                guard let gallery = try galleryID(key, on: connection) else { return nil }
                let insert = try connection.prepare(
                    "INSERT INTO seen_item (gallery_id, item_id, seen_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING")
                var added = 0
                for id in itemIDs {
                    try insert.bind([.integer(gallery), .text(id), .integer(time)])
                    while try insert.step() {}
                    added += connection.changes
                }
                // A seen item is new no more.
                let forget = try connection.prepare("DELETE FROM new_item WHERE gallery_id = ? AND item_id = ?")
                for id in itemIDs {
                    try forget.bind([.integer(gallery), .text(id)])
                    while try forget.step() {}
                }
                try trimSeenMarks(of: gallery, on: connection)
                return added
            }
        }
        guard let marked else { throw .notFollowed(key) }
        return marked
    }

    /// The gallery's seen item identities.
    func seenItemIDs(in key: FollowedGallery.Key, on connection: SQLiteConnection) throws(FollowStoreError) -> Set<String> {
        try Set(attempt { () throws -> [String] in
            try connection.rows(
                "SELECT item_id FROM seen_item JOIN followed_gallery ON followed_gallery.id = seen_item.gallery_id "
                    + "WHERE source = ? AND identity = ? LIMIT ?",
                [.text(key.source.rawValue), .text(key.identity), .integer(Int64(FollowLimits.maxSeenMarksPerGallery))]
            ) { $0.text(0) ?? "" }
        })
    }

    /// What a check of the gallery found: when it ran, the newest item it saw (nil: keep the last known one)
    /// and its problem (nil: it went well). False when the gallery is no longer followed.
    func recordCheck(of key: FollowedGallery.Key, at time: Int64, newestItem: (id: String, time: Int64?)?,
                     problem: String?, on connection: SQLiteConnection) throws(FollowStoreError) -> Bool {
        if let newestItem, newestItem.id.isEmpty || newestItem.id.utf8.count > FollowLimits.maxItemIDBytes {
            throw .invalid(reason: tr("An item’s identity must have 1 to {limit} bytes.", ["limit": FollowLimits.maxItemIDBytes]))
        }
        let problemText: SQLiteValue = problem.map { .text(DisplayText.clean($0, limit: FollowLimits.maxProblemLength)) } ?? .null
        var sql = "UPDATE followed_gallery SET last_checked_at = ?, last_problem = ?"
        var values: [SQLiteValue] = [.integer(time), problemText]
        if let newestItem {
            sql += ", last_item_id = ?, last_item_time = ?"
            values += [.text(newestItem.id), newestItem.time.map { .integer($0) } ?? .null]
        }
        values += [.text(key.source.rawValue), .text(key.identity)]
        return try attempt { () throws -> Bool in
            try connection.transaction { () throws(SQLiteError) -> Bool in
                try connection.run(sql + " WHERE source = ? AND identity = ?", values) == 1
            }
        }
    }

    /// Lets the oldest seen-marks past `FollowLimits.maxSeenMarksPerGallery` go.
    func trimSeenMarks(of gallery: Int64, on connection: SQLiteConnection) throws(SQLiteError) {
        try connection.run(
            "DELETE FROM seen_item WHERE gallery_id = ?1 AND item_id IN ( "
                + "SELECT item_id FROM seen_item WHERE gallery_id = ?1 "
                + "ORDER BY seen_at DESC, item_id LIMIT -1 OFFSET ?2)", [.integer(gallery), .integer(Int64(FollowLimits.maxSeenMarksPerGallery))])
    }

    func galleryID(_ key: FollowedGallery.Key, on connection: SQLiteConnection) throws(SQLiteError) -> Int64? {
        try connection.integer("SELECT id FROM followed_gallery WHERE source = ? AND identity = ?",
                               [.text(key.source.rawValue), .text(key.identity)])
    }

    static func validate(_ key: FollowedGallery.Key) throws(FollowStoreError) {
        guard isValid(key.username) else {
            throw .invalid(reason: tr("A followed username must have 1 to {limit} characters and no control characters.",
                                      ["limit": FollowLimits.maxUsernameLength]))
        }
    }

    /// A stored URL read back only if it is still an absolute http(s) one.
    static func webAddress(_ text: String) -> String? { URLText.isWebAddress(text) ? text : nil }

    static func validators(url: String?, etag: String?, lastModified: String?) -> HTTPValidators? {
        guard let url, URLText.isWebAddress(url), etag != nil || lastModified != nil else { return nil }
        let fits = { (value: String?) in value.flatMap { $0.utf8.count <= FollowLimits.maxValidatorBytes ? $0 : nil } }
        return HTTPValidators(url: url, etag: fits(etag), lastModified: fits(lastModified))
    }

    /// Read back within `FollowLimits.maxResolutionBytes`; the source checks the rest (`firstRequest(resolved:)`).
    static func resolution(accountID: String?, context: String?) -> SourceResolution? {
        guard let accountID, !accountID.isEmpty, accountID.utf8.count <= FollowLimits.maxResolutionBytes,
              (context?.utf8.count ?? 0) <= FollowLimits.maxResolutionBytes else { return nil }
        return SourceResolution(accountID: accountID, context: context)
    }

    /// An origin kept and read back only if it is one ("scheme://host[:port]" as `URLText.origin` writes it),
    /// within `FollowLimits.maxResolutionBytes`.
    static func origin(_ text: String) -> String? {
        text.utf8.count <= FollowLimits.maxResolutionBytes && URLText.origin(of: text) == text ? text : nil
    }

    /// Read back too: a name edited into the file by hand that no source would take is skipped.
    static func isValid(_ username: String) -> Bool {
        !username.isEmpty && username.count <= FollowLimits.maxUsernameLength
            && DisplayText.clean(username, limit: FollowLimits.maxUsernameLength) == username
    }
}
