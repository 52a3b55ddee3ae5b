import GObjectBindings
import GalleryDemoServer

/// SVG files that reach past the app's checks through librsvg: an SVG states no pixel size the app must
/// honour, and librsvg decodes what it embeds with gdk-pixbuf loaders of its own choosing.
@MainActor
enum HostileSVG {
    /// A 400 × 300 picture wrapping a `data:` PNG that declares 30000 × 30000 (2.7 GB once decoded).
    static var dataBomb: Bytes { cached(&dataBombBytes) { picture(embedding: "image/png", HostileImages.pngBomb.array) } }

    /// An SVG that embeds an SVG that embeds the PNG bomb.
    static var nestedBomb: Bytes {
        cached(&nestedBombBytes) { picture(embedding: "image/svg+xml", dataBomb.array) }
    }

    /// A 16 × 16 ICO inside an SVG: gdk-pixbuf's ICO loader, which the app never calls itself.
    static var ico: Bytes { cached(&icoBytes) { picture(embedding: "image/x-icon", icoFile()) } }

    /// The path whose requests tell that an SVG's external reference was fetched.
    static let referencePath = "/svg-reference.png"
    /// The file an SVG refers to by a `file:` URL.
    static let referencedFile = "/etc/passwd"

    /// A picture that refers to an image on this server (`http:`) and to a local file (`file:`).
    static func external(baseURL: String) -> Bytes {
        Bytes(svgStart + #"<image width="200" height="300" xlink:href="\#(baseURL)\#(referencePath)"/>"#
            + #"<image x="200" width="200" height="300" xlink:href="file://\#(referencedFile)"/>"# + svgEnd)
    }

    private static var dataBombBytes: Bytes?
    private static var nestedBombBytes: Bytes?
    private static var icoBytes: Bytes?

    static func prepare() { _ = (dataBomb.count, nestedBomb.count, ico.count) }

    private static func cached(_ slot: inout Bytes?, _ make: () -> Bytes) -> Bytes {
        if let bytes = slot { return bytes }
        let bytes = make()
        slot = bytes
        return bytes
    }

    private static let svgStart = #"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" "#
        + #"width="400" height="300"><rect width="400" height="300" fill="steelblue"/>"#
    private static let svgEnd = "</svg>"

    private static func picture(embedding type: String, _ bytes: [UInt8]) -> Bytes {
        Bytes(svgStart + #"<image width="400" height="300" xlink:href="data:\#(type);base64,\#(base64(bytes))"/>"# + svgEnd)
    }

    /// One 16 × 16 32-bit image: the ICONDIR, its entry, a BITMAPINFOHEADER of twice the height (colour then
    /// mask), the pixels, and the 1-bit AND mask.
    private static func icoFile() -> [UInt8] {
        let side = 16
        let pixels = [UInt8](repeating: 0xc0, count: side * side * 4)
        let mask = [UInt8](repeating: 0, count: side * 4)
        let image = HostileImages.littleEndian32(40) + HostileImages.littleEndian32(side) + HostileImages.littleEndian32(side * 2)
            + HostileImages.littleEndian16(1) + HostileImages.littleEndian16(32) + [UInt8](repeating: 0, count: 24) + pixels + mask
        return HostileImages.littleEndian16(0) + HostileImages.littleEndian16(1) + HostileImages.littleEndian16(1)
            + [UInt8(side), UInt8(side), 0, 0] + HostileImages.littleEndian16(1) + HostileImages.littleEndian16(32)
            + HostileImages.littleEndian32(image.count) + HostileImages.littleEndian32(22) + image
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func base64(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0..<4 {
                out.append(position <= chunk.count ? alphabet[(value >> (18 - 6 * position)) & 63] : UInt8(ascii: "="))
            }
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }
}
