import XCTest
import DecoderBindings
@testable import GalleryCore

/// `URLText.origin(of:)` reads plain URLs directly (`PlainURL`) and leaves the rest to the full parser: the two
/// must give the same answer for every URL the direct reading decides.
final class PlainURLTests: XCTestCase {
    func testPlainURLsAreDecidedAsTheParserDecides() {
        let plain = [
            "http://127.0.0.1:8080/images/atlas-001-drifting-station.jpg",
            "https://images-wixmp-ed30a86b8c4ca887773594c2.wixmp.com/f/abc/def.png?token=eyJ0.x_y-z~",
            "HTTPS://Example.COM/a", "https://example.com", "https://example.com?q=1", "http://example.com:080/x",
            "https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:abc/bafkrei@jpeg",
            "https://upload.wikimedia.org/wikipedia/commons/a/ab/A%20b_(c).jpg",
            "https://files.example/a/b!$&'()*+,;=:@/c?d=/e?f",
        ]
        for url in plain {
            XCTAssertNotEqual(PlainURL.origin(of: url), .undecided, url)
            XCTAssertEqual(PlainURL.origin(of: url), URLText.parsedOrigin(of: url).map(PlainURL.Answer.decided), url)
        }
        XCTAssertEqual(URLText.origin(of: "HTTPS://Example.COM:443/a"), "https://example.com:443")
    }

    func testAnythingUnusualGoesToTheParser() {
        let unusual = [
            "http://user:pass@example.com/", "http://[::1]:8080/", "http://example.com/a b", "http://example.com/%zz",
            "http://example.com:/x", "http://example.com:99999/", "http://example.com/#top", "http://exa_mple.com/",
            "ftp://example.com/", "http:/example.com/", "http://", "http://example.com/ä", "http://example.com\\@evil/",
            "javascript:alert(1)", "",
        ]
        for url in unusual { XCTAssertEqual(PlainURL.origin(of: url), .undecided, url) }
        XCTAssertNil(URLText.origin(of: "ftp://example.com/"))
        XCTAssertEqual(URLText.origin(of: "http://[::1]:8080/"), URLText.parsedOrigin(of: "http://[::1]:8080/"))
    }

    /// Random URLs from the characters that matter to either reading: whenever the direct reading decides,
    /// the parser agrees. Seeded, so a failure repeats.
    func testRandomURLsAgree() {
        var generator = SeededGenerator(seed: 0x5EED)
        let pieces = ["a", "Z", "9", ".", "-", "_", "~", ":", "@", "/", "?", "#", "%", "%41", "%g1", " ", "[", "]",
                      "!", "$", "&", "'", "(", ")", "*", "+", ",", ";", "=", "\\", "\"", "<", "é", "80", "65536"]
        let starts = ["http://", "https://", "HTTP://", "http:/", "https://host", "http://h.example", "http://1.2.3.4"]
        var decided = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...12, using: &generator)
            let url = starts.randomElement(using: &generator)!
                + (0..<count).map { _ in pieces.randomElement(using: &generator)! }.joined()
            guard case .decided(let origin) = PlainURL.origin(of: url) else { continue }
            decided += 1
            XCTAssertEqual(origin, URLText.parsedOrigin(of: url), url)
        }
        XCTAssertGreaterThan(decided, 1000, "the random URLs exercise the direct reading")
    }
}

/// A small deterministic generator (SplitMix64) for repeatable random tests.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A saved "image" that is a web page is refused from its first bytes, whatever their case and leading space.
final class HTMLSniffTests: XCTestCase {
    func testWebPagesAreToldFromTheirFirstBytes() { MainActor.assumeIsolated {
        for page in ["<!DOCTYPE html><p>", "<!doctype HTML>", "\u{FEFF}\n  <HTML lang=en>", "\t<html>"] {
            XCTAssertTrue(FileSink.looksLikeHTML(Bytes(Array(page.utf8))), page)
        }
        for other in ["<!DOCTYPE svg>", "<htm", "GIF89a<html>", "", "<?xml version=\"1.0\"?><html>"] {
            XCTAssertFalse(FileSink.looksLikeHTML(Bytes(Array(other.utf8))), other)
        }
    } }
}
