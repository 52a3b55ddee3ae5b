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
        // At most one item per page the reply lists, and only the first CappedList.limit pages are read.
        FuzzChecks.parse(HTTPResponse(head: head, body: body), of: request, with: source,
                         maxItems: CappedList<Lenient<CommonsReply.Page>>.limit)
    }
    return 0
}

runFuzzer(fuzzOneInput)
