import XCTest
final class GalleryUITestsPlaceholder: XCTestCase { func testNothing() {} }
