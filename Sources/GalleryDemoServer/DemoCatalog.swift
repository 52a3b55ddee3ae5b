import FoundationEssentials
import Glibc
import GObjectBindings

/// The demo users and their items, derived from data/demo/users.json.
///
/// Only the small per-user spec is stored (name, count, seed, size range, special items); every item's title,
/// size, format, date and picture seed come from a seeded generator per item, so the demo server and the image
/// generator always agree and adding a special item does not shift the others.
public struct DemoCatalog: Sendable {
    public let users: [DemoUser]
    public let defaultUserName: String
    private let usersByName: [String: Int]
    private let itemsByID: [Int: DemoItem]

    public init(contentsOf usersJSONPath: String) throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: usersJSONPath))
        } catch {
            throw DemoCatalogError.unreadable(path: usersJSONPath, reason: "\(error)")
        }
        try self.init(json: data)
    }

    public init(json: Data) throws {
        let spec: CatalogSpec
        do {
            spec = try JSONDecoder().decode(CatalogSpec.self, from: json)
        } catch {
            throw DemoCatalogError.invalid("users.json does not parse: \(error)")
        }
        try spec.validate()
        users = spec.users.map(Self.derive)
        defaultUserName = spec.defaultUser
        usersByName = Dictionary(uniqueKeysWithValues: users.enumerated().map { ($1.name, $0) })
        var byID: [Int: DemoItem] = [:]
        for item in users.flatMap(\.items) {
            guard byID.updateValue(item, forKey: item.id) == nil else {
                throw DemoCatalogError.invalid("two items have the id \(item.id); give the users seeds that differ in their last four digits")
            }
        }
        itemsByID = byID
    }

    private init(users: [DemoUser], defaultUserName: String) {
        self.users = users
        self.defaultUserName = defaultUserName
        usersByName = Dictionary(uniqueKeysWithValues: users.enumerated().map { ($1.name, $0) })
        itemsByID = Dictionary(users.flatMap(\.items).map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The same catalog with other users (`DemoGrowth`'s grown galleries).
    func replacingUsers(_ users: [DemoUser]) -> DemoCatalog { DemoCatalog(users: users, defaultUserName: defaultUserName) }

    public func user(named name: String) -> DemoUser? {
        usersByName[name.lowercased()].map { users[$0] }
    }

    public func item(id: Int) -> DemoItem? { itemsByID[id] }

    public var allItems: [DemoItem] { users.flatMap(\.items) }

    // MARK: Derivation

    /// 2024-06-01 12:00:00 UTC; items are dated backwards from here, newest first.
    static let newestDate = 1_717_243_200

    private static func derive(_ spec: UserSpec) -> DemoUser {
        let specials = Dictionary((spec.special ?? []).map { ($0.index, $0) }, uniquingKeysWith: { $1 })
        let items = spec.count > 0 ? (1...spec.count).map { derive(index: $0, user: spec, special: specials[$0]) } : []
        return DemoUser(name: spec.name, items: items, feedIsBroken: spec.feed == "truncated")
    }

    private static func derive(index: Int, user: UserSpec, special: SpecialSpec?) -> DemoItem {
        // Every value is drawn, used or not, so an override never changes what follows.
        var random = SeededRandom(seed: user.seed, stream: UInt64(index))
        let drawnTitle = makeTitle(&random)
        let drawnShape = pickShape(&random)
        let range = user.longSide ?? SideRange(min: 240, max: 1200)
        let drawnLongSide = Int((Double(range.min) * pow(Double(range.max) / Double(range.min), random.unit())).rounded())
        let aspectChoice = random.unit()
        let pngDraw = random.unit()
        let category = random.pick(categories)
        let ageJitter = random.int(in: 0...(6 * 3600))
        let artSeed = random.next()

        let title = special?.title ?? drawnTitle
        let shape = special?.shape ?? drawnShape
        let longSide = special?.longSide ?? drawnLongSide
        let (width, height) = size(shape: shape, longSide: longSide, choice: aspectChoice)
        let format = special?.format ?? (pngDraw < (user.pngShare ?? 0.25) && longSide <= 1600 ? .png : .jpeg)
        let slug = makeSlug(title)
        let id = 100_000_000 + Int(user.seed % 10_000) * 10_000 + index
        var item = DemoItem(
            user: user.name, index: index, id: id, title: title, slug: slug,
            fileName: "\(user.name)-\(zeroPadded(index, digits: 3))-\(slug).\(format.fileExtension)",
            width: width, height: height, format: format, fault: special?.fault,
            rating: special?.rating ?? .nonadult, categoryLabel: category.label, categoryPath: category.path,
            published: newestDate - (index - 1) * 30 * 3600 - ageJitter, artSeed: artSeed)
        item.frames = special?.frames ?? 1
        return item
    }

    private static func pickShape(_ random: inout SeededRandom) -> DemoShape {
        let draw = random.unit()
        switch draw {
        case ..<0.45: return .landscape
        case ..<0.75: return .portrait
        case ..<0.9: return .square
        default: return .panorama
        }
    }

    private static func size(shape: DemoShape, longSide: Int, choice: Double) -> (Int, Int) {
        let ratios: [Double]
        switch shape {
        case .square: return (longSide, longSide)
        case .landscape, .portrait: ratios = [4.0 / 3.0, 3.0 / 2.0, 16.0 / 10.0]
        case .panorama: ratios = [2.5, 3.0]
        }
        let ratio = ratios[min(ratios.count - 1, Int(choice * Double(ratios.count)))]
        let shortSide = max(1, Int((Double(longSide) / ratio).rounded()))
        return shape == .portrait ? (shortSide, longSide) : (longSide, shortSide)
    }

    private static let adjectives = [
        "Quiet", "Amber", "Distant", "Silver", "Hidden", "Crimson", "Frozen", "Golden", "Drifting", "Hollow",
        "Velvet", "Restless", "Pale", "Electric", "Sunken", "Northern", "Gentle", "Burning", "Misty", "Lonely",
    ]
    private static let nouns = [
        "Harbour", "Forest", "Tide", "Lantern", "Canyon", "Orchard", "Glacier", "Meadow", "Lighthouse", "River",
        "Citadel", "Garden", "Comet", "Island", "Valley", "Station", "Reef", "Bridge", "Dune", "Cathedral",
    ]
    private static let times = ["Dawn", "Dusk", "Midnight", "Noon", "First Light", "Low Tide"]

    private static func makeTitle(_ random: inout SeededRandom) -> String {
        let adjective = random.pick(adjectives)
        let noun = random.pick(nouns)
        let time = random.pick(times)
        let otherNoun = random.pick(nouns.filter { $0 != noun })
        switch random.int(in: 0...3) {
        case 0: return "\(adjective) \(noun)"
        case 1: return "\(noun) at \(time)"
        case 2: return "The \(adjective) \(noun)"
        default: return "\(adjective) \(noun) & \(otherNoun)"
        }
    }

    private static let categories: [(label: String, path: String)] = [
        ("Landscapes", "digitalart/paintings/landscapes"), ("Abstract", "digitalart/abstract"),
        ("Nature Photography", "photography/nature"), ("Fractal Art", "digitalart/fractals"),
        ("Pixel Art", "digitalart/pixelart"), ("Traditional Painting", "traditional/paintings"),
    ]

    /// Lower-case ASCII letters and digits joined by single dashes, at most 40 characters; "untitled" if empty.
    static func makeSlug(_ title: String) -> String {
        var slug = ""
        for scalar in title.lowercased().unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                slug.unicodeScalars.append(scalar)
            } else if !slug.isEmpty, !slug.hasSuffix("-") {
                slug += "-"
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        if slug.count > 40 {
            slug = String(slug.prefix(40))
            while slug.hasSuffix("-") { slug.removeLast() }
        }
        return slug.isEmpty ? "untitled" : slug
    }

    static func zeroPadded(_ value: Int, digits: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

public enum DemoCatalogError: Error, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason):
            tr("Cannot read the demo catalog {file}: {reason}", ["file": path, "reason": reason])
        case .invalid(let reason): tr("Invalid demo catalog: {reason}", ["reason": reason])
        }
    }
}

// MARK: - users.json

struct SideRange: Codable {
    let min: Int
    let max: Int
}

struct SpecialSpec: Codable {
    let index: Int
    let title: String?
    let longSide: Int?
    let shape: DemoShape?
    let format: DemoImageFormat?
    /// More than 1: an animation of that many frames (GIF or WebP).
    let frames: Int?
    let rating: DemoRating?
    let fault: DemoFault?
}

struct UserSpec: Codable {
    let name: String
    let count: Int
    let seed: UInt64
    let longSide: SideRange?
    let pngShare: Double?
    /// "truncated" serves malformed XML.
    let feed: String?
    let special: [SpecialSpec]?
}

struct CatalogSpec: Codable {
    let defaultUser: String
    let users: [UserSpec]

    func validate() throws {
        var names = Set<String>()
        for user in users {
            let allowed = user.name.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
            guard allowed, !user.name.isEmpty else {
                throw DemoCatalogError.invalid("user name \"\(user.name)\" must be lower-case letters, digits and dashes")
            }
            guard names.insert(user.name).inserted else { throw DemoCatalogError.invalid("user \(user.name) appears twice") }
            guard (0...999).contains(user.count) else { throw DemoCatalogError.invalid("\(user.name): count must be 0...999") }
            if let range = user.longSide, !(16 <= range.min && range.min <= range.max && range.max <= 8000) {
                throw DemoCatalogError.invalid("\(user.name): longSide must satisfy 16 <= min <= max <= 8000")
            }
            if let feed = user.feed, feed != "truncated" {
                throw DemoCatalogError.invalid("\(user.name): unknown feed style \"\(feed)\"")
            }
            for special in user.special ?? [] {
                guard (1...max(1, user.count)).contains(special.index), user.count > 0 else {
                    throw DemoCatalogError.invalid("\(user.name): special item \(special.index) is outside 1...\(user.count)")
                }
                if let side = special.longSide, !(16...8000).contains(side) {
                    throw DemoCatalogError.invalid("\(user.name): special item \(special.index) longSide outside 16...8000")
                }
                if let frames = special.frames, !(1...120).contains(frames) || (frames > 1 && ![.gif, .webp].contains(special.format)) {
                    throw DemoCatalogError.invalid("\(user.name): special item \(special.index) has 1...120 frames, more than 1 only as gif or webp")
                }
            }
        }
        guard names.contains(defaultUser) else { throw DemoCatalogError.invalid("defaultUser \(defaultUser) is not a user") }
    }
}

extension DemoCatalog {
    /// A stable digest of everything that decides the image files (names, sizes, formats, picture seeds).
    /// gallery-demo-images records it next to the images; the server refuses images made for another catalog.
    public var fingerprint: String {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for item in allItems {
            for byte in "\(item.fileName)|\(item.width)|\(item.height)|\(item.format.rawValue)|\(item.frames)|\(item.artSeed)\n".utf8 {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
