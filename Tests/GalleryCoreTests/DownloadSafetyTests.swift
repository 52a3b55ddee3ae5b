import CGLib
import GObjectBindings
import Glibc
import TestSupport
import XCTest
@testable import GalleryCore

/// What `--download` does with a folder and partial files a server or another program could turn against the
/// user: links are never followed, a changed image is never spliced, a folder others can write to is refused.
/// A real SoupServer on 127.0.0.1, real files in a temporary folder.
final class DownloadSafetyTests: GLibTestCase {
    static let payload = GalleryDownloaderTests.payload
    static let changed = PatternBytes.make(count: 600_000, key: "changed")
    static let partialBytes = 250_000

    private static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
    }

    /// A file outside the download folder that a planted partial file points at.
    private static func victim(in folder: TemporaryFolder) -> String {
        folder.write(Array(payload[..<partialBytes]), to: "victim.png")
        return folder.path + "/victim.png"
    }

    /// The link is put in place once the run has listed the folder (as a regular partial file) and asked for
    /// the rest of it: the moment a check made only at listing time would miss.
    func testAPartialFileSwappedForALinkAfterListingIsNeverWrittenThrough() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let outside = TemporaryFolder(prefix: "gallery-outside")
            let victim = Self.victim(in: outside)
            let partial = folder.path + "/.c.png.part"
            folder.write(Array(Self.payload[..<Self.partialBytes]), to: ".c.png.part")
            let server = try TestHTTPServer()
            var ranges: [String?] = []
            server.route("/img/*") { request in
                ranges.append(request.header("Range"))
                if request.header("Range") != nil {
                    XCTAssertEqual(unlink(partial), 0)
                    XCTAssertEqual(symlink(victim, partial), 0)
                }
                return .bytes(Self.payload, contentType: "image/png")
            }
            let downloader = GalleryDownloaderTests.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
            XCTAssertTrue(outside.contents("victim.png") == Array(Self.payload[..<Self.partialBytes]),
                           "nothing was appended to the file the link points at")
            XCTAssertEqual(downloader.failures, [])
            XCTAssertEqual(ranges, ["bytes=\(Self.partialBytes)-", nil], "the link was removed and the image asked for whole")
            XCTAssertTrue(Self.isRegularFile(folder.path + "/c.png"), "the saved image is a file, not the link")
            XCTAssertTrue(folder.contents("c.png") == Self.payload)
            XCTAssertEqual(folder.names(), ["c.png"])
        }
    }

    func testALinkOrASecondNameUnderAPartialFilesNameIsNeverWrittenThrough() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/img/*") { _ in .bytes(Self.payload, contentType: "image/png") }
            let outside = TemporaryFolder(prefix: "gallery-outside")
            for plant in ["symbolic link", "hard link"] {
                let folder = TemporaryFolder(prefix: "gallery-downloads")
                // A hard link must live on the same file system: the victim is in the folder, under another name.
                let victim = Self.victim(in: plant == "hard link" ? folder : outside)
                let planted = plant == "hard link" ? link(victim, folder.path + "/.c.png.part") : symlink(victim, folder.path + "/.c.png.part")
                XCTAssertEqual(planted, 0, plant)
                let downloader = GalleryDownloaderTests.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
                XCTAssertTrue(fileBytes(atPath: victim) == Array(Self.payload[..<Self.partialBytes]), "\(plant): victim untouched")
                XCTAssertEqual(downloader.failures, [], plant)
                XCTAssertEqual(downloader.progress.resumed, 0, plant)
                XCTAssertTrue(Self.isRegularFile(folder.path + "/c.png"), plant)
                XCTAssertTrue(folder.contents("c.png") == Self.payload, plant)
                XCTAssertFalse(folder.names().contains(".c.png.part"), plant)
            }
        }
    }

    /// A server whose image changed between two runs: the resume's `If-Range` carries the first version's
    /// ETag, stored with the partial file, so the server sends the new version whole. Without it, a server
    /// answers the Range with the rest of the new version, spliced onto the old one's start.
    func testAResumeSendsIfRangeSoAChangedImageComesWhole() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            var ifRanges: [String?] = []
            server.route("/img/*") { request in
                ifRanges.append(request.header("If-Range"))
                // The first run gets version 1, cut off; the image has changed by the second run.
                let first = ifRanges.count == 1
                let current = first ? (etag: "\"v1\"", bytes: Self.payload) : (etag: "\"v2\"", bytes: Self.changed)
                let image = TestResponse.bytes(current.bytes, contentType: "image/png").header("ETag", current.etag)
                if first { return image.truncated(afterBytes: 300_000) }
                if let ifRange = request.header("If-Range"), ifRange != current.etag {
                    // Streamed, so that libsoup does not cut the Range out of it: the whole image, 200.
                    return image.throttled(bytesPerSecond: 100_000_000)
                }
                return image
            }
            let job = GalleryDownloader.Job(name: "c.png", url: server.url("/img/c.png"))
            let first = GalleryDownloaderTests.run([job], into: folder)
            XCTAssertEqual(first.progress.failed, 1, "cut off")
            XCTAssertEqual(folder.contents(".c.png.part")?.count, 300_000)

            let second = GalleryDownloaderTests.run([job], into: folder)
            XCTAssertEqual(ifRanges, [nil, "\"v1\""], "the resume names the version its partial file holds")
            XCTAssertEqual(second.failures, [])
            XCTAssertEqual(second.progress.resumed, 0)
            XCTAssertTrue(folder.contents("c.png") == Self.changed, "the new version whole, never two versions spliced")
        }
    }

    func testAResumeOfAnUnchangedImageStillContinuesThePartialFile() throws {
        try MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let server = try TestHTTPServer()
            var ifRanges: [String?] = []
            let lastModified = "Tue, 03 Nov 2026 10:00:00 GMT"
            server.route("/img/*") { request in
                ifRanges.append(request.header("If-Range"))
                // A weak ETag cannot validate a range: Last-Modified is the validator then.
                let image = TestResponse.bytes(Self.payload, contentType: "image/png").header("ETag", "W/\"weak\"")
                    .header("Last-Modified", lastModified)
                return ifRanges.count == 1 ? image.truncated(afterBytes: 300_000) : image
            }
            let job = GalleryDownloader.Job(name: "c.png", url: server.url("/img/c.png"))
            _ = GalleryDownloaderTests.run([job], into: folder)
            let second = GalleryDownloaderTests.run([job], into: folder)
            XCTAssertEqual(ifRanges, [nil, lastModified])
            XCTAssertEqual(second.progress.resumed, 1)
            XCTAssertEqual(second.progress.bytesReceived, Self.payload.count - 300_000)
            XCTAssertTrue(folder.contents("c.png") == Self.payload)
        }
    }

    /// Free space is checked before each file: with less than the minimum, the run stops before its first
    /// request, saying why; with more, it saves. (The minimum is set around the disk's real free space, with a
    /// margin of a gigabyte, which no other writer on the machine changes while a file or two is saved.)
    func testNoFileIsStartedWhenTheDiskHasTooLittleFreeSpace() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/img/*") { _ in .bytes(Self.payload, contentType: "image/png") }
            let jobs = ["a.png", "b.png"].map { GalleryDownloader.Job(name: $0, url: server.url("/img/\($0)")) }
            let folder = TemporaryFolder(prefix: "gallery-downloads")
            let free = try XCTUnwrap(GalleryDownloader.freeBytes(folder.path))
            for (minimum, saves) in [(free + 1_073_741_824, false), (max(0, free - 1_073_741_824), true)] {
                let downloader = GalleryDownloader(pipeline: ImagePipeline(client: HTTPClient()), directory: folder.path)
                downloader.minimumFreeBytes = minimum
                var done = false
                downloader.start(jobs) { done = true }
                XCTAssertTrue(iterateMainLoop(until: { done }, timeout: 120))
                if saves {
                    XCTAssertNil(downloader.stopReason)
                    XCTAssertEqual(downloader.progress.saved, 2)
                } else {
                    let reason = try XCTUnwrap(downloader.stopReason)
                    XCTAssertTrue(reason.hasPrefix("Stopped: the disk of \(folder.path) has only"), reason)
                    XCTAssertEqual(server.requestCount, 0, "no file was started")
                    XCTAssertEqual(folder.names(), [], "nothing half-written")
                }
            }
        }
    }

    /// At the edge: the owner's and the user's own group's write bits are fine, anyone else's is not.
    func testAFolderOtherUsersCanWriteToIsRefusedBeforeAnyRequest() throws {
        try MainActor.assumeIsolated {
            let server = try TestHTTPServer()
            server.route("/img/*") { _ in .bytes(Self.payload, contentType: "image/png") }
            for mode: mode_t in [0o700, 0o755, 0o775] {
                let folder = TemporaryFolder(prefix: "gallery-downloads")
                XCTAssertEqual(chmod(folder.path, mode), 0)
                XCTAssertNil(GalleryDownloader.folderRefusal(folder.path), String(mode, radix: 8))
            }
            for mode: mode_t in [0o757, 0o777, 0o1777, 0o702] {
                let folder = TemporaryFolder(prefix: "gallery-downloads")
                XCTAssertEqual(chmod(folder.path, mode), 0)
                let refusal = try XCTUnwrap(GalleryDownloader.folderRefusal(folder.path), String(mode, radix: 8))
                XCTAssertTrue(refusal.contains(folder.path) && refusal.contains("Other users"), refusal)
                let downloader = GalleryDownloaderTests.run([.init(name: "c.png", url: server.url("/img/c.png"))], into: folder)
                XCTAssertEqual(downloader.failures, [.init(name: "c.png", reason: refusal)])
                XCTAssertEqual(folder.names(), [], "nothing written")
            }
            XCTAssertEqual(server.requestCount, 0, "no request for a folder that is refused")
        }
    }
}
