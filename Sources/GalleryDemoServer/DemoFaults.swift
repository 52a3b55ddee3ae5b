import GObjectBindings

/// The deliberate failures of image URLs (`?fault=`), as responses.
package enum DemoFaults {
    /// Image responses that fail on purpose are never cached, so every retry shows the failure again.
    static let noStore = (name: "Cache-Control", value: "no-store")

    /// The response for faults that do not involve the image bytes; nil for those that do.
    static func responseWithoutImage(_ fault: DemoFault, redirectTarget: String) -> ServerResponse? {
        var response: ServerResponse
        switch fault {
        case .notFound:
            response = .html(status: 404, title: "Not Found", message: "This demo image is missing on purpose (fault=404).")
        case .serverError:
            response = .html(status: 500, title: "Internal Server Error",
                             message: "The demo server fails this image on purpose (fault=500).")
        case .html:
            response = .html(title: "Definitely an Image",
                             message: "An HTML page where an image was expected (fault=html).")
        case .redirect:
            response = .redirect(to: redirectTarget)
        case .truncate, .corrupt, .stall:
            return nil
        }
        response.headers.append(noStore)
        return response
    }

    /// The image response broken as `fault` asks (truncate, corrupt, stall).
    static func response(_ fault: DemoFault, image: Bytes, contentType: String) -> ServerResponse {
        var response = ServerResponse(contentType: contentType, body: image)
        response.headers.append(noStore)
        switch fault {
        case .truncate: response.ending = .truncated(afterBytes: image.count / 2)
        case .stall: response.ending = .stalled(afterBytes: min(4096, image.count / 4))
        case .corrupt: response.body = scrambled(image, keeping: 8)
        case .notFound, .serverError, .html, .redirect: break
        }
        return response
    }

    /// Keeps the first bytes (so the data still looks like a JPEG or PNG) and replaces the rest with
    /// deterministic noise that never contains 0xFF: JPEG decoders then find no marker after SOI and fail with
    /// "no image"; PNG decoders fail on the first chunk's CRC.
    package static func scrambled(_ image: Bytes, keeping prefixLength: Int) -> Bytes {
        var bytes = image.array
        var random = SeededRandom(seed: UInt64(bytes.count))
        for index in min(prefixLength, bytes.count)..<bytes.count {
            let noise = UInt8(truncatingIfNeeded: random.next())
            bytes[index] = noise == 0xFF ? 0x00 : noise
        }
        return Bytes(bytes)
    }
}
