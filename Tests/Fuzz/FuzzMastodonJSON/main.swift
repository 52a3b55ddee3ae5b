// libFuzzer target: Mastodon's JSON — the statuses page (posts, attachments, capped decoding) and the account
// lookup. Built and run by `make fuzz` (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
@testable import GalleryCore
import GObjectBindings

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Bytes(Array(fuzzInput(data, size)))
    let source = try! MastodonSource(account: "fuzz@mastodon.social", endpointOverride: nil)
    let url = "https://mastodon.social/api/v1/accounts/1/statuses"
    let head = HTTPResponseHead(status: 200, reason: "OK", url: url, headers: ["link": "<\(url)?max_id=1>; rel=\"next\""])
    for request in [source.firstRequest(), PageRequest(url: url, stage: MastodonSource.Stage.statuses)] {
        FuzzChecks.parse(HTTPResponse(head: head, body: body), of: request, with: source,
                         maxItems: MastodonSource.maxItemsPerPage)
    }
    return 0
}

runFuzzer(fuzzOneInput)
