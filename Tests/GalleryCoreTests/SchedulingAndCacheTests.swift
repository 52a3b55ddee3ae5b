import XCTest
import TestSupport
import GObjectBindings
@testable import GalleryCore

final class HostSchedulerTests: GLibTestCase {
    /// A task's stand-in: records when the scheduler admits it.
    @MainActor
    private final class Holder: SlotHolder {
        let name: String
        var priority: LoadPriority
        private let started: Box<[String]>
        init(_ name: String, _ priority: LoadPriority, _ started: Box<[String]>) {
            self.name = name
            self.priority = priority
            self.started = started
        }
        func admit() { started.value.append(name) }
    }

    @MainActor
    private final class Box<Value> {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    func testNoMoreThanTheCapRunPerHost() {
        MainActor.assumeIsolated {
            let scheduler = HostScheduler(maxPerHost: 2)
            let started = Box<[String]>([])
            let a = (0..<5).map { Holder("a\($0)", .visible, started) }
            for holder in a { scheduler.enqueue(holder, host: "a") }
            scheduler.enqueue(Holder("b0", .offscreen, started), host: "b")
            XCTAssertEqual(started.value, ["a0", "a1", "b0"], "two per host; other hosts are not held up")
            XCTAssertEqual(scheduler.runningCount, 3)
            XCTAssertEqual(scheduler.waitingCount, 3)
            scheduler.leave(a[0], host: "a", wasRunning: true)
            XCTAssertEqual(started.value.last, "a2", "a freed slot starts the next one")
            scheduler.leave(a[3], host: "a", wasRunning: false)
            scheduler.leave(a[1], host: "a", wasRunning: true)
            XCTAssertEqual(started.value.last, "a4", "a cancelled waiting fetch never starts")
            XCTAssertFalse(started.value.contains("a3"))
        }
    }

    func testHigherPriorityGoesFirstAndPrioritiesCanChangeWhileWaiting() {
        MainActor.assumeIsolated {
            let scheduler = HostScheduler(maxPerHost: 1)
            let started = Box<[String]>([])
            let blocker = Holder("blocker", .visible, started)
            let old = Holder("scrolled away", .visible, started)
            let onScreen = Holder("on screen", .visible, started)
            let large = Holder("large view", .interactive, started)
            for holder in [blocker, old, onScreen, large] { scheduler.enqueue(holder, host: "h") }
            old.priority = .offscreen
            scheduler.leave(blocker, host: "h", wasRunning: true)
            XCTAssertEqual(started.value, ["blocker", "large view"])
            scheduler.leave(large, host: "h", wasRunning: true)
            XCTAssertEqual(started.value.last, "on screen")
            scheduler.leave(onScreen, host: "h", wasRunning: true)
            XCTAssertEqual(started.value.last, "scrolled away")
        }
    }
}

final class ImageCacheTests: GLibTestCase {
    func testEvictsLeastRecentlyUsedByPixelMemory() {
        MainActor.assumeIsolated {
            let image = { DecodedPixbuf(pixbuf: Pixbuf.filled(width: 100, height: 100, rgba: 0xff0000ff),
                                        originalWidth: 100, originalHeight: 100) }
            let size = image().pixbuf.byteCount
            let cache = ImageCache(capacityBytes: size * 2)
            let keys = (0..<3).map { ImageCache.Key(url: "u\($0)", maxPixelSize: 96) }
            cache.insert(image(), for: keys[0])
            cache.insert(image(), for: keys[1])
            XCTAssertNotNil(cache.image(for: keys[0]), "touching 0 makes 1 the oldest")
            cache.insert(image(), for: keys[2])
            XCTAssertNil(cache.image(for: keys[1]))
            XCTAssertNotNil(cache.image(for: keys[0]))
            XCTAssertNotNil(cache.image(for: keys[2]))
            XCTAssertEqual(cache.totalBytes, size * 2)
            XCTAssertNil(cache.image(for: ImageCache.Key(url: "u0", maxPixelSize: nil)), "sizes are cached apart")
        }
    }
}

extension ImageCacheTests {
    /// A gallery of 1×1 images under 8 KiB URLs: bounded by what the entries cost, not only their pixels.
    func testKeysCountAsWellAsPixelsAndOverlongURLsAreNotCached() {
        MainActor.assumeIsolated {
            let image = { DecodedPixbuf(pixbuf: Pixbuf.filled(width: 1, height: 1, rgba: 0xff0000ff), originalWidth: 1, originalHeight: 1) }
            let cache = ImageCache()
            let longest = String(repeating: "a", count: ImageCache.maxKeyURLBytes - 10)
            for index in 0..<2_000 { cache.insert(image(), for: ImageCache.Key(url: longest + String(format: "%010d", index), maxPixelSize: 1)) }
            let perEntry = ImageCache.maxKeyURLBytes + ImageCache.entryOverheadBytes
            XCTAssertEqual(cache.count, ImageCache.defaultMaxEntryBytes / perEntry, "as many as the entry budget holds")
            XCTAssertLessThanOrEqual(cache.entryBytesTotal, ImageCache.defaultMaxEntryBytes)
            XCTAssertLessThan(cache.totalBytes, cache.capacityBytes / 1000, "far under the pixel budget")

            let atLimit = ImageCache.Key(url: String(repeating: "b", count: ImageCache.maxKeyURLBytes), maxPixelSize: 1)
            let overLimit = ImageCache.Key(url: String(repeating: "c", count: ImageCache.maxKeyURLBytes + 1), maxPixelSize: 1)
            cache.insert(image(), for: atLimit)
            cache.insert(image(), for: overLimit)
            XCTAssertNotNil(cache.image(for: atLimit))
            XCTAssertNil(cache.image(for: overLimit), "a URL over 8 KiB is not cached")
            cache.removeAll()
            XCTAssertEqual(cache.entryBytesTotal, 0)
        }
    }
}

final class URLAndTextTests: GLibTestCase {
    func testEncodeComponentLeavesNoSeparators() {
        XCTAssertEqual(URLText.encodeComponent("a&q=x"), "a%26q%3Dx")
        XCTAssertEqual(URLText.encodeComponent("../x"), "..%2Fx")
        XCTAssertEqual(URLText.encodeComponent("a b#c?d"), "a%20b%23c%3Fd")
        XCTAssertEqual(URLText.encodeComponent("Müller"), "M%C3%BCller")
    }

    func testEndpointRebasesOnlyKnownHosts() {
        let endpoint = Endpoint(canonical: "https://backend.deviantart.com", override: "http://127.0.0.1:9/ignored/path")
        XCTAssertEqual(endpoint.origin, "http://127.0.0.1:9")
        XCTAssertEqual(endpoint.rebase("https://backend.deviantart.com/rss.xml?offset=24"), "http://127.0.0.1:9/rss.xml?offset=24")
        XCTAssertEqual(endpoint.rebase("https://BACKEND.deviantart.com:443/rss.xml?offset=24"),
                       "http://127.0.0.1:9/rss.xml?offset=24", "the scheme's own port is no other host")
        // Real DeviantArt replies write their next link as http:// even to an https request (issue 6).
        XCTAssertEqual(endpoint.rebase("http://backend.deviantart.com/rss.xml?offset=60"), "http://127.0.0.1:9/rss.xml?offset=60")
        XCTAssertEqual(endpoint.rebase("https://www.backend.deviantart.com/rss.xml?offset=60"), "http://127.0.0.1:9/rss.xml?offset=60")
        XCTAssertNil(endpoint.rebase("https://backend.deviantart.com:8443/rss.xml"), "another port is another server")
        XCTAssertNil(endpoint.rebase("http://127.0.0.1:10/next"), "another port on the override's host too")
        let real = Endpoint(canonical: "https://backend.deviantart.com")
        XCTAssertEqual(real.rebase("http://backend.deviantart.com/rss.xml?offset=60"),
                       "https://backend.deviantart.com/rss.xml?offset=60", "followed over https")
        XCTAssertEqual(endpoint.rebase("http://127.0.0.1:9/next"), "http://127.0.0.1:9/next")
        XCTAssertNil(endpoint.rebase("https://evil.example/rss.xml"))
        XCTAssertNil(endpoint.rebase("javascript:alert(1)"))
    }

    func testHTMLEntities() {
        XCTAssertEqual(HTMLText.decodeEntities("Rock &amp; Roll &#39;n&#x27; &hellip; &bogus; & done"),
                       "Rock & Roll 'n' … &bogus; & done")
        XCTAssertEqual(HTMLText.decodeEntities("&#0; &#xD800; &#99999999;"), "&#0; &#xD800; &#99999999;")
    }

    /// Descriptions that are HTML become plain text: tags, comments and styles gone, whitespace as HTML reads
    /// it, line breaks where tags put them, entities decoded once at the end; only the start of a huge one is read.
    func testHTMLBecomesPlainText() {
        let cases: [(String, String, String)] = [
            ("<p>A <b>loud</b>\n   painting</p><p>Second</p>", "A loud painting\n\nSecond\n", ""),
            ("one<br><br><br>two", "one\n\ntwo", ""),
            ("<a title=\"x > y\" href='a>b'>link</a> after", "link after", ""),
            ("<!-- <p>hidden</p> --> shown <!-- unterminated <b>", "shown ", ""),
            ("<style>p { color: red }</style><SCRIPT>alert('<p>')</script >words", "words", ""),
            ("a < b and c<d", "a < b and c", "a \"<\" before a letter starts a tag, as in browsers"),
            ("&lt;b&gt;not a tag&lt;/b&gt; &amp;amp;", "<b>not a tag</b> &amp;", ""),
            ("<span title=don't>it's</span>", "it's", ""),
            ("unterminated <a href=\"x", "unterminated ", ""),
        ]
        for (html, text, why) in cases {
            XCTAssertEqual(HTMLText.plainText(html), text, html + " " + why)
        }
        XCTAssertLessThanOrEqual(HTMLText.plainText(String(repeating: "<b>word</b> ", count: 100_000), limit: 100).count, 45,
                                 "only the first 100 characters are read")
    }

    func testFeedDatesAndTheirDisplay() {
        XCTAssertEqual(DateText.published(rfc822: "Sun, 01 Nov 2026 10:00:00 PST"), 1_793_556_000)
        XCTAssertEqual(DateText.published(rfc822: "01 Nov 2026 18:00 GMT"), 1_793_556_000, "no weekday, no seconds")
        XCTAssertEqual(DateText.published(rfc822: "Sun, 01 Nov 2026 19:30:00 +0130"), 1_793_556_000)
        XCTAssertEqual(DateText.published(rfc822: "Sun, 01 Nov 26 18:00:00 Z"), 1_793_556_000, "a two-digit year")
        for broken in ["", "yesterday", "Sun, 32 Nov 2026 10:00:00 GMT", "Sun, 01 Nov 2026 10:00:00 XYZ",
                       "Sun, 01 Foo 2026 10:00:00 GMT", "Sun, 01 Nov 2026 25:00:00 GMT", String(repeating: "1", count: 100),
                       // Numbers past a gint (found by `make fuzz`: they trapped before GLib could refuse them).
                       "Sun, 01 Nov 77777777772026 10:00:00 PST", "Sun, 9999999999 Nov 2026 10:00:00 GMT",
                       "Sun, 01 Nov 2026 99999999999:00:00 GMT", "Sun, 01 Nov 2026 10:00:99999999999 GMT"] {
            XCTAssertNil(DateText.published(rfc822: broken), broken)
        }
        XCTAssertEqual(DateText.published(iso8601: "2024-05-02T09:15:42.118Z"), 1_714_641_342)
        XCTAssertNil(DateText.published(iso8601: "2024-05-02"))
        XCTAssertEqual(DateText.iso8601(1_714_641_342), "2024-05-02T09:15:42Z")
        XCTAssertNotNil(DateText.display(1_714_641_342))
        XCTAssertNil(GalleryItem(id: "x", title: "", fullImageURL: nil, published: 300_000_000_000).published,
                     "past year 9999 is no date")
    }

    func testRetryAfterFormats() {
        let now = 1_000_000.0
        func head(_ headers: [String: String]) -> HTTPResponseHead {
            HTTPResponseHead(status: 429, reason: "Too Many Requests", url: "https://x", headers: headers)
        }
        XCTAssertEqual(ResponseStatus.retryAfterSeconds(head(["retry-after": "120"]), now: now), 120)
        XCTAssertEqual(ResponseStatus.retryAfterSeconds(head(["retry-after": "Mon, 12 Jan 1970 13:46:50 GMT"]), now: now), 10)
        XCTAssertEqual(ResponseStatus.retryAfterSeconds(head(["x-ratelimit-reset": "1970-01-12T13:47:10.000Z"]), now: now), 30)
        XCTAssertNil(ResponseStatus.retryAfterSeconds(head(["retry-after": "soon"]), now: now))
    }
}
