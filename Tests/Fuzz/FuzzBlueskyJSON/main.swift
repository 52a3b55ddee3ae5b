// libFuzzer target: Bluesky's JSON as the Bluesky source reads it — the profile (labels, DID), a page of the
// author feed (embeds, unions by $type, labels, cursor) and XRPC errors. Built and run by `make fuzz`
// (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
@testable import GalleryCore
import GObjectBindings

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Bytes(Array(fuzzInput(data, size)))
    let source = try! BlueskySource(actor: "alice.bsky.social", endpointOverride: nil)
    let feed = PageRequest(url: "https://public.api.bsky.app/xrpc/app.bsky.feed.getAuthorFeed?actor=did%3Aplc%3Agmoqedkttnau72v3gujfn4b6&filter=posts_with_media&limit=50",
                           stage: BlueskySource.Stage.feed)
    for status: UInt32 in [200, 400] {
        let head = HTTPResponseHead(status: status, reason: "OK", url: feed.url)
        for request in [source.firstRequest(), feed] {
            FuzzChecks.parse(HTTPResponse(head: head, body: body), of: request, with: source,
                             maxItems: BlueskyItems.maxItemsPerPage)
        }
    }
    return 0
}

runFuzzer(fuzzOneInput)
