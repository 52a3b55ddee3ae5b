import XCTest
final class GObjectBindingsTestsPlaceholder: XCTestCase { func testNothing() {} }
