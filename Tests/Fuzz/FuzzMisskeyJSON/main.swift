// libFuzzer target: Misskey's JSON as the Misskey source reads it — users/show (the user id, sign-in only),
// a page of users/notes (files, cw, renotes, hidden notes, untilId) and error codes. Built and run by
// `make fuzz` (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
@testable import GalleryCore
import GObjectBindings

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let body = Bytes(Array(fuzzInput(data, size)))
    let source = try! MisskeySource(account: "alice@misskey.io", endpointOverride: nil)
    let notes = PageRequest(url: "https://misskey.io/api/users/notes", stage: MisskeySource.Stage.notes,
                            headers: ["Content-Type": "application/json"], method: "POST",
                            body: #"{"limit":40,"userId":"9tjzq2vq7o","withFiles":true,"withRenotes":false}"#)
    for status: UInt32 in [200, 400] {
        let head = HTTPResponseHead(status: status, reason: "OK", url: notes.url)
        for request in [source.firstRequest(), notes] {
            FuzzChecks.parse(HTTPResponse(head: head, body: body), of: request, with: source,
                             maxItems: MisskeyItems.maxItemsPerPage)
        }
    }
    return 0
}

runFuzzer(fuzzOneInput)
