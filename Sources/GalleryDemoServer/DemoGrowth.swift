/// Demo galleries that grow: each growth step gives every demo user with items one new upload at the top of
/// their gallery, dated when the step happened, in every format the demo speaks (DeviantArt's RSS, Mastodon,
/// Bluesky, Misskey, Commons). Steps come from `DemoServer.Options.growEverySeconds` (a step every N seconds
/// since the server started) or from `DemoServer.grow()` (tests).
///
/// Grown upload k of a user is made from one of their own items (its picture, size and title), under a file
/// name and id of its own, so the app sees a new item: distinct URLs and an id that sorts newer in every API
/// (Mastodon's and Misskey's ids fall as the demo id rises, so grown ids go below every catalog id).
public enum DemoGrowth {
    /// Uploads a gallery can gain: a server left running for days stays bounded.
    public static let maxSteps = 500
    /// "grown-00042-…": the prefix of a grown upload's file name, followed by the catalog file it reuses.
    private static let filePrefix = "grown-"
    private static let indexDigits = 5

    /// `catalog` with the uploads of the steps taken at `dates` (seconds since 1970, oldest first).
    static func catalog(_ catalog: DemoCatalog, grownAt dates: [Int]) -> DemoCatalog {
        let dates = Array(dates.prefix(maxSteps))
        guard !dates.isEmpty else { return catalog }
        return catalog.replacingUsers(catalog.users.map { grow($0, dates: dates) })
    }

    private static func grow(_ user: DemoUser, dates: [Int]) -> DemoUser {
        let sources = user.items.filter { $0.fault == nil && $0.rating == .nonadult }
        guard !sources.isEmpty, !user.feedIsBroken, let first = user.items.first else { return user }
        // The user's id block (`DemoCatalog`: 100,000,000 + 10,000 × seed digits + index), mirrored below 100,000,000.
        let block = (first.id - first.index - 100_000_000) / 10_000
        let grown = dates.enumerated().reversed().map { offset, date -> DemoItem in
            let step = offset + 1
            let source = sources[(step - 1) % sources.count]
            return DemoItem(
                user: user.name, index: user.items.count + step, id: 99_999_999 - block * 10_000 - step,
                title: "New: \(source.title)", slug: source.slug,
                fileName: filePrefix + DemoCatalog.zeroPadded(step, digits: indexDigits) + "-" + source.fileName,
                width: source.width, height: source.height, format: source.format, frames: source.frames, fault: nil,
                rating: .nonadult, categoryLabel: source.categoryLabel, categoryPath: source.categoryPath,
                published: date, artSeed: source.artSeed)
        }
        return DemoUser(name: user.name, items: grown + user.items, feedIsBroken: user.feedIsBroken, grownCount: grown.count)
    }

    /// The catalog file a grown upload's file name reuses ("grown-00042-aurora-017-….jpg" → "aurora-017-….jpg").
    static func sourceFileName(of fileName: String) -> String? {
        guard fileName.hasPrefix(filePrefix) else { return nil }
        let rest = fileName.dropFirst(filePrefix.count)
        let digits = rest.prefix(indexDigits)
        guard digits.count == indexDigits, digits.allSatisfy(\.isASCII), Int(digits) != nil,
              rest.dropFirst(indexDigits).first == "-" else { return nil }
        return String(rest.dropFirst(indexDigits + 1))
    }
}
