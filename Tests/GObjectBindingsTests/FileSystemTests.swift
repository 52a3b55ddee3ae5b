import CGLib
import GObjectBindings
import TestSupport
import XCTest

/// The key file, the private directory and the lock file: what GalleryCore's state and disk cache stand on.
final class FileSystemTests: GLibTestCase {
    private static func mode(_ path: String) -> UInt32? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o777 : nil
    }

    /// A bounded read gives a file whole up to its bound and refuses one byte more, or what is not a regular
    /// file, without reading it; a small file under a large bound costs its own size (the launch reads the kept
    /// first screen, bound 8 MiB, often a few hundred kilobytes).
    func testABoundedReadTakesWholeFilesUpToTheBoundOnly() throws {
        let folder = TemporaryFolder()
        let small: [UInt8] = Array("a small file".utf8)
        folder.write(small, to: "small")
        XCTAssertEqual(try BoundedFileRead.read(atPath: folder.path + "/small", maxBytes: 8 << 20).get(), small)
        let bound = 70_000
        let exact = (0..<bound).map { UInt8(truncatingIfNeeded: $0 * 7) }
        folder.write(exact, to: "exact")
        XCTAssertEqual(try BoundedFileRead.read(atPath: folder.path + "/exact", maxBytes: bound).get(), exact, "read whole")
        folder.write(exact + [1], to: "over")
        XCTAssertEqual(BoundedFileRead.read(atPath: folder.path + "/over", maxBytes: bound), .failure(.tooLarge))
        folder.write([], to: "empty")
        XCTAssertEqual(try BoundedFileRead.read(atPath: folder.path + "/empty", maxBytes: bound).get(), [])
        XCTAssertEqual(BoundedFileRead.read(atPath: folder.path, maxBytes: bound), .failure(.notAFile))
        XCTAssertEqual(mkfifo(folder.path + "/fifo", 0o600), 0)
        XCTAssertEqual(BoundedFileRead.read(atPath: folder.path + "/fifo", maxBytes: bound), .failure(.notAFile),
                       "a FIFO with no writer does not hold the reader")
        // A file longer than its size says (procfs says 0): read past it, up to the bound.
        let maps = try BoundedFileRead.read(atPath: "/proc/self/smaps", maxBytes: 64 << 20).get()
        XCTAssertGreaterThan(maps.count, 16384, "read past several growths")
        XCTAssertTrue(maps.last == UInt8(ascii: "\n"), "to its end")
        XCTAssertEqual(BoundedFileRead.read(atPath: "/proc/self/smaps", maxBytes: 100), .failure(.tooLarge))
        guard case .failure(.failed) = BoundedFileRead.read(atPath: folder.path + "/missing", maxBytes: bound) else {
            return XCTFail("a missing file is a failure")
        }
    }

    func testKeyFilesReadEscapeAndKeepTheirComments() throws {
        let text = "# the user's note\n[cache]\nmax-size-mb=12\nname=a\\nb\n[other]\nsize=lots\n"
        let file = try XCTUnwrap(KeyFile(text: text, keepComments: true))
        XCTAssertEqual(file.integer(group: "cache", key: "max-size-mb"), 12)
        XCTAssertEqual(file.string(group: "cache", key: "name"), "a\nb", "unescaped when read")
        XCTAssertNil(file.integer(group: "other", key: "size"), "not a number")
        XCTAssertNil(file.string(group: "cache", key: "missing"))
        XCTAssertFalse(file.contains(group: "nowhere", key: "size"))
        file.set("two\nlines", group: "new", key: "value")
        file.set(7, group: "new", key: "count")
        file.setComment(" explained", group: "new", key: "count")
        let written = file.text
        XCTAssertTrue(written.hasPrefix("# the user's note\n"), written)
        XCTAssertTrue(written.contains("value=two\\nlines"), "escaped when written: \(written)")
        XCTAssertTrue(written.contains("# explained\ncount=7"), written)
        let reread = try XCTUnwrap(KeyFile(text: written))
        XCTAssertEqual(reread.string(group: "new", key: "value"), "two\nlines")
        XCTAssertNil(KeyFile(text: "not [a key file"), "corrupt text is no key file")
        XCTAssertFalse(KeyFile(text: text)!.text.contains("note"), "comments only when asked to keep them")
    }

    func testKeyFileListsEscapeTheirSeparatorAndGroupsCanGo() throws {
        let file = KeyFile()
        file.set(["demo:aurora", "mastodon:a;b@x.example", ""], group: "recent", key: "list")
        file.set("kept", group: "other", key: "value")
        let reread = try XCTUnwrap(KeyFile(text: file.text))
        XCTAssertEqual(reread.stringList(group: "recent", key: "list", limit: 10), ["demo:aurora", "mastodon:a;b@x.example", ""],
                       "a \";\" in an item is escaped, not a new item")
        XCTAssertEqual(reread.stringList(group: "recent", key: "list", limit: 2), ["demo:aurora", "mastodon:a;b@x.example"])
        XCTAssertEqual(reread.stringList(group: "recent", key: "list", limit: -1), [])
        XCTAssertNil(reread.stringList(group: "recent", key: "missing", limit: 10))
        reread.removeGroup("recent")
        reread.removeGroup("never-there")
        XCTAssertFalse(reread.contains(group: "recent", key: "list"))
        XCTAssertEqual(reread.string(group: "other", key: "value"), "kept", "other groups stay")
    }

    func testPrivateDirectoriesAreMadeOrNarrowed() {
        let folder = TemporaryFolder(prefix: "gallery-fs")
        let fresh = folder.path + "/a/b/c"
        XCTAssertTrue(FileSystem.makePrivateDirectory(fresh))
        XCTAssertEqual(Self.mode(fresh), 0o700)
        let wide = folder.path + "/wide"
        XCTAssertEqual(mkdir(wide, 0o755), 0)
        XCTAssertTrue(FileSystem.makePrivateDirectory(wide))
        XCTAssertEqual(Self.mode(wide), 0o700, "an existing wider directory is narrowed")
        XCTAssertFalse(FileSystem.makePrivateDirectory("/proc/no-such-place"))
        XCTAssertEqual(FileSystem.directoryName(of: fresh), folder.path + "/a/b")
        XCTAssertEqual(FileSystem.baseName(of: fresh), "c")
        XCTAssertTrue(FileSystem.rename(fresh, to: folder.path + "/moved"))
        XCTAssertNil(Self.mode(fresh))
        XCTAssertFalse(FileSystem.rename(fresh, to: folder.path + "/again"), "nothing left to move")
    }

    func testOnlyTheTemporaryFilesOfInterruptedWritesAreRemovedAndOnlyOldOnes() throws {
        let folder = TemporaryFolder(prefix: "gallery-fs")
        let elsewhere = folder.path + "/elsewhere"
        XCTAssertTrue(g_file_set_contents(elsewhere, "kept", -1, nil) != 0)
        let leftovers = ["index.json.AbC123", "index.json.xyz789", ".goutputstream-Q1W2E3", "state.QWERTY"]
        let others = ["index.json", "index.json.bak", "index.json.AbC1234", "index.json.AbC12-", "notes.AbC123",
                      ".goutputstream-", "index.jsonXAbC123"]
        for name in leftovers + others {
            XCTAssertTrue(g_file_set_contents(folder.path + "/" + name, "x", -1, nil) != 0, name)
        }
        XCTAssertEqual(symlink(elsewhere, folder.path + "/index.json.LnK456"), 0)
        XCTAssertEqual(mkdir(folder.path + "/state.D1R000", 0o700), 0)
        let now = Int(g_get_real_time() / 1_000_000)

        XCTAssertEqual(DirectoryScan.removeInterruptedWrites(in: folder.path, of: ["index.json", "state"], changedBefore: now - 60), 0,
                       "a write newer than the bound may be under way")
        XCTAssertEqual(DirectoryScan.removeInterruptedWrites(in: folder.path, of: ["index.json", "state"], changedBefore: now + 60),
                       leftovers.count)
        XCTAssertEqual(Set(DirectoryScan.names(in: folder.path)),
                       Set(others + ["elsewhere", "index.json.LnK456", "state.D1R000"]),
                       "names that are not NAME.XXXXXX, a link and a directory stay")
        XCTAssertEqual(try XCTUnwrap(File.smallText(atPath: elsewhere)), "kept")
    }

    func testALockFileHasOneHolderUntilItGoes() throws {
        let folder = TemporaryFolder(prefix: "gallery-fs")
        let path = folder.path + "/lock"
        do {
            let first = try XCTUnwrap(FileLock(path: path))
            XCTAssertEqual(Self.mode(path), 0o600)
            XCTAssertNil(FileLock(path: path), "held: a second claim fails at once")
            withExtendedLifetime(first) {}
        }
        XCTAssertNotNil(FileLock(path: path), "released when its holder went")
        XCTAssertNil(FileLock(path: folder.path + "/missing/lock"))
    }
}
