import SQLiteBindings

/// The follow store's tables, as a list of migrations: migration n takes `user_version` n to n + 1, each in a
/// transaction of its own, so a kill between two leaves a file at one version or the next, never between.
/// Append to the list; never edit a shipped step.
enum FollowSchema {
    static let migrations: [String] = [
        // 1: followed galleries and their seen-marks.
        """
        CREATE TABLE followed_gallery (
            id INTEGER PRIMARY KEY,
            source TEXT NOT NULL,
            username TEXT NOT NULL,
            -- The spelling the service's username rule compares (FollowedGallery.Key.identity).
            identity TEXT NOT NULL,
            display_name TEXT NOT NULL,
            followed_at INTEGER NOT NULL,
            last_item_id TEXT,
            last_item_time INTEGER,
            last_checked_at INTEGER,
            last_problem TEXT,
            UNIQUE (source, identity)
        );
        CREATE TABLE seen_item (
            gallery_id INTEGER NOT NULL REFERENCES followed_gallery (id) ON DELETE CASCADE,
            item_id TEXT NOT NULL,
            seen_at INTEGER NOT NULL,
            PRIMARY KEY (gallery_id, item_id)
        ) WITHOUT ROWID;
        CREATE INDEX seen_item_by_age ON seen_item (gallery_id, seen_at);
        """,
        // 2: what the checker found new, and what it needs to ask again cheaply. `new_item.item` is a
        // `PackedGalleryItem` behind a format byte (`FollowItemCoding`); `sort_time` (milliseconds) is the
        // item's publication, else when it was found: what "newest first" orders by.
        """
        ALTER TABLE followed_gallery ADD COLUMN etag TEXT;
        ALTER TABLE followed_gallery ADD COLUMN last_modified TEXT;
        ALTER TABLE followed_gallery ADD COLUMN validated_url TEXT;
        ALTER TABLE followed_gallery ADD COLUMN avatar_url TEXT;
        CREATE TABLE new_item (
            gallery_id INTEGER NOT NULL REFERENCES followed_gallery (id) ON DELETE CASCADE,
            item_id TEXT NOT NULL,
            found_at INTEGER NOT NULL,
            published INTEGER,
            sort_time INTEGER NOT NULL,
            item BLOB NOT NULL,
            PRIMARY KEY (gallery_id, item_id)
        ) WITHOUT ROWID;
        CREATE INDEX new_item_newest ON new_item (sort_time DESC, item_id);
        CREATE INDEX new_item_by_gallery ON new_item (gallery_id, sort_time);
        """,
        // 3: what the last lookup of the account resolved (`SourceResolution`), so that a check starts from
        // the request it leads to: one request for a gallery with nothing new. With the origin of the server
        // the lookup asked (an account id is that server's) and when (milliseconds): an old one is made again.
        """
        ALTER TABLE followed_gallery ADD COLUMN resolved_account TEXT;
        ALTER TABLE followed_gallery ADD COLUMN resolved_context TEXT;
        ALTER TABLE followed_gallery ADD COLUMN resolved_origin TEXT;
        ALTER TABLE followed_gallery ADD COLUMN resolved_at INTEGER;
        """,
    ]

    static var version: Int { migrations.count }

    /// Runs the migrations after `version`; the first also marks the file as ours (`application_id`).
    static func migrate(_ connection: SQLiteConnection, from version: Int) throws(SQLiteError) {
        try migrate(connection, fromVersion: version, toVersion: migrations.count)
    }

    /// Runs migrations `from + 1` to `to` (tests make files of an older version so).
    static func migrate(_ connection: SQLiteConnection, fromVersion version: Int, toVersion target: Int) throws(SQLiteError) {
        for step in version..<min(target, migrations.count) {
            try connection.transaction { () throws(SQLiteError) in
                try connection.execute(migrations[step])
                if step == 0 { try connection.execute("PRAGMA application_id = \(FollowDatabase.applicationID)") }
                try connection.execute("PRAGMA user_version = \(step + 1)")
            }
        }
    }
}
