import GObjectBindings
import XCTest

@testable import GalleryCore

/// Replies no MediaWiki sends: each must end in `.malformedResponse` or a skipped entry, never a crash or
/// a hang.
extension CommonsSourceTests {
    func testMalformedRepliesAreReportedWithoutCrashing() throws {
        let source = try CommonsSource(username: "Ivy", endpointOverride: nil)
        let deepArrays = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        let deepObjects = String(repeating: #"{"a":"#, count: 50_000) + "1" + String(repeating: "}", count: 50_000)
        let bodies = [
            "", "   ", "<!DOCTYPE html><html><body>Wikimedia Error</body></html>", "[]", "null", "42", #""text""#,
            "{}", #"{"foo":1}"#, #"{"batchcomplete":true,"query":{"pages":[{"pageid":1"#,
            #"{"query":"pages"}"#, #"{"query":{"pages":{"1":{"pageid":1,"title":"File:A.jpg"}}}}"#,
            #"{"batchcomplete":true,"continue":{"gaicontinue":{"nested":true}}}"#,
            #"{"batchcomplete":true,"continue":[1,2]}"#,
            #"{"error":{"info":"no code"}}"#,
            #"{"batchcomplete":true,"continue":{"gaicontinue":"\#(String(repeating: "x", count: 1_000_000))"}}"#,
            #"{"batchcomplete":true,"query":"# + deepArrays + "}",
            #"{"batchcomplete":true,"query":{"pages":[{"x":"# + deepObjects + "}]}}",
            deepArrays, "\u{FEFF}{\"batchcomplete\":tru",
        ]
        for body in bodies {
            let error = parseError(source, response(body, for: source.firstRequest()))
            guard case .malformedResponse(let service, let detail) = error else {
                return XCTFail("\(String(describing: error)) for \(body.prefix(80))")
            }
            XCTAssertEqual(service, "Wikimedia Commons")
            XCTAssertLessThan(detail.count, 300)
        }
        // The deep ones are refused at the JSON reader's depth limit, however deep they go: that bounds their work.
        for body in [deepArrays, #"{"batchcomplete":true,"query":"# + deepArrays + "}"] {
            XCTAssertTrue(isRefusedJSON { try source.parse(response(body, for: source.firstRequest()), of: source.firstRequest()) })
        }
        let shallow = String(repeating: "[", count: 400) + String(repeating: "]", count: 400)
        XCTAssertFalse(isRefusedJSON {
            try source.parse(response(#"{"batchcomplete":true,"query":"# + shallow + "}", for: source.firstRequest()),
                             of: source.firstRequest())
        }, "nesting under the limit is read, and refused for its shape")
        let invalidUTF8 = HTTPResponse(head: head(for: source.firstRequest()), body: Bytes([0x7B, 0xFF, 0xFE, 0x7D]))
        guard case .malformedResponse = parseError(source, invalidUTF8) else { return XCTFail("invalid UTF-8") }
    }

    func testBadPageEntriesAreSkippedAndTheRestKept() throws {
        let source = try CommonsSource(username: "Ivy", endpointOverride: nil)
        let huge = String(repeating: "ü", count: 2_000_000)
        let body = """
            {"batchcomplete":true,"query":{"pages":[
             "not a page", 17, null, {"pageid":"one","title":"File:A.jpg"}, {"title":"File:NoID.jpg"},
             {"pageid":2,"ns":6,"title":"File:BadInfo.jpg","imageinfo":"nope"},
             {"pageid":3,"ns":6,"title":"File:NoURL.jpg","imageinfo":[{"mime":"image/jpeg","filehidden":true}]},
             {"pageid":4,"ns":6,"title":"File:Script.jpg","imageinfo":[{"url":"javascript:alert(1)","mime":"image/jpeg"}]},
             {"pageid":5,"ns":6,"title":"File:Local.jpg","imageinfo":[{"url":"file:///etc/passwd","mime":"image/jpeg"}]},
             {"pageid":6,"ns":6,"title":"File:Missing.jpg","missing":true},
             {"pageid":7,"ns":6,"title":"File:Odd sizes.jpg","imageinfo":[{
               "url":"//upload.example/o.jpg","mime":"image/jpeg",
               "width":"wide","height":-5,"size":1e300,"thumburl":"ftp://x/t.jpg","timestamp":12}]},
             {"pageid":8,"ns":6,"title":"File:\(huge).jpg","imageinfo":[\(info("Huge.jpg"))]},
             {"pageid":9,"ns":6,"title":"File:Fine.jpg","imageinfo":[\(info("Fine.jpg"))],"extra":{"deep":[[[[1]]]]}}]}}
            """
        let request = PageRequest(url: "https://commons.wikimedia.org/w/api.php?x=1", headers: CommonsSource.headers)
        let items = try source.parse(response(body, for: request), of: request).items
        XCTAssertEqual(Set(items.map(\.id)), ["4", "5", "7", "8", "9"], "other schemes become error rows")
        for id in ["4", "5"] {
            let rejected = try XCTUnwrap(items.first { $0.id == id })
            XCTAssertTrue(rejected.mediaURLRejected)
            XCTAssertNil(rejected.fullImageURL)
        }
        let odd = try XCTUnwrap(items.first { $0.id == "7" })
        XCTAssertEqual(odd.fullImageURL, "https://upload.example/o.jpg", "protocol-relative URLs take the reply's scheme")
        XCTAssertNil(odd.width)
        XCTAssertNil(odd.height)
        XCTAssertTrue(odd.thumbnails.isEmpty)
        XCTAssertEqual(Set(items.prefix(2).map(\.id)), ["8", "9"], "items without a timestamp come after those with one")
        let long = try XCTUnwrap(items.first { $0.id == "8" })
        XCTAssertLessThanOrEqual(long.title.count, 301)
    }

    func testAnOpenBatchThatNeverClosesIsStopped() throws {
        let source = try CommonsSource(username: "Ivy", endpointOverride: nil)
        let ids = (1...1001).map(String.init).joined(separator: ",")
        let request = PageRequest(url: source.firstRequest().url + "&iicontinue=a", stage: "batch:" + ids)
        let body = #"{"continue":{"iicontinue":"b","continue":"||"},"query":{"pages":["#
            + #"{"pageid":5000,"ns":6,"title":"File:A.jpg","imageinfo":["# + info("A.jpg") + "]}]}}"
        guard case .malformedResponse = parseError(source, response(body, for: request), request) else {
            return XCTFail("an endless batch")
        }
    }
}
