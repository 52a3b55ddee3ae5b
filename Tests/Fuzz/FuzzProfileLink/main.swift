// libFuzzer target: what reads text a user pastes and a server's NodeInfo — profile links (ProfileLink.read)
// and the NodeInfo discovery and schema documents. Built and run by `make fuzz` (Tests/Fuzz/run.sh), never by
// `make test`.
import FuzzSupport
import GObjectBindings
@testable import GalleryCore

/// Also exported under libFuzzer's name: its own main, which the linker keeps beside ours, refers to it.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = fuzzInput(data, size)
    let text = String(decoding: bytes, as: UTF8.self)
    switch ProfileLink.read(text) {
    case .username, .unusable:
        break
    case .link(.profile(_, let username)):
        precondition(!username.isEmpty, "a link read as an empty username")
    case .link(.fediverse(let name, let server)):
        precondition(!name.isEmpty && !server.isEmpty, "a fediverse link without a name or a server")
        precondition(!server.contains("/") && !name.contains("/"), "a path leaked into a name or server")
    }
    if case .success(let href) = NodeInfo.documentLink(in: Bytes(Array(bytes)), replyURL: "https://example.social/.well-known/nodeinfo") {
        precondition(URLText.isWebAddress(href), "a NodeInfo link that is not http(s)")
    }
    if case .success(let name) = NodeInfo.softwareName(in: Bytes(Array(bytes))) {
        precondition(!name.isEmpty && name.count <= NodeInfo.maxNameLength, "a software name out of bounds")
    }
    return 0
}

runFuzzer(fuzzOneInput)
