import Foundation
import GObjectBindings
import TestSupport
import XCTest

@testable import GalleryCore

/// Wikimedia Commons source: requests, usernames, paging by `continue`, items and errors (hostile replies
/// in CommonsSourceTests+Hostile.swift).
/// Fixtures in data/fixtures/commons/ follow the MediaWiki Action API (formatversion=2).
final class CommonsSourceTests: GLibTestCase {
    let fixedParameters = ["action", "format", "formatversion", "generator", "gaiuser", "gaisort", "gaidir",
                                   "gailimit", "prop", "iiprop", "iiurlwidth", "iiextmetadatafilter", "list", "ususers"]

    // MARK: Requests and usernames

    func testFirstRequestAsksForTheUsersUploadsNewestFirst() throws {
        let source = try CommonsSource(username: "Müller", endpointOverride: nil)
        let request = source.firstRequest()
        XCTAssertEqual(request.url, "https://commons.wikimedia.org/w/api.php?action=query&format=json&formatversion=2"
            + "&generator=allimages&gaiuser=M%C3%BCller&gaisort=timestamp&gaidir=older&gailimit=24&prop=imageinfo"
            + "&iiprop=url%7Csize%7Cmime%7Ctimestamp%7Cextmetadata&iiurlwidth=250&iiextmetadatafilter=ImageDescription"
            + "&list=users&ususers=M%C3%BCller")
        XCTAssertEqual(request.headers, ["Accept": "application/json"])
        XCTAssertEqual(request.stage, "page")
        XCTAssertEqual(source.kind, .commons)
    }

    func testMakeSourceBuildsCommonsOnTheOverride() throws {
        let source = try SourceKind.commons.makeSource(username: " лариса ",
                                                       endpointOverride: "http://127.0.0.1:8123/x")
        XCTAssertTrue(source is CommonsSource)
        XCTAssertEqual(source.username, "Лариса")
        XCTAssertTrue(source.firstRequest().url.hasPrefix("http://127.0.0.1:8123/w/api.php?action=query&"))
    }

    func testUsernamesAreNormalisedLikeMediaWiki() throws {
        let cases = [
            ("müller", "Müller"), ("  hans_peter  ", "Hans peter"), ("a__b   c", "A b c"),
            ("User:Jane_Doe", "Jane Doe"), ("user: spaced", "Spaced"), ("лариса", "Лариса"),
            ("ßtraße", "ßtraße"), ("\u{200E}Ivy\u{200F}", "Ivy"), ("1234", "1234"),
            ("a&q=x", "A&q=x"), (String(repeating: "é", count: 85), "É" + String(repeating: "é", count: 84)),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(try CommonsSource(username: input, endpointOverride: nil).username, expected, input)
        }
    }

    func testInvalidUsernamesAreRejected() {
        let names = ["", "   ", "___", "User:", "../x", "a/b", "x#y", "a<b", "b>a", "[x]", "a|b", "{x}", "bell\u{07}",
                     "nul\u{0}x", "del\u{7F}", String(repeating: "a", count: 86)]
        for name in names {
            do {
                _ = try CommonsSource(username: name, endpointOverride: nil)
                XCTFail("accepted \(name.debugDescription)")
            } catch {
                guard case .invalidUsername(let reason) = error else {
                    return XCTFail("\(error) for \(name.debugDescription)")
                }
                XCTAssertFalse(reason.isEmpty)
            }
        }
    }

    func testHostileUsernamesStayOneParameterOnTheSameHost() throws {
        let names = ["a&q=x", "x&action=delete", "a=b", "q?x=1", "%2F..%2Fx", "100% sure", "a+b", "evil.example:80@x",
                     "Müller & Söhne", "Лариса; DROP", "http:evil", "tab\tseparated", "#"]
        for override in [nil, "http://127.0.0.1:8123"] {
            for name in names {
                guard let source = try? CommonsSource(username: name, endpointOverride: override) else {
                    XCTAssertEqual(name, "#")
                    continue
                }
                let components = try XCTUnwrap(URLComponents(string: source.firstRequest().url), name)
                XCTAssertEqual(components.host, override == nil ? "commons.wikimedia.org" : "127.0.0.1", name)
                XCTAssertEqual(components.path, "/w/api.php", name)
                let items = try XCTUnwrap(components.queryItems, name)
                XCTAssertEqual(items.map(\.name), fixedParameters, name)
                XCTAssertEqual(items.first { $0.name == "gaiuser" }?.value, source.username, name)
                XCTAssertEqual(items.first { $0.name == "ususers" }?.value, source.username, name)
                XCTAssertEqual(items.first { $0.name == "action" }?.value, "query", name)
            }
        }
    }

    // MARK: Paging

    func testThreePagesJoinedByContinue() throws {
        let source = try CommonsSource(username: "Müller", endpointOverride: nil)
        let first = source.firstRequest()
        let page1 = try source.parse(fixtureResponse("page1.json", for: first), of: first)
        XCTAssertEqual(page1.items.map(\.id), ["1001", "1002", "1004", "1003"], "newest first, then by title")
        let second = try XCTUnwrap(page1.next)
        XCTAssertEqual(second.stage, "page")
        XCTAssertEqual(second.headers, ["Accept": "application/json"])
        XCTAssertEqual(query(second.url, "gaicontinue"), "20240304100000|Rooftops.webp")
        XCTAssertEqual(query(second.url, "continue"), "gaicontinue||users")
        XCTAssertTrue(second.url.hasPrefix(first.url + "&"), "the continuation is added to the unchanged query")

        // The second reply carries only part of the batch's imageinfo: "Zebra finch song" comes later.
        let page2 = try source.parse(fixtureResponse("page2.json", for: second), of: second)
        XCTAssertEqual(page2.items.map(\.id), ["2004", "2001", "2002"], "the hidden file 2005 and pending 2003 wait")
        let third = try XCTUnwrap(page2.next)
        XCTAssertEqual(third.stage, "batch:2001,2002,2004")
        XCTAssertEqual(query(third.url, "iicontinue"), "Zebra_finch_song.ogg|20240301080000")
        XCTAssertEqual(query(third.url, "gaicontinue"), "20240304100000|Rooftops.webp")
        XCTAssertNotEqual(third.url, second.url)

        let page3 = try source.parse(fixtureResponse("page3.json", for: third), of: third)
        XCTAssertEqual(page3.items.map(\.id), ["2003"])
        XCTAssertEqual(page3.items.first?.kind, .audio)
        XCTAssertNil(page3.next)
    }

    func testAPageWhoseImageinfoArrivesTwiceBecomesOneRow() throws {
        let source = try CommonsSource(username: "Müller", endpointOverride: nil)
        let open = PageRequest(url: source.firstRequest().url + "&iicontinue=B.jpg%7C1", stage: "batch:5,9",
                               headers: ["Accept": "application/json"])
        let body = """
            {"continue":{"iicontinue":"C.jpg|2","gaicontinue":"x","continue":"gaicontinue||"},"query":{"pages":[
             {"pageid":5,"ns":6,"title":"File:A.jpg","imageinfo":[\(info("A.jpg"))]},
             {"pageid":6,"ns":6,"title":"File:B.jpg","imageinfo":[\(info("B.jpg"))]},
             {"pageid":7,"ns":6,"title":"File:C.jpg"}]}}
            """
        let result = try source.parse(response(body, for: open), of: open)
        XCTAssertEqual(result.items.map(\.id), ["6"], "5 was delivered earlier in this batch, 7 is still pending")
        XCTAssertEqual(result.next?.stage, "batch:5,6,9")

        // When the batch completes, the next generator batch starts with a clean slate.
        let closing = try XCTUnwrap(result.next)
        let done = """
            {"batchcomplete":true,"continue":{"gaicontinue":"y","continue":"gaicontinue||"},"query":{"pages":[
             {"pageid":5,"ns":6,"title":"File:A.jpg"},{"pageid":6,"ns":6,"title":"File:B.jpg"},
             {"pageid":7,"ns":6,"title":"File:C.jpg","imageinfo":[\(info("C.jpg"))]}]}}
            """
        let last = try source.parse(response(done, for: closing), of: closing)
        XCTAssertEqual(last.items.map(\.id), ["7"])
        XCTAssertEqual(last.next?.stage, "page")
    }

    func testAPageListedTwiceInOneReplyIsMerged() throws {
        let source = try CommonsSource(username: "Ivy", endpointOverride: nil)
        let body = """
            {"batchcomplete":true,"query":{"pages":[
             {"pageid":3,"ns":6,"title":"File:Twice.jpg"},
             {"pageid":3,"ns":6,"title":"File:Twice.jpg","imageinfo":[\(info("Twice.jpg"))]},
             {"pageid":3,"ns":6,"title":"File:Twice.jpg","imageinfo":[\(info("Twice.jpg"))]}]}}
            """
        let result = try parse(source, body)
        XCTAssertEqual(result.items.map(\.id), ["3"])
        XCTAssertEqual(result.items.first?.title, "Twice")
    }

    func testContinuationIsMergedEncodedAndCannotReplaceTheQuery() throws {
        let source = try CommonsSource(username: "Ivy", endpointOverride: "http://127.0.0.1:9")
        let body = """
            {"batchcomplete":true,"continue":{"gaicontinue":"2024|A b&c=d/ü#x%20","continue":"gaicontinue||",
             "zzcontinue":12,"gaiuser":"Mallory","action":"delete","format":"xml"},"query":{"pages":[]}}
            """
        let next = try XCTUnwrap(parse(source, body).next)
        let components = try XCTUnwrap(URLComponents(string: next.url))
        XCTAssertEqual(components.host, "127.0.0.1")
        XCTAssertEqual(components.port, 9)
        let names = try XCTUnwrap(components.queryItems).map(\.name)
        XCTAssertEqual(names, fixedParameters + ["continue", "gaicontinue", "zzcontinue"])
        XCTAssertEqual(query(next.url, "gaicontinue"), "2024|A b&c=d/ü#x%20")
        XCTAssertEqual(query(next.url, "zzcontinue"), "12")
        XCTAssertEqual(query(next.url, "gaiuser"), "Ivy")
        XCTAssertEqual(query(next.url, "action"), "query")
        XCTAssertTrue(next.url.contains("gaicontinue=2024%7CA%20b%26c%3Dd%2F%C3%BC%23x%2520"))
    }

    // MARK: Items

    func testImageItemsCarryThumbnailFullImagePageAndSize() throws {
        let source = try CommonsSource(username: "Müller", endpointOverride: nil)
        let items = try source.parse(fixtureResponse("page1.json", for: source.firstRequest()),
                                     of: source.firstRequest()).items
        let sunset = try XCTUnwrap(items.first { $0.id == "1001" })
        XCTAssertEqual(sunset.title, "Sunset über dem Müritz See")
        XCTAssertEqual(sunset.kind, .image)
        XCTAssertEqual(sunset.fileName, "Sunset_über_dem_Müritz_See.jpg")
        XCTAssertEqual(sunset.fullImageURL,
                       "https://upload.wikimedia.org/wikipedia/commons/8/81/Sunset_%C3%BCber_dem_M%C3%BCritz_See.jpg")
        XCTAssertEqual(sunset.pageURL, "https://commons.wikimedia.org/wiki/File:Sunset_%C3%BCber_dem_M%C3%BCritz_See.jpg")
        XCTAssertEqual(sunset.thumbnails.first?.width, 250)
        XCTAssertEqual(sunset.thumbnails.first?.height, 167)
        XCTAssertEqual(sunset.thumbnailURL(covering: 192), sunset.thumbnails.first?.url)
        XCTAssertEqual(sunset.width, 6000)
        XCTAssertEqual(sunset.height, 4000)
        XCTAssertEqual(sunset.author, "Müller")
        XCTAssertNil(sunset.suggestedFileName, "the full image is the original and names itself")
        XCTAssertFalse(sunset.isSensitive)

        let logo = try XCTUnwrap(items.first { $0.id == "1002" })
        XCTAssertEqual(logo.title, "Логотип проекта")
        XCTAssertEqual(logo.kind, .image)
        XCTAssertTrue(logo.fullImageURL?.hasSuffix(".svg") ?? false, "librsvg decodes the original SVG")
        XCTAssertTrue(logo.thumbnails.first?.url.hasSuffix(".svg.png") ?? false, "rows use the PNG rendering")
        XCTAssertEqual(items.first { $0.id == "1003" }?.title, "Harbour map (1890)")
    }

    /// `extmetadata`'s ImageDescription is HTML: its text, without tags, comments or styles, is the alt text; the
    /// upload's timestamp is the date.
    func testDescriptionsAreReadAsPlainTextAndTimestampsAsDates() throws {
        let source = try CommonsSource(username: "Müller", endpointOverride: nil)
        let items = try source.parse(fixtureResponse("page1.json", for: source.firstRequest()),
                                     of: source.firstRequest()).items
        let byID = Dictionary(uniqueKeysWithValues: items.map { ($0.id, $0) })
        XCTAssertEqual(byID["1001"]?.altText,
                       "Sunset over the lake Müritz, seen from the harbour of Waren.\nTaken with a tripod & a 10 s exposure.")
        XCTAssertEqual(byID["1001"]?.published, 1_710_094_925, "2024-03-10T18:22:05Z")
        XCTAssertEqual(byID["1003"]?.altText, "English: Map of the harbour, 1890 (scan)",
                       "no style, no comment, and a quoted > does not end its tag")
        XCTAssertNil(byID["1002"]?.altText, "every language at once (iiextmetadatamultilang) is not what was asked")
        XCTAssertNil(byID["1004"]?.altText, "no extmetadata")
        XCTAssertEqual(byID["1004"]?.published, 1_709_882_100)
    }

    func testMediaTypesDecideKindAndFullImage() throws {
        let source = try CommonsSource(username: "Müller", endpointOverride: nil)
        let second = PageRequest(url: source.firstRequest().url + "&gaicontinue=x", headers: CommonsSource.headers)
        let items = try source.parse(fixtureResponse("page2.json", for: second), of: second).items
        let webp = try XCTUnwrap(items.first { $0.id == "2004" })
        XCTAssertEqual(webp.kind, .image)
        let webpThumb = try XCTUnwrap(webp.thumbnails.first?.url)
        XCTAssertTrue(webpThumb.hasSuffix("/Rooftops.webp/250px-Rooftops.webp.png"), webpThumb)
        XCTAssertEqual(webp.fullImageURL, "https://upload.wikimedia.org/wikipedia/commons/4/4b/Rooftops.webp",
                       "webp-pixbuf-loader decodes the original")
        XCTAssertEqual(webp.thumbnails.last?.url, webpThumb.replacingOccurrences(of: "/250px-", with: "/1920px-"),
                       "a screen-sized rendering stays at hand")
        XCTAssertEqual(webp.fileName, "Rooftops.webp", "the row names the original, not the rendering")
        let video = try XCTUnwrap(items.first { $0.id == "2001" })
        XCTAssertEqual(video.kind, .video)
        XCTAssertNil(video.fullImageURL)
        XCTAssertEqual(video.title, "Interview mit Frau Łukasiewicz")
        XCTAssertEqual(video.thumbnails.count, 1, "the video's still frame stays as its thumbnail")
        XCTAssertEqual(video.fileName, "Interview_mit_Frau_Łukasiewicz.webm")
        XCTAssertEqual(video.media, GalleryItem.Media(
            url: "https://upload.wikimedia.org/wikipedia/commons/8/88/Interview_mit_Frau_%C5%81ukasiewicz.webm",
            durationMilliseconds: 754_120), "the WebM plays in the large view; imageinfo's duration is its length")
        let pdf = try XCTUnwrap(items.first { $0.id == "2002" })
        XCTAssertEqual(pdf.kind, .other)
        XCTAssertNil(pdf.fullImageURL)
        XCTAssertTrue(pdf.thumbnails.first?.url.contains("page1-250px-") ?? false)
        XCTAssertEqual(pdf.fileName, "Annual_report_2023.pdf")

        let cases: [(mime: String, width: Int, size: Int, thumb: String?, kind: GalleryItem.Kind, full: String?)] = [
            ("video/ogg", 640, 1, nil, .video, nil),
            ("audio/ogg", 0, 1, nil, .audio, nil),
            ("audio/x-flac", 0, 1, nil, .audio, nil),
            ("application/ogg", 640, 1, nil, .video, nil),
            ("application/ogg", 0, 1, nil, .audio, nil),
            ("application/sla", 0, 1, "T/250px-F.stl.png", .other, nil),
            ("image/jpeg", 9000, 40 * 1_048_576, "T/250px-F.jpg", .image, "T/1920px-F.jpg"),
            ("image/png", 900, 40 * 1_048_576, "T/250px-F.png", .image, "T/500px-F.png"),
            ("image/tiff", 4000, 90_000_000, "T/lossy-page1-250px-F.tif.jpg", .image, "T/lossy-page1-1920px-F.tif.jpg"),
            ("image/tiff", 200, 9000, "T/200px-F.tif.jpg", .image, "T/200px-F.tif.jpg"),
            ("image/x-xcf", 800, 1, nil, .other, nil),
            ("IMAGE/GIF", 300, 1, nil, .image, "O"),
            ("", 10, 1, nil, .other, nil),
        ]
        for test in cases {
            let thumb = test.thumb.map {
                #","thumburl":"https://u.example/\#($0)","thumbwidth":\#($0.contains("200px") ? 200 : 250)"#
            } ?? ""
            let body = """
                {"batchcomplete":true,"query":{"pages":[{"pageid":1,"ns":6,"title":"File:F","imageinfo":[{
                 "url":"https://u.example/O","mime":"\(test.mime)","width":\(test.width),"height":\(test.width),
                 "size":\(test.size)\(thumb)}]}]}}
                """
            let item = try XCTUnwrap(parse(source, body).items.first, test.mime)
            XCTAssertEqual(item.kind, test.kind, "\(test)")
            XCTAssertEqual(item.fullImageURL, test.full.map { "https://u.example/" + $0 }, "\(test)")
            XCTAssertEqual(item.media?.url, [.video, .audio].contains(test.kind) ? "https://u.example/O" : nil, "\(test)")
        }
    }

    // MARK: Empty galleries and errors

    func testEmptyListingsEndTheFeedWithoutItems() throws {
        let source = try CommonsSource(username: "Quiet Person", endpointOverride: nil)
        for name in ["empty.json", "no-uploads.json"] {
            let result = try source.parse(fixtureResponse(name, for: source.firstRequest()), of: source.firstRequest())
            XCTAssertTrue(result.items.isEmpty, name)
            XCTAssertNil(result.next, name)
        }
    }

    func testMissingAndInvalidUsersAreReported() throws {
        let source = try CommonsSource(username: "Nobody Here", endpointOverride: nil)
        XCTAssertEqual(parseError(source, fixtureResponse("no-such-user.json", for: source.firstRequest())),
                       .noSuchUser(service: "Wikimedia Commons", username: "Nobody Here"))
        let invalid = #"{"batchcomplete":true,"query":{"users":[{"name":"Nobody Here","invalid":true}]}}"#
        guard case .invalidUsername = parseError(source, response(invalid, for: source.firstRequest())) else {
            return XCTFail("an invalid name is not an empty gallery")
        }
    }

    func testAPIErrorObjectsBecomeGalleryErrors() throws {
        let source = try CommonsSource(username: "Ivy", endpointOverride: nil)
        let request = source.firstRequest()
        func fixtureError(_ name: String, status: UInt32 = 200, headers: [String: String] = [:]) -> GalleryError? {
            parseError(source, fixtureResponse(name, for: request, status: status, headers: headers))
        }
        let slowDown = GalleryError.rateLimited(service: "Wikimedia Commons", retryAfterSeconds: 5)
        guard case .invalidUsername(let reason) = fixtureError("error-baduser.json") else {
            return XCTFail("baduser")
        }
        XCTAssertTrue(reason.contains("Ivy"))
        XCTAssertEqual(fixtureError("error-maxlag.json", headers: ["retry-after": "7"]),
                       .rateLimited(service: "Wikimedia Commons", retryAfterSeconds: 7))
        XCTAssertEqual(fixtureError("error-maxlag.json"), slowDown)
        XCTAssertEqual(fixtureError("error-maxlag.json", status: 503), slowDown, "the error object beats the status")
        XCTAssertEqual(fixtureError("error-ratelimited.json"),
                       .rateLimited(service: "Wikimedia Commons", retryAfterSeconds: nil))
        guard case .malformedResponse(_, let detail) = fixtureError("error-invalidparammix.json") else {
            return XCTFail("invalidparammix")
        }
        XCTAssertTrue(detail.contains("can not be used together") && detail.contains("(invalidparammix)"), detail)

        let denied = #"{"error":{"code":"readapidenied","info":"You need read permission to use this module."}}"#
        XCTAssertEqual(parseError(source, response(denied, for: request)), .signInRequired(service: "Wikimedia Commons"))
        let internalError = #"{"errors":[{"code":"internal_api_error_DBQueryError","text":"[abc] Database query error."}]}"#
        guard case .serverError(_, 500, _) = parseError(source, response(internalError, for: request, status: 500)) else {
            return XCTFail("internal error")
        }
        let noisy = #"{"error":{"code":"x\u0007","info":"line\nbreak\u0000 \#(String(repeating: "z", count: 5000))"}}"#
        guard case .malformedResponse(_, let clean) = parseError(source, response(noisy, for: request)) else {
            return XCTFail("noisy")
        }
        XCTAssertFalse(clean.unicodeScalars.contains { $0.properties.generalCategory == .control }, clean)
        XCTAssertLessThan(clean.count, 400)
    }

    func testHTTPStatusesWithoutAnAPIError() throws {
        let source = try CommonsSource(username: "Ivy", endpointOverride: nil)
        let request = source.firstRequest()
        let html = "<html><body>Too many requests</body></html>"
        XCTAssertEqual(parseError(source, response(html, for: request, status: 429, headers: ["retry-after": "30"])),
                       .rateLimited(service: "Wikimedia Commons", retryAfterSeconds: 30))
        guard case .serverError(_, 503, _) = parseError(source, response(html, for: request, status: 503)) else {
            return XCTFail("503")
        }
        XCTAssertEqual(parseError(source, response(html, for: request, status: 403)),
                       .refused(service: "Wikimedia Commons", status: 403))
        guard case .malformedResponse(_, let detail) = parseError(source, response(html, for: request, status: 404)) else {
            return XCTFail("a 404 means a wrong API address, not a missing user")
        }
        XCTAssertTrue(detail.contains("/w/api.php"), detail)
    }

    func testUserAgentFollowsWikimediaPolicy() {
        // https://meta.wikimedia.org/wiki/User-Agent_policy: client name/version and a way to reach its authors.
        let agent = HTTPClient.defaultUserAgent
        XCTAssertTrue(agent.hasPrefix("GalleryViewer/\(AppVersion.string) "), agent)
        XCTAssertTrue(agent.contains("https://"), agent)
    }

    // MARK: Helpers

    func info(_ name: String) -> String {
        #"{"timestamp":"2024-01-02T03:04:05Z","url":"https://upload.wikimedia.org/wikipedia/commons/a/ab/\#(name)","#
            + #""descriptionurl":"https://commons.wikimedia.org/wiki/File:\#(name)","mime":"image/jpeg","#
            + #""width":800,"height":600}"#
    }

    func head(for request: PageRequest, status: UInt32 = 200, headers: [String: String] = [:]) -> HTTPResponseHead {
        HTTPResponseHead(status: status, reason: status == 200 ? "OK" : "Error", url: request.url, headers: headers,
                         mediaType: "application/json")
    }

    func response(_ body: String, for request: PageRequest, status: UInt32 = 200,
                          headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(head: head(for: request, status: status, headers: headers), body: Bytes(body))
    }

    func fixtureResponse(_ name: String, for request: PageRequest, status: UInt32 = 200,
                         headers: [String: String] = [:]) -> HTTPResponse {
        HTTPResponse(head: head(for: request, status: status, headers: headers),
                     body: Fixtures.bytes("commons/\(name)"))
    }

    func parse(_ source: CommonsSource, _ body: String) throws -> PageResult {
        try source.parse(response(body, for: source.firstRequest()), of: source.firstRequest())
    }

    func parseError(_ source: CommonsSource, _ response: HTTPResponse, _ request: PageRequest? = nil) -> GalleryError? {
        do {
            _ = try source.parse(response, of: request ?? source.firstRequest())
            return nil
        } catch {
            return error
        }
    }

    func query(_ url: String, _ name: String) -> String? {
        URLComponents(string: url)?.queryItems?.first { $0.name == name }?.value
    }
}
