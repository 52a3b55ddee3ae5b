import CGLib
import GObjectBindings
import Glibc

/// Finds the data directory that holds `demo/users.json` (and `demo/images/`, made by gallery-demo-images).
public enum DemoGalleryLocation {
    public static let environmentVariable = "GALLERY_VIEWER_DATA_DIR"

    /// The first candidate holding `demo/users.json`: `$GALLERY_VIEWER_DATA_DIR`, then
    /// `<executable dir>/../share/gallery-viewer` (installed app), then the source tree's `data/` (development
    /// builds, found from this file's path at compile time).
    public static func defaultDataDirectory() -> String? {
        candidates().first { holdsCatalog($0) }
    }

    public static func candidates() -> [String] {
        var result: [String] = []
        if let fromEnvironment = string(g_getenv(environmentVariable)), !fromEnvironment.isEmpty {
            result.append(fromEnvironment)
        }
        if let executableDirectory {
            result.append(executableDirectory + "/../share/gallery-viewer")
        }
        result.append(sourceTreeDataDirectory)
        return result
    }

    /// `<repository>/data`, derived from this source file's location.
    public static var sourceTreeDataDirectory: String {
        var path = #filePath
        for _ in 0..<3 {  // .../Sources/GalleryDemoServer/DemoGalleryLocation.swift -> ...
            path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
        }
        return path + "/data"
    }

    public static func catalogPath(in dataDirectory: String) -> String { dataDirectory + "/demo/users.json" }
    public static func imagesDirectory(in dataDirectory: String) -> String { dataDirectory + "/demo/images" }
    /// Written last by gallery-demo-images: the catalog fingerprint the images were made for.
    public static func stampPath(in dataDirectory: String) -> String { imagesDirectory(in: dataDirectory) + "/catalog.stamp" }

    static func holdsCatalog(_ directory: String) -> Bool {
        g_file_test(catalogPath(in: directory), G_FILE_TEST_IS_REGULAR) != 0
    }

    private static var executableDirectory: String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)])
    }
}
