import GObjectBindings
import GalleryDemoServer
import XCTest

/// Starts the demo server on 127.0.0.1 with the demo gallery that `make demo-data` renders.
@MainActor
public func startDemoServer(_ options: DemoServer.Options = .init(),
                            file: StaticString = #filePath, line: UInt = #line) throws -> DemoServer {
    guard let directory = DemoGalleryLocation.defaultDataDirectory() else {
        XCTFail("no demo data directory; run `make demo-data`", file: file, line: line)
        throw DemoServerError.noDataDirectory(searched: DemoGalleryLocation.candidates())
    }
    let server = try DemoServer(dataDirectory: directory, options: options)
    try server.start()
    return server
}
