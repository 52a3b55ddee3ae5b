import XCTest
final class GalleryDemoServerTestsPlaceholder: XCTestCase { func testNothing() {} }
