// libFuzzer target: the decoder helper's protocol headers, read by the app from an untrusted helper (replies)
// and by the helper from the app (requests): whatever the bytes, a header that is accepted has every field in
// bounds, and says again what it said once written back.
// Built and run by `make fuzz` (Tests/Fuzz/run.sh), never by `make test`.
import FuzzSupport
import GObjectBindings

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let input = Array(fuzzInput(data, size))
    let replyBytes = Array(input.prefix(DecoderProtocol.replySize))
    var messageLength = 0
    if let reply = DecodeReply(decoding: replyBytes, messageLength: &messageLength) {
        precondition(messageLength >= 0 && messageLength <= DecoderProtocol.maxMessageLength, "a message out of bounds")
        if reply.status == .decoded {
            let channels = reply.hasAlpha ? 4 : 3
            precondition(reply.width > 0 && reply.height > 0 && reply.width <= DecoderProtocol.maxSide
                         && reply.height <= DecoderProtocol.maxSide, "a size out of bounds")
            precondition(reply.width * reply.height <= DecoderProtocol.maxPixels, "too many pixels")
            precondition(reply.rowStride >= reply.width * channels, "rows that do not hold a row of pixels")
            precondition(reply.frameCount <= DecoderProtocol.maxFrames, "too many frames")
            precondition(reply.pixelBytes == reply.rowStride * reply.height * max(1, reply.frameCount),
                         "a pixel count that is not the image or its frames")
        } else {
            precondition(reply.pixelBytes == 0 && reply.width == 0 && reply.frameCount == 0, "pixels without an image")
        }
        var again = 0
        precondition(DecodeReply(decoding: reply.encoded(), messageLength: &again) == reply, "a reply that reads back otherwise")
    }
    let requestBytes = Array(input.dropFirst(DecoderProtocol.replySize).prefix(DecoderProtocol.requestSize))
    if let request = DecodeRequest(decoding: requestBytes) {
        precondition(request.byteCount >= 0 && request.byteCount <= DecoderProtocol.maxEncodedBytes, "too many bytes")
        precondition(request.maxFrames <= DecoderProtocol.maxFrames && (request.maxFrames == 0) == (request.maxFrameBytes == 0),
                     "frames out of bounds")
        precondition(!request.loaderType.isEmpty && request.loaderType.utf8.allSatisfy { $0 < 0x80 }, "an odd loader name")
        precondition(DecodeRequest(decoding: request.encoded()) == request, "a request that reads back otherwise")
    }
    return 0
}

runFuzzer(fuzzOneInput)
