import CGLib
import GObjectBindings
import TestSupport
import XCTest
import Glibc

/// Reading a stream without waiting (`readNow`, `whenReadable`), the way response bodies from the network are
/// read, on a pipe whose other end the test writes: what has arrived is read at once, nothing blocks, the main
/// loop says when more has come, and a stream that cannot be polled (a file) is left to `read`.
final class ReadableStreamTests: GLibTestCase {
    func testReadsWhatArrivedAndWaitsOnTheMainLoopForMore() {
        MainActor.assumeIsolated {
            var ends: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&ends), 0)
            let stream = ReadableStream(owning: UnsafeMutableRawPointer(g_unix_input_stream_new(ends[0], 1)))
            XCTAssertTrue(stream.readsWithoutWaiting)
            let cancellable = Cancellable()
            guard case .wouldBlock = stream.readNow(maxBytes: 64, cancellable: cancellable) else {
                return XCTFail("an empty pipe has nothing to read yet")
            }
            var readable = false
            stream.whenReadable(cancellable: cancellable) { readable = true }
            XCTAssertEqual(write(ends[1], "first", 5), 5)
            XCTAssertTrue(iterateMainLoop(until: { readable }, timeout: 60), "the main loop says when bytes arrived")
            guard case .bytes(let first) = stream.readNow(maxBytes: 64, cancellable: cancellable) else {
                return XCTFail("the bytes written are there to read")
            }
            XCTAssertEqual(first.withUnsafeBytes { String(decoding: $0, as: UTF8.self) }, "first")
            // Up to `maxBytes` at a time, the rest at the next read.
            XCTAssertEqual(write(ends[1], "second", 6), 6)
            guard case .bytes(let part) = stream.readNow(maxBytes: 4, cancellable: cancellable),
                  case .bytes(let rest) = stream.readNow(maxBytes: 64, cancellable: cancellable) else {
                return XCTFail("bytes already in the pipe are read without waiting")
            }
            XCTAssertEqual(part.count, 4)
            XCTAssertEqual(rest.count, 2)
            close(ends[1])
            guard case .bytes(let end) = stream.readNow(maxBytes: 64, cancellable: cancellable) else {
                return XCTFail("a closed pipe reads as the end")
            }
            XCTAssertEqual(end.count, 0)
        }
    }

    func testCancellingWakesTheWaitAndFailsTheRead() {
        MainActor.assumeIsolated {
            var ends: [Int32] = [0, 0]
            XCTAssertEqual(pipe(&ends), 0)
            defer { close(ends[1]) }
            let stream = ReadableStream(owning: UnsafeMutableRawPointer(g_unix_input_stream_new(ends[0], 1)))
            let cancellable = Cancellable()
            var woken = false
            stream.whenReadable(cancellable: cancellable) { woken = true }
            cancellable.cancel()
            XCTAssertTrue(iterateMainLoop(until: { woken }, timeout: 60), "a cancelled wait ends without bytes")
            guard case .failed(let error) = stream.readNow(maxBytes: 64, cancellable: cancellable) else {
                return XCTFail("a cancelled read fails")
            }
            XCTAssertTrue(error.isCancelled)
        }
    }

    func testAFileIsNotReadWithoutWaiting() throws {
        let path = try Self.temporaryFile(contents: "bytes")
        defer { unlink(path) }
        try MainActor.assumeIsolated {
            let file = g_file_new_for_path(path)
            defer { g_object_unref(UnsafeMutableRawPointer(file)) }
            let input = try XCTUnwrap(g_file_read(file, nil, nil))
            let stream = ReadableStream(owning: UnsafeMutableRawPointer(input))
            XCTAssertFalse(stream.readsWithoutWaiting, "a file stream is read with `read`, on a worker")
        }
    }

    private static func temporaryFile(contents: String) throws -> String {
        var name: UnsafeMutablePointer<gchar>?
        let descriptor = g_file_open_tmp("readable-stream-XXXXXX", &name, nil)
        let path = try XCTUnwrap(name.map { String(cString: $0) }, "a temporary file")
        g_free(name)
        XCTAssertEqual(write(descriptor, contents, contents.utf8.count), contents.utf8.count)
        close(descriptor)
        return path
    }
}
