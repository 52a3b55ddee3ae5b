import CGLib
import GObjectBindings

/// Files under data/fixtures/ in the source tree.
public enum Fixtures {
    public static var directory: String {
        let file = #filePath
        let root = file.firstRange(of: "/Tests/TestSupport/").map { String(file[..<$0.lowerBound]) } ?? "."
        return root + "/data/fixtures"
    }

    public static func path(_ name: String) -> String { directory + "/" + name }

    /// The fixture's bytes; fails the test run loudly when the file is missing.
    public static func bytes(_ name: String) -> Bytes {
        guard let contents = fileBytes(atPath: path(name)) else { fatalError("missing fixture \(path(name))") }
        return Bytes(contents)
    }

    public static func text(_ name: String) -> String { bytes(name).text }
}
