import GObjectBindings
import TestSupport
import XCTest
@testable import GalleryCore

/// The image decoder's waiting queue: cancelled decodes leave it from wherever they are, with their bytes,
/// instead of waiting behind a slow one until they reach the head.
final class CancellableQueueTests: GLibTestCase {
    private struct Entry {
        let number: Int
        let cancellable = Cancellable()
        let bytes = Bytes(Array(repeating: 0, count: 64))
    }

    func testCancelledEntriesLeaveFromAnywhereAndTheRestKeepTheirOrder() {
        var queue = CancellableQueue<Entry> { $0.cancellable.isCancelled }
        let entries = (0..<10_000).map { Entry(number: $0) }
        for entry in entries { queue.append(entry) }
        // The head is the slow one everything waits behind; every other entry but the last few is cancelled.
        for entry in entries[1..<9_990] where entry.number % 1000 != 0 { entry.cancellable.cancel() }

        let removed = queue.removeCancelled()
        XCTAssertEqual(removed.count, 9_980, "all cancelled ones are handed back for their completion")
        XCTAssertEqual(queue.count, 20)
        var kept: [Int] = []
        while queue.first != nil { kept.append(queue.removeFirst().number) }
        XCTAssertEqual(kept, Array(stride(from: 0, through: 9000, by: 1000)) + Array(9_990..<10_000))
        XCTAssertTrue(queue.removeCancelled().isEmpty)
    }
}
