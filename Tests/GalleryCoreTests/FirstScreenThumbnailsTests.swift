import CGLib
import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The first screen's thumbnails kept beside the saved first page: what is written reads back pixel for pixel,
/// only for the same gallery, and a file that is cut, padded, or states sizes beyond the bounds is ignored
/// whole. The file is written whole, private, and replaces a link planted in its place instead of following it.
final class FirstScreenThumbnailsTests: GLibTestCase {
    static let firstURL = "https://www.deviantart.com/rss.xml?q=gallery:inkwell"

    /// Two thumbnails: one with alpha, one without, whose rows are padded (5 RGB pixels in a 16-byte row).
    static func entries() -> [FirstScreenThumbnails.Entry] {
        var withAlpha = DecodedPixbuf(pixbuf: noise(width: 7, height: 3, hasAlpha: true), originalWidth: 700, originalHeight: 300)
        withAlpha.frameCount = 12
        withAlpha.isFirstFrameOnly = true
        let opaque = DecodedPixbuf(pixbuf: noise(width: 5, height: 4, hasAlpha: false), originalWidth: 50, originalHeight: 40)
        return [FirstScreenThumbnails.Entry(key: .init(url: "https://images.example/a.gif", maxPixelSize: 96), image: withAlpha),
                FirstScreenThumbnails.Entry(key: .init(url: "https://images.example/b.jpg", maxPixelSize: nil), image: opaque)]
    }

    static func noise(width: Int, height: Int, hasAlpha: Bool) -> Pixbuf {
        var canvas = PixbufCanvas(width: width, height: height, hasAlpha: hasAlpha)
        canvas.withMutablePixels { pixels, rowStride in
            for row in 0..<height {
                for byte in 0..<width * (hasAlpha ? 4 : 3) { pixels[row * rowStride + byte] = UInt8((row * 31 + byte * 7) & 0xFF) }
            }
        }
        return canvas.finish()
    }

    static func pixels(_ pixbuf: Pixbuf) -> [UInt8] {
        pixbuf.withUnsafePixels { start, _, _ in Array(UnsafeBufferPointer(start: start, count: pixbuf.pixelByteLength)) }
    }

    static func decode(_ bytes: [UInt8], firstURL: String = firstURL) -> [FirstScreenThumbnails.Entry]? {
        bytes.withUnsafeBytes { FirstScreenThumbnails.decode($0, firstURL: firstURL)?.entries }
    }

    func testWhatIsWrittenReadsBackPixelForPixel() throws {
        let written = Self.entries()
        XCTAssertNotEqual(written[1].image.pixbuf.rowStride, 5 * 3, "the padded rows this test is about")
        let read = try XCTUnwrap(Self.decode(FirstScreenThumbnails.encode(firstURL: Self.firstURL, entries: written)))
        XCTAssertEqual(read.count, 2)
        for (before, after) in zip(written, read) {
            XCTAssertEqual(after.key, before.key)
            XCTAssertEqual(after.image.pixbuf.width, before.image.pixbuf.width)
            XCTAssertEqual(after.image.pixbuf.height, before.image.pixbuf.height)
            XCTAssertEqual(after.image.pixbuf.hasAlpha, before.image.pixbuf.hasAlpha)
            XCTAssertEqual(Self.pixels(after.image.pixbuf), Self.pixels(before.image.pixbuf))
            XCTAssertEqual(after.image.originalWidth, before.image.originalWidth)
            XCTAssertEqual(after.image.originalHeight, before.image.originalHeight)
            XCTAssertEqual(after.image.frameCount, before.image.frameCount)
            XCTAssertEqual(after.image.isFirstFrameOnly, before.image.isFirstFrameOnly)
        }
    }

    func testAnotherGallerysFileIsNotRead() {
        let bytes = FirstScreenThumbnails.encode(firstURL: Self.firstURL, entries: Self.entries())
        XCTAssertNil(Self.decode(bytes, firstURL: Self.firstURL + "x"))
        XCTAssertNotNil(Self.decode(bytes))
    }

    func testACutOrPaddedFileIsIgnoredWhole() {
        let bytes = FirstScreenThumbnails.encode(firstURL: Self.firstURL, entries: Self.entries())
        for length in stride(from: 0, to: bytes.count, by: 7) {
            XCTAssertNil(Self.decode(Array(bytes.prefix(length))), "cut at \(length) of \(bytes.count)")
        }
        XCTAssertNil(Self.decode(Array(bytes.dropLast())))
        XCTAssertNil(Self.decode(bytes + [0]), "a byte after the last image")
        XCTAssertNil(Self.decode(Array("GVTHUMB2".utf8) + bytes.dropFirst(8)), "another layout")
    }

    /// Sizes the file states are checked before anything is made of them: an image count, a side, a row
    /// stride, a URL that is not a web address.
    func testStatedSizesBeyondTheBoundsAreRefused() {
        let header = 8 + 4 + Self.firstURL.utf8.count
        let bytes = FirstScreenThumbnails.encode(firstURL: Self.firstURL, entries: Self.entries())
        let firstURLLength = Self.entries()[0].key.url.utf8.count
        // The offsets of the first image's fields after its URL: size, width, height, row stride.
        let fields = header + 4 + 4 + firstURLLength
        func with(_ value: Int, at offset: Int) -> [UInt8] {
            var copy = bytes
            for index in 0..<4 { copy[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
            return copy
        }
        XCTAssertNil(Self.decode(with(FirstScreenThumbnails.maxEntries + 1, at: header)), "too many images")
        XCTAssertNil(Self.decode(with(FirstScreenThumbnails.maxSide + 1, at: fields + 4)), "too wide")
        XCTAssertNil(Self.decode(with(0, at: fields + 8)), "no rows")
        XCTAssertNil(Self.decode(with(1 << 30, at: fields + 12)), "a row stride over any row")
        XCTAssertNil(Self.decode(with(1, at: fields + 12)), "a row stride under the row")
        var notWeb = bytes
        notWeb.replaceSubrange(header + 8..<header + 13, with: Array("file:".utf8))
        XCTAssertNil(Self.decode(notWeb), "a key that is not a web address")
        XCTAssertNotNil(Self.decode(with(7, at: fields + 4)), "the same width written again reads")
    }

    func testTheStoreReadsItsOwnFileWrittenPrivatelyOverAPlantedLink() {
        MainActor.assumeIsolated {
            let folder = TemporaryFolder(prefix: "gallery-first-screen")
            let store = FeedSnapshotStore(path: folder.path + "/last-gallery.json")
            XCTAssertEqual(store.thumbnailsPath, folder.path + "/last-gallery.thumbnails")
            // Another user's file a link planted in the cache folder points at: it must not be written.
            let target = folder.path + "/elsewhere"
            XCTAssertTrue(FileSystem.replaceContents(of: target, with: Array("not yours".utf8)))
            XCTAssertEqual(symlink(target, store.thumbnailsPath), 0)
            XCTAssertTrue(FileSystem.replaceContents(of: store.thumbnailsPath,
                                                     with: FirstScreenThumbnails.encode(firstURL: Self.firstURL, entries: Self.entries())))
            XCTAssertEqual(fileBytes(atPath: target), Array("not yours".utf8), "the link was replaced, not followed")
            var info = stat()
            XCTAssertEqual(lstat(store.thumbnailsPath, &info), 0)
            XCTAssertEqual(info.st_mode & S_IFMT, S_IFREG)
            XCTAssertEqual(info.st_mode & 0o777, 0o600)

            var read: [FirstScreenThumbnails.Entry]?
            store.loadFirstScreen(firstURL: Self.firstURL) { read = $0 }
            XCTAssertTrue(iterateMainLoop(until: { read != nil }, timeout: 60))
            XCTAssertEqual(read?.map(\.key.url), Self.entries().map(\.key.url))
            read = nil
            store.loadFirstScreen(firstURL: "https://other.example/") { read = $0 }
            XCTAssertTrue(iterateMainLoop(until: { read != nil }, timeout: 60))
            XCTAssertEqual(read?.count, 0, "another gallery's thumbnails are not read")

            var removed: Int?
            store.remove { removed = $0 }
            XCTAssertTrue(iterateMainLoop(until: { removed != nil }, timeout: 60))
            XCTAssertNil(DirectoryScan.fileBytes(at: store.thumbnailsPath), "Clear Cache deletes it too")
            read = nil
            store.loadFirstScreen(firstURL: Self.firstURL) { read = $0 }
            XCTAssertTrue(iterateMainLoop(until: { read != nil }, timeout: 60))
            XCTAssertEqual(read?.count, 0)
        }
    }
}
