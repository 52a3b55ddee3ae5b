// libFuzzer target: DeviantArt's Media RSS, through the source's own parse (GMarkup, namespaces, items, the next
// link). Built and run by `make fuzz` (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
@testable import GalleryCore
import GObjectBindings

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Bytes(Array(fuzzInput(data, size)))
    let source = try! DeviantArtSource(username: "fuzz", endpointOverride: nil)
    let head = HTTPResponseHead(status: 200, reason: "OK", url: "https://backend.deviantart.com/rss.xml?q=gallery:fuzz")
    FuzzChecks.parse(HTTPResponse(head: head, body: body), of: source.firstRequest(), with: source,
                     maxItems: MediaRSSParser.maxItems)
    return 0
}

runFuzzer(fuzzOneInput)
