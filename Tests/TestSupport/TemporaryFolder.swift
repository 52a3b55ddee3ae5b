import CGLib
import GObjectBindings
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// A fresh folder under the system's temporary directory, removed with everything in it afterwards.
public final class TemporaryFolder {
    public let path: String

    public init(prefix: String = "gallery-test", file: StaticString = #filePath, line: UInt = #line) {
        if let made = takeString(g_dir_make_tmp(prefix + "-XXXXXX", nil)) {
            path = made
        } else {
            // The test fails here, and its writes fail on a path that cannot exist.
            XCTFail("no temporary folder could be made", file: file, line: line)
            path = "/nonexistent"
        }
    }

    deinit {
        // Only a folder g_dir_make_tmp made (its name has no quote to escape).
        if path.hasPrefix(String(cString: g_get_tmp_dir())) { _ = system("rm -rf '\(path)'") }
    }

    public func contents(_ name: String) -> [UInt8]? { fileBytes(atPath: path + "/" + name) }

    public func write(_ bytes: [UInt8], to name: String) {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) {
                XCTAssertNotEqual(g_file_set_contents(path + "/" + name, $0.baseAddress, gssize($0.count), nil), 0)
            }
        }
    }

    public func names() -> Set<String> {
        guard let directory = g_dir_open(path, 0, nil) else { return [] }
        defer { g_dir_close(directory) }
        var names = Set<String>()
        while let name = g_dir_read_name(directory) { names.insert(String(cString: name)) }
        return names
    }
}
