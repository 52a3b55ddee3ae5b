import CGLib
import GObjectBindings
import SQLiteBindings
import TestSupport
import XCTest
@testable import GalleryCore
#if canImport(Glibc)
import Glibc
#endif

/// "A kill -9 at any moment loses no follow and no acknowledged seen-mark": a real process
/// (`gallery-test-follow-writer`) writes as fast as it can, printing each acknowledgement, and is killed with
/// SIGKILL once it printed N of them, N different each round. Every acknowledged write must then be in the
/// file, and the file must pass integrity_check. A check's write (its new items, stopping point, resolution)
/// killed midway is in the file whole or not at all.
final class FollowStoreCrashTests: GLibTestCase {
    func testAKillNineLosesNothingAcknowledged() throws {
        let writer = try XCTUnwrap(Self.writerPath(), "gallery-test-follow-writer not built beside the tests")
        let folder = TemporaryFolder()
        for (round, count) in [7, 40, 113].enumerated() {
            let acknowledged = try runAndKill(writer, directory: folder.path, first: (round + 1) * 100_000) { lines in
                lines.filter { $0 != "ready" }.count >= count + 1
            }
            XCTAssertGreaterThanOrEqual(acknowledged.count, count)
            try assertNothingLost(acknowledged, in: folder.path, round: round)
        }
    }

    /// The writer writes checks of 1,000 new items each, and is killed as the write of one begins (on the line
    /// of the follow queued just before it): each gallery then has its check whole (every item, its stopping
    /// point and resolution) or none of it, and the acknowledged follows, seen-marks and checks are all there.
    func testAKillNineMidwayThroughACheckLeavesTheWholeCheckOrNone() throws {
        let writer = try XCTUnwrap(Self.writerPath(), "gallery-test-follow-writer not built beside the tests")
        let folder = TemporaryFolder()
        let directory = folder.path
        for (round, count) in [1, 4, 9].enumerated() {
            let acknowledged = try runAndKill(writer, directory: directory, first: (round + 1) * 100_000, mode: ["checks"]) { lines in
                lines.filter { $0.hasPrefix("followed ") }.count >= count
            }
            try assertNothingLost(acknowledged, in: directory, round: round)
            let checked = Set(acknowledged.filter { $0.hasPrefix("checked ") }.map { "writer-" + $0.dropFirst("checked ".count) })
            try MainActor.assumeIsolated {
                let store = FollowStore(directory: directory)
                let galleries = try answer { store.following(completion: $0) }.get().filter { $0.key.username != "writer-anchor" }
                XCTAssertFalse(galleries.isEmpty)
                for gallery in galleries {
                    let number = gallery.key.username.dropFirst("writer-".count)
                    let whole = gallery.newCount == FollowLimits.maxNewItemsPerGallery && gallery.lastItemID == "check-\(number)-0"
                        && gallery.resolution == SourceResolution(accountID: "account-\(number)") && gallery.displayName == "Checked \(number)"
                    let none = gallery.newCount == 0 && gallery.lastItemID == nil && gallery.resolution == nil
                        && gallery.lastCheckedAt == nil && gallery.displayName == "W \(number)"
                    XCTAssertTrue(whole || none, "round \(round), half a check: \(gallery)")
                    if checked.contains(gallery.key.username) { XCTAssertTrue(whole, "acknowledged, not whole: \(gallery)") }
                }
                answer { done in store.close { done(()) } }
            }
        }
    }

    /// Every acknowledged follow and seen-mark of `lines` is in the store, which moved nothing aside and
    /// passes integrity_check.
    private func assertNothingLost(_ lines: [String], in directory: String, round: Int) throws {
        try MainActor.assumeIsolated {
            let store = FollowStore(directory: directory)
            let followed = Set(try answer { store.following(completion: $0) }.get().map(\.key.username))
            let seen = try answer { store.seenItemIDs(in: .init(source: .demo, username: "writer-anchor"), completion: $0) }.get()
            for line in lines {
                let parts = line.split(separator: " ")
                guard parts.count == 2 else { continue }
                switch parts[0] {
                case "followed", "checked": XCTAssertTrue(followed.contains("writer-\(parts[1])"), "lost: \(line)")
                case "seen": XCTAssertTrue(seen.contains("item-\(parts[1])"), "lost: \(line)")
                default: XCTAssertEqual(line, "ready")
                }
            }
            XCTAssertEqual(store.recoveries, [])
            answer { done in store.close { done(()) } }
        }
        let check = try SQLiteConnection(path: directory + "/follows.sqlite3", create: false)
        XCTAssertEqual(try check.rows("PRAGMA integrity_check") { $0.text(0) }, ["ok"], "round \(round)")
    }

    /// Starts the writer, reads its lines until `enough` says so (waiting on its output, with a deadline for a
    /// writer that hangs), kills it with SIGKILL at once and returns every line it printed.
    private func runAndKill(_ writer: String, directory: String, first: Int, mode: [String] = [],
                            until enough: ([String]) -> Bool) throws -> [String] {
        var pid: GPid = 0
        var output: Int32 = -1
        var error: UnsafeMutablePointer<GError>?
        let arguments = [writer, directory, String(first)] + mode
        var argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let started = g_spawn_async_with_pipes(nil, &argv, nil, G_SPAWN_DO_NOT_REAP_CHILD, nil, nil, &pid, nil, &output,
                                               nil, &error)
        guard started != 0 else {
            defer { g_error_free(error) }
            throw XCTSkip("could not start the writer: \(error.map { String(cString: $0.pointee.message) } ?? "?")")
        }
        defer { close(output) }
        var text = ""
        var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: true).map(String.init) }
        let deadline = g_get_monotonic_time() + 60_000_000
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !enough(lines), g_get_monotonic_time() < deadline {
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 1000) > 0 else { continue }
            let got = read(output, &buffer, buffer.count)
            if got <= 0 { break }
            text += String(decoding: buffer[0..<got], as: UTF8.self)
        }
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        g_spawn_close_pid(pid)
        // What it printed before it died: a line half written when the kill came is not an acknowledgement.
        var rest = [UInt8](repeating: 0, count: 65536)
        while true {
            let got = read(output, &rest, rest.count)
            if got <= 0 { break }
            text += String(decoding: rest[0..<got], as: UTF8.self)
        }
        XCTAssertFalse(text.contains("failed"), text)
        var complete = lines
        if !text.hasSuffix("\n"), !complete.isEmpty { complete.removeLast() }
        return complete
    }

    /// `GALLERY_TEST_FOLLOW_WRITER` (the AddressSanitizer run builds the tests alone, and points at the debug
    /// build's writer), else the one beside the test bundle.
    private static func writerPath() -> String? {
        if let given = g_getenv("GALLERY_TEST_FOLLOW_WRITER").map({ String(cString: $0) }), access(given, X_OK) == 0 {
            return given
        }
        guard let test = g_file_read_link("/proc/self/exe", nil) else { return nil }
        defer { g_free(test) }
        let path = FileSystem.directoryName(of: String(cString: test)) + "/gallery-test-follow-writer"
        return access(path, X_OK) == 0 ? path : nil
    }
}
