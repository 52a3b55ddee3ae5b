import XCTest
final class GalleryCoreTestsPlaceholder: XCTestCase { func testNothing() {} }
