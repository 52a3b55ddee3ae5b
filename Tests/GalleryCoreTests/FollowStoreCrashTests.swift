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
                lines.filter { $0.text != "ready" }.count >= count + 1 ? 0 : nil
            }
            XCTAssertGreaterThanOrEqual(acknowledged.count, count)
            try assertNothingLost(acknowledged, in: folder.path, round: round)
        }
    }

    /// The writer writes checks of 1,000 new items each, and is killed while it writes one: its write starts
    /// on the line of the follow queued just before it, and the kill comes that line plus a fraction (0 to 1)
    /// of how long the writes before took. Each gallery then has its check whole (every item, its stopping
    /// point and resolution) or none of it, and the acknowledged follows, seen-marks and checks are all there.
    func testAKillNineMidwayThroughACheckLeavesTheWholeCheckOrNone() throws {
        let writer = try XCTUnwrap(Self.writerPath(), "gallery-test-follow-writer not built beside the tests")
        let folder = TemporaryFolder()
        let directory = folder.path
        for (round, (count, fraction)) in [(2, 0.0), (3, 0.2), (4, 0.4), (5, 0.6), (6, 0.8), (8, 1.0)].enumerated() {
            let acknowledged = try runAndKill(writer, directory: directory, first: (round + 1) * 100_000, mode: ["checks"]) { lines in
                let follows = lines.filter { $0.text.hasPrefix("followed ") }
                guard follows.count >= count else { return nil }
                // A check's write: from its follow's line ("followed N") to its own ("checked N").
                let writes = follows.compactMap { follow in
                    lines.first { $0.text == "checked " + follow.text.dropFirst("followed ".count) }.map { $0.at - follow.at }
                }.sorted()
                return Int(Double(writes.isEmpty ? 0 : writes[writes.count / 2]) * fraction)
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

    /// A line the writer printed, and when it was read (monotonic microseconds).
    private struct Line {
        let text: String
        let at: Int
    }

    /// Starts the writer, reads its lines until `killAfter` gives the microseconds to the kill (waiting on its
    /// output, with a deadline for a writer that hangs), kills it with SIGKILL then and returns every line it
    /// printed.
    private func runAndKill(_ writer: String, directory: String, first: Int, mode: [String] = [],
                            killAfter: ([Line]) -> Int?) throws -> [String] {
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
        var lines: [Line] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        /// Reads what the writer printed within `milliseconds`; false once it closed its output.
        func readSome(waiting milliseconds: Int32) -> Bool {
            var poller = pollfd(fd: output, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, milliseconds) > 0 else { return true }
            let got = read(output, &buffer, buffer.count)
            if got <= 0 { return false }
            text += String(decoding: buffer[0..<got], as: UTF8.self)
            let now = g_get_monotonic_time()
            while let end = text.firstIndex(of: "\n") {
                lines.append(Line(text: String(text[..<end]), at: now))
                text = String(text[text.index(after: end)...])
            }
            return true
        }
        let deadline = g_get_monotonic_time() + 60_000_000
        var killAt: Int?
        while g_get_monotonic_time() < deadline, readSome(waiting: 1000) {
            if let wait = killAfter(lines) {
                killAt = g_get_monotonic_time() + wait
                break
            }
        }
        // Read on until the kill: a writer whose output is not read would block on it.
        while let killAt, g_get_monotonic_time() < killAt,
              readSome(waiting: Int32(max(0, (killAt - g_get_monotonic_time()) / 1000))) {}
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
        let complete = lines.map(\.text) + text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        XCTAssertFalse(complete.contains { $0.contains("failed") }, "\(complete)")
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
