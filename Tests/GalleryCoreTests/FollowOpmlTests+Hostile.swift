import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// Subscription lists nobody should have to read: each is refused with its own error, quickly, and never
/// brings a gallery in.
final class FollowOpmlHostileTests: GLibTestCase {
    func testAFileOverTheLimitIsRefusedBeforeItIsParsed() throws {
        try MainActor.assumeIsolated {
            // Valid up to the limit: only the size can refuse it.
            let head = Array(#"<opml version="2.0"><head/><body><outline text=""#.utf8)
            let tail = Array(#""/></body></opml>"#.utf8)
            let filler = [UInt8](repeating: UInt8(ascii: "a"), count: FollowOpml.maxBytes - head.count - tail.count)
            let atLimit = head + filler + tail
            XCTAssertEqual(try FollowOpml.read(atLimit), FollowOpml.Import())
            let over = head + filler + [UInt8(ascii: "a")] + tail
            XCTAssertEqual(answer { FollowOpml.parse(over, completion: $0) }, .failure(.tooLarge(limit: FollowOpml.maxBytes)))
        }
    }

    func testDeepNestingIsRefused() throws {
        let fits = nested(depth: FollowOpml.maxDepth - 2)
        XCTAssertEqual(try FollowOpml.read(Array(fits.utf8)).galleries.count, 1, "opml, body and 30 outlines fit")
        assertRefused(nested(depth: FollowOpml.maxDepth - 1), .tooDeep(limit: FollowOpml.maxDepth))
        assertRefused(nested(depth: 30_000), .tooDeep(limit: FollowOpml.maxDepth))
    }

    func testTooManyOutlinesAreRefused() throws {
        let outline = #"<outline text="a" type="rss" xmlUrl="https://blog.example.org/feed.xml"/>"#
        let fits = list(String(repeating: outline, count: FollowOpml.maxOutlines))
        XCTAssertEqual(try FollowOpml.read(Array(fits.utf8)).notRecognised, FollowOpml.maxOutlines)
        assertRefused(list(String(repeating: outline, count: FollowOpml.maxOutlines + 1)),
                      .tooManyOutlines(limit: FollowOpml.maxOutlines))
    }

    func testInvalidXMLIsRefusedWithGMarkupsReason() {
        // GNOME Feeds once wrote the type unquoted.
        assertInvalid(list(#"<outline type=rss text="a" xmlUrl="https://bsky.app/profile/alice.bsky.social/rss"/>"#))
        assertInvalid(#"<opml version="2.0"><head/><body><outline text="cut"#)
        assertInvalid("")
        // UTF-16, which GMarkup does not read.
        XCTAssertThrowsError(try FollowOpml.read([0xFF, 0xFE, 0x3C, 0x00, 0x6F, 0x00, 0x70, 0x00]))
    }

    /// Declared entities are never expanded (GMarkup knows only the five predefined ones), so neither the
    /// "billion laughs" nor an external entity reading a local file gets anywhere.
    func testEntityTricksAreRefused() {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE opml [
              <!ENTITY a "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa">
              <!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">
              <!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">
              <!ENTITY d "&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;&c;">
            ]>
            <opml version="2.0"><head/><body><outline text="&d;" gv:source="deviantart" gv:username="a"
              xmlns:gv="\(FollowOpml.namespace)"/></body></opml>
            """
        assertInvalid(laughs)
        let external = """
            <?xml version="1.0"?>
            <!DOCTYPE opml [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
            <opml version="2.0"><head/><body><outline text="&secret;" type="rss"
              xmlUrl="https://bsky.app/profile/alice.bsky.social/rss"/></body></opml>
            """
        assertInvalid(external)
    }

    func testAnotherDocumentIsNotAList() {
        assertRefused(#"<rss version="2.0"><channel><title>x</title></channel></rss>"#, .notOPML)
        assertRefused(#"<opml version="2.0"><head/></opml>"#, .notOPML)
        // Outlines outside the body are not the list's.
        XCTAssertEqual(try FollowOpml.read(Array(#"<opml><head><outline text="a" type="rss" xmlUrl="https://bsky.app/profile/a.bsky.social/rss"/></head><body/></opml>"#.utf8)),
                       FollowOpml.Import())
    }

    /// Names and usernames from a hostile list are bounded and cleaned like every text a server sends, and
    /// a username no source accepts is not followed.
    func testHostileNamesAreCleanedAndBadUsernamesSkipped() throws {
        let long = String(repeating: "n", count: 5_000)
        let document = list(#"""
            <outline text="\#u{202E}evil&#10;name\#(long)" gv:source="deviantart" gv:username="aurora" xmlns:gv="\#(FollowOpml.namespace)"/>
            <outline text="x" gv:source="deviantart" gv:username="no spaces allowed" xmlns:gv="\#(FollowOpml.namespace)"/>
            <outline text="x" gv:source="nowhere" gv:username="aurora" xmlns:gv="\#(FollowOpml.namespace)"/>
            <outline text="x" type="rss" xmlUrl="javascript:alert(1)" htmlUrl="file:///etc/passwd"/>
            """#)
        let read = try FollowOpml.read(Array(document.utf8))
        XCTAssertEqual(read.galleries.map(\.key), [.init(source: .deviantArt, username: "aurora")])
        let name = try XCTUnwrap(read.galleries.first?.displayName)
        XCTAssertTrue(name.hasPrefix("evil name"), name)
        // Cut as the store cuts it: the limit and an ellipsis.
        XCTAssertEqual(name, DisplayText.clean("evil\nname" + long, limit: FollowLimits.maxDisplayNameLength))
        XCTAssertEqual(name.count, FollowLimits.maxDisplayNameLength + 1)
        XCTAssertEqual(read.notRecognised, 1, "only the outline with links counts; the bad gv: ones are folders")
    }

    func testEscapingKeepsEveryMarkupCharacterAndDropsWhatXMLForbids() throws {
        let escaped = FollowOpml.escapedAttribute("a&b<c>\"d'e\tf\ng\rh\u{1}\u{1B}[31m\u{FFFF}🎨")
        XCTAssertEqual(escaped, "a&amp;b&lt;c&gt;&quot;d&apos;e&#9;f&#10;g&#13;h[31m🎨")
        let document = list("<outline text=\"\(escaped)\"/>")
        final class Texts: MarkupParserDelegate {
            var text: String?
            func startElement(_ name: String, attributes: [String: String]) throws {
                if name == "outline" { text = attributes["text"] }
            }
            func endElement(_ name: String) throws {}
            func text(_ text: String) throws {}
        }
        let texts = Texts()
        try MarkupParser.parse(Bytes(document), delegate: texts)
        XCTAssertEqual(texts.text, "a&b<c>\"d'e\tf\ng\rh[31m🎨")
    }

    // MARK: Helpers

    private func list(_ outlines: String) -> String {
        #"<?xml version="1.0" encoding="UTF-8"?><opml version="2.0"><head/><body>"# + outlines + "</body></opml>"
    }

    /// A gallery's outline under `depth` folders.
    private func nested(depth: Int) -> String {
        let gallery = #"<outline text="a" type="rss" xmlUrl="https://bsky.app/profile/alice.bsky.social/rss"/>"#
        return list(String(repeating: #"<outline text="f">"#, count: depth - 1) + gallery
                    + String(repeating: "</outline>", count: depth - 1))
    }

    private func assertRefused(_ document: String, _ error: FollowOpmlError, line: UInt = #line) {
        XCTAssertThrowsError(try FollowOpml.read(Array(document.utf8)), line: line) {
            XCTAssertEqual($0 as? FollowOpmlError, error, line: line)
        }
    }

    private func assertInvalid(_ document: String, line: UInt = #line) {
        XCTAssertThrowsError(try FollowOpml.read(Array(document.utf8)), line: line) {
            guard case .invalidXML(let detail) = $0 as? FollowOpmlError else { return XCTFail("\($0)", line: line) }
            XCTAssertFalse(detail.isEmpty, line: line)
        }
    }
}
