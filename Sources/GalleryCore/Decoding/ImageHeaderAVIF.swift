import GObjectBindings

/// AVIF: an ISO base media file (ISO/IEC 14496-12) holding HEIF image items (ISO/IEC 23008-12) coded with AV1.
/// The image's size is not in the first bytes: it is the `ispe` property of the primary item, found through
///
///     ftyp (brand avif/avis) … meta ─ pitm (primary item id)
///                                  └ iprp ─ ipco (properties, numbered from 1: ispe, av1C, colr, irot…)
///                                         └ ipma (item id → property numbers)
///
/// Only box headers and these few small boxes are read; `mdat` (the coded image) is skipped by its size, so
/// the walk is linear in the number of boxes, which is capped, and never in the image data.
extension ImageHeaderParsers {
    /// Boxes read in any one container before the file is called malformed: real files have a handful
    /// (ftyp, meta, mdat; a dozen properties).
    static let maxAVIFBoxes = 256

    /// Whether an `ftyp` box at the start names an AVIF brand (major or compatible).
    static func isAVIF(_ reader: ByteReader) -> Bool {
        guard let brands = fileTypeBrands(reader) else { return false }
        return brands.contains("avif") || brands.contains("avis")
    }

    /// The brands of a leading `ftyp` box: the major brand, then the compatible ones.
    static func fileTypeBrands(_ reader: ByteReader) -> [String]? {
        var reader = reader
        reader.position = 0
        guard let box = reader.box(in: reader.bytes.count), box.type == "ftyp", box.end - box.contentStart >= 8 else {
            return nil
        }
        var brands: [String] = []
        reader.position = box.contentStart
        while reader.position + 4 <= box.end, brands.count < maxAVIFBoxes, let brand = reader.bytes(4) {
            // The minor version (the second four bytes) is not a brand.
            if reader.position != box.contentStart + 8 { brands.append(String(decoding: brand, as: UTF8.self)) }
        }
        return brands
    }

    static func avif(_ reader: inout ByteReader) -> Result<ImageHeader, ImageProbeError> {
        let brands = fileTypeBrands(reader) ?? []
        var meta: ISOBox?
        var hasMovie = false
        reader.position = 0
        var count = 0
        while reader.position < reader.bytes.count, let box = reader.box(in: reader.bytes.count) {
            count += 1
            guard count <= maxAVIFBoxes else { return .failure(.malformed(tr("AVIF with too many boxes"))) }
            if box.type == "meta", meta == nil { meta = box }
            if box.type == "moov" { hasMovie = true }
            reader.position = box.end
        }
        // An image sequence (AV1 in a movie track): Debian's loader decodes only still images.
        if hasMovie && brands.contains("avis") { return .failure(.unsupported(tr("animated AVIF"))) }
        guard let meta else { return .failure(.malformed(tr("AVIF without image properties"))) }
        // meta is a full box: version and flags before its children.
        guard let children = reader.children(of: meta, skipping: 4) else {
            return .failure(.malformed(tr("AVIF with broken image properties")))
        }
        guard let primary = children.first(where: { $0.type == "pitm" }).flatMap({ reader.primaryItemID($0) }),
              let properties = children.first(where: { $0.type == "iprp" }).flatMap({ reader.children(of: $0) }),
              let container = properties.first(where: { $0.type == "ipco" }),
              let associations = properties.first(where: { $0.type == "ipma" }),
              let propertyBoxes = reader.children(of: container),
              let primaryProperties = reader.propertyIndexes(of: primary, in: associations) else {
            return .failure(.malformed(tr("AVIF with broken image properties")))
        }
        // Every spatial extent counts towards the decode: a grid's tiles and an alpha plane are decoded
        // beside the primary image.
        var extents: [(width: Int, height: Int)?] = []
        var framePixels = 0
        for box in propertyBoxes {
            guard box.type == "ispe" else {
                extents.append(nil)
                continue
            }
            reader.position = box.contentStart
            guard reader.skip(4), let width = reader.uint32BE(), let height = reader.uint32BE(), width > 0, height > 0 else {
                return .failure(.malformed(tr("AVIF with an impossible size")))
            }
            extents.append((width, height))
            let (sum, overflow) = framePixels.addingReportingOverflow(ImageHeader.area(width, height))
            framePixels = overflow ? Int.max : sum
        }
        // Property numbers start at 1; 0 means "none".
        guard let size = primaryProperties.lazy.compactMap({ index in
            index >= 1 && index <= extents.count ? extents[index - 1] : nil
        }).first else {
            return .failure(.malformed(tr("AVIF without a size for its image")))
        }
        return .success(ImageHeader(format: .avif, width: size.width, height: size.height,
                                    framePixels: max(framePixels, ImageHeader.area(size.width, size.height))))
    }
}

/// One box of an ISO base media file: its four-character type and where its content lies in the buffer.
struct ISOBox {
    let type: String
    let contentStart: Int
    let end: Int
}

extension ByteReader {
    /// The box starting at `position`, which must end by `limit`; nil when its header is cut off or its size
    /// runs past `limit` or is smaller than its own header.
    mutating func box(in limit: Int) -> ISOBox? {
        let start = position
        guard let size32 = uint32BE(), let type = bytes(4) else { return nil }
        var size = size32
        if size32 == 1 {  // a 64-bit size follows the type
            guard let high = uint32BE(), let low = uint32BE(), high < 0x8000 else { return nil }
            size = high << 32 | low
        } else if size32 == 0 {  // to the end of the file (or of its container)
            size = limit - start
        }
        let headerSize = position - start
        guard size >= headerSize, size <= limit - start else { return nil }
        return ISOBox(type: String(decoding: type, as: UTF8.self), contentStart: position, end: start + size)
    }

    /// The boxes inside `parent` (after `skipping` bytes of its own fields), at most `maxAVIFBoxes`; nil when
    /// one of them is broken.
    mutating func children(of parent: ISOBox, skipping: Int = 0) -> [ISOBox]? {
        position = parent.contentStart
        guard skip(skipping) else { return nil }
        var boxes: [ISOBox] = []
        while position < parent.end {
            guard boxes.count < ImageHeaderParsers.maxAVIFBoxes, let box = box(in: parent.end) else { return nil }
            boxes.append(box)
            position = box.end
        }
        return boxes
    }

    /// `pitm`: a full box, then the item id (16 bits in version 0, 32 after).
    mutating func primaryItemID(_ box: ISOBox) -> Int? {
        position = box.contentStart
        guard let version = uint8(), skip(3) else { return nil }
        return version == 0 ? uint16BE() : uint32BE()
    }

    /// `ipma`: for each item, the numbers of its properties (7 bits each, or 15 with flag 1; the top bit marks
    /// an essential one). Nil when the box is cut off or does not name `item`.
    mutating func propertyIndexes(of item: Int, in box: ISOBox) -> [Int]? {
        position = box.contentStart
        guard let version = uint8(), let flags = uint24BE(), let entries = uint32BE() else { return nil }
        for _ in 0..<min(entries, 65_536) {
            guard position < box.end, let id = version < 1 ? uint16BE() : uint32BE(), let count = uint8() else { return nil }
            var indexes: [Int] = []
            for _ in 0..<count {
                guard let value = flags & 1 != 0 ? uint16BE().map({ $0 & 0x7FFF }) : uint8().map({ $0 & 0x7F }) else {
                    return nil
                }
                indexes.append(value)
            }
            guard position <= box.end else { return nil }
            if id == item { return indexes }
        }
        return nil
    }

    mutating func uint24BE() -> Int? { bytes(3).map { Int($0[0]) << 16 | Int($0[1]) << 8 | Int($0[2]) } }
}
