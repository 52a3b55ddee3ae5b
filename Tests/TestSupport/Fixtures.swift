import CGLib
import GObjectBindings
import XCTest

/// Files under data/fixtures/ in the source tree.
public enum Fixtures {
    public static var directory: String {
        let file = #filePath
        let root = file.firstRange(of: "/Tests/TestSupport/").map { String(file[..<$0.lowerBound]) } ?? "."
        return root + "/data/fixtures"
    }

    public static func path(_ name: String) -> String { directory + "/" + name }

    /// The fixture's bytes. A missing file fails the calling test (and gives it no bytes), not the whole run.
    public static func bytes(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> Bytes {
        guard let contents = fileBytes(atPath: path(name)) else {
            XCTFail("missing fixture \(path(name))", file: file, line: line)
            return Bytes([])
        }
        return Bytes(contents)
    }

    public static func text(_ name: String, file: StaticString = #filePath, line: UInt = #line) -> String {
        bytes(name, file: file, line: line).text
    }
}
