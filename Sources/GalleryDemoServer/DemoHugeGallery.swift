/// Synthetic demo users of any size, for trying (and benchmarking) long galleries offline: `huge` has
/// 100,000 items, `huge-N` has N (1 to 1,000,000), e.g. `huge-10000`.
///
/// Nothing is stored per item: page by page, item k is made from one of atlas's items (its picture, size and
/// title) under URLs of its own — the app fetches, caches and dedupes by URL, so distinct URLs make distinct
/// items — while the server only ever reads atlas's few hundred files.
public struct DemoHugeGallery: Sendable {
    public static let defaultCount = 100_000
    public static let maxCount = 1_000_000
    /// Item k's id is `idBase + k`, above every catalog id (those stay below 200,000,000).
    static let idBase = 1_000_000_000
    /// "huge-0000042-…": the prefix of every synthetic file name, followed by the atlas file it reuses.
    private static let filePrefix = "huge-"
    private static let indexDigits = 7

    public let name: String
    public let count: Int
    private let sources: [DemoItem]

    /// The gallery a user name asks for ("huge", "huge-250"), if it is one and the catalog has atlas.
    public init?(name: String, catalog: DemoCatalog) {
        let lowered = name.lowercased()
        let count: Int
        if lowered == "huge" {
            count = Self.defaultCount
        } else if lowered.hasPrefix("huge-"), let parsed = Int(lowered.dropFirst(5)), (1...Self.maxCount).contains(parsed),
                  String(parsed) == lowered.dropFirst(5) {
            count = parsed
        } else {
            return nil
        }
        guard let sources = catalog.user(named: "atlas")?.items.filter({ $0.fault == nil }), !sources.isEmpty else {
            return nil
        }
        self.name = lowered
        self.count = count
        self.sources = sources
    }

    /// Items `offset + 1 …`, at most `limit` of them.
    public func items(offset: Int, limit: Int) -> [DemoItem] {
        guard offset < count else { return [] }
        return (offset + 1...min(count, offset + limit)).map(item(index:))
    }

    /// Item `index` (1-based), newest first like every demo gallery.
    public func item(index: Int) -> DemoItem {
        let source = sources[(index - 1) % sources.count]
        return DemoItem(
            user: name, index: index, id: Self.idBase + index, title: "\(source.title) #\(index)", slug: source.slug,
            fileName: Self.filePrefix + DemoCatalog.zeroPadded(index, digits: Self.indexDigits) + "-" + source.fileName,
            width: source.width, height: source.height, format: source.format, frames: source.frames, fault: nil,
            rating: source.rating,
            categoryLabel: source.categoryLabel, categoryPath: source.categoryPath,
            published: DemoCatalog.newestDate - index * 600, artSeed: source.artSeed)
    }

    /// The catalog file a synthetic file name reuses ("huge-0000042-atlas-042-….jpg" → "atlas-042-….jpg").
    static func sourceFileName(of fileName: String) -> String? {
        guard fileName.hasPrefix(filePrefix) else { return nil }
        let rest = fileName.dropFirst(filePrefix.count)
        let digits = rest.prefix(indexDigits)
        guard digits.count == indexDigits, digits.allSatisfy(\.isASCII), Int(digits) != nil,
              rest.dropFirst(indexDigits).first == "-" else { return nil }
        return String(rest.dropFirst(indexDigits + 1))
    }

    /// The item behind a synthetic id (item pages, `/art/<slug>-<id>`), in the default-size gallery's numbering.
    static func index(ofID id: Int) -> Int? {
        let index = id - idBase
        return (1...maxCount).contains(index) ? index : nil
    }
}
