// libFuzzer target: a MediaWiki API reply as the Commons source reads it (pages, imageinfo, continuation,
// errors, renditions). Built and run by `make fuzz` (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
@testable import GalleryCore
import GObjectBindings

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Bytes(Array(fuzzInput(data, size)))
    let source = try! CommonsSource(username: "Fuzz", endpointOverride: nil)
    let head = HTTPResponseHead(status: 200, reason: "OK", url: source.firstRequest().url)
    for request in [source.firstRequest(), PageRequest(url: source.firstRequest().url, stage: "batch:1,2,3")] {
        if case .success(let page) = Result(catching: { () throws(GalleryError) in
            try source.parse(HTTPResponse(head: head, body: body), of: request)
        }) {
            FuzzChecks.check(page)
        }
    }
    return 0
}

runFuzzer(fuzzOneInput)
