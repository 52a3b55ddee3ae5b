// libFuzzer target: the HTTP Link header scanner (RFC 8288) that Mastodon paging depends on.
// Built and run by `make fuzz` (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
@testable import GalleryCore

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let value = String(decoding: fuzzInput(data, size), as: UTF8.self)
    for link in LinkHeader.parse(value) {
        precondition(!link.target.isEmpty, "an empty target was returned")
        precondition(link.relations.allSatisfy { !$0.isEmpty && $0 == $0.lowercased() }, "relations are lower-cased words")
    }
    _ = LinkHeader.target(of: "next", in: value)
    return 0
}

runFuzzer(fuzzOneInput)
