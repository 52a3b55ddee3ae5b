import GObjectBindings
@testable import GalleryCore
import XCTest

/// The texts that tell people what the app reads from name every service the app has: the desktop entry's
/// Comment (the desktop's menu and search), the AppStream description (software centres) and the About
/// window. The list comes from the code (`SourceKind`), so a service added there and not to the shipped
/// files fails here, naming what is missing where.
final class ServiceNamesInTextsTests: XCTestCase {
    func testTheServicesAreTheOnlineSources() {
        let services = AppDescription.services
        XCTAssertFalse(services.isEmpty)
        XCTAssertFalse(services.contains(.demo), "the offline demo is not a service")
        for kind in SourceKind.allCases where kind != .demo {
            XCTAssertTrue(services.contains(kind), "\(kind.displayName) is one of the services")
        }
    }

    func testTheDesktopEntryCommentNamesEveryService() throws {
        let entry = try Self.resource("io.github.galleryviewer.GalleryViewer.desktop")
        let comment = try XCTUnwrap(entry.split(separator: "\n").first { $0.hasPrefix("Comment=") },
                                    "the desktop entry has a Comment= line")
        XCTAssertEqual(Self.missingServices(in: String(comment)), [], "the desktop entry's \(comment)")
    }

    func testTheMetainfoDescriptionNamesEveryService() throws {
        let metainfo = try Self.resource("io.github.galleryviewer.GalleryViewer.metainfo.xml")
        let start = try XCTUnwrap(metainfo.range(of: "<description>"), "the metainfo has a <description>")
        let end = try XCTUnwrap(metainfo.range(of: "</description>", range: start.upperBound..<metainfo.endIndex))
        let description = Self.plainText(String(metainfo[start.upperBound..<end.lowerBound]))
        XCTAssertEqual(Self.missingServices(in: description), [], "the metainfo's description: \(description)")
    }

    func testTheAboutWindowNamesEveryService() {
        let comments = AppDescription.aboutComments
        XCTAssertEqual(Self.missingServices(in: comments), [], "the About window's text: \(comments)")
    }

    func testNamesAreListedAsInASentence() {
        XCTAssertEqual(AppDescription.list([]), "")
        XCTAssertEqual(AppDescription.list(["DeviantArt"]), "DeviantArt")
        XCTAssertEqual(AppDescription.list(["DeviantArt", "Mastodon"]), "DeviantArt and Mastodon")
        XCTAssertEqual(AppDescription.list(["DeviantArt", "Mastodon", "Bluesky"]), "DeviantArt, Mastodon and Bluesky")
    }

    // MARK: Helpers

    /// The display names of the services that `text` does not mention, in the list's order.
    private static func missingServices(in text: String) -> [String] {
        AppDescription.services.map(\.displayName).filter { !text.contains($0) }
    }

    /// The markup's text: tags dropped, runs of whitespace made one space.
    private static func plainText(_ markup: String) -> String {
        markup.replacing(/<[^>]*>/, with: " ").split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func resource(_ name: String) throws -> String {
        let file = #filePath
        let root = file.firstRange(of: "/Tests/GalleryUITests/").map { String(file[..<$0.lowerBound]) } ?? "."
        let path = root + "/resources/" + name
        return try XCTUnwrap(File.smallText(atPath: path), "\(path) is readable")
    }
}
