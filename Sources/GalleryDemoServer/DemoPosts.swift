/// A demo user's items as the posts of a social service (the Bluesky and Misskey formats): one to four
/// pictures per post (adult ones alone), every seventh post a video, the same grouping in both formats.
public struct DemoPost: Sendable {
    /// 1-based, newest first; grown posts (`DemoGrowth`) are numbered above `DemoPosts.grownPostIndexBase`.
    public let index: Int
    public let items: [DemoItem]
    /// A video post: its one item's picture is the video's still.
    public let isVideo: Bool

    public var published: Int { items[0].published }
    /// The titles, one after the other: the post's text. An untitled single item has no text.
    public var text: String { items.map(\.title).filter { !$0.isEmpty }.joined(separator: " · ") }
    public var isAdult: Bool { items.contains { $0.rating == .adult } }
    /// Unique across demo users and posts.
    public var id: Int { items[0].id }
}

public enum DemoPosts {
    /// Grown posts are numbered from here up: past any catalog post (at most 999), never 0 or negative.
    static let grownPostIndexBase = 1_000
    /// Pictures per post, in turn.
    static let sizes = [1, 2, 1, 3, 1, 4]

    public static func posts(of user: DemoUser) -> [DemoPost] {
        // Grown uploads are one picture a post, above the catalog's posts, which keep their grouping and ids.
        let grown = user.items.prefix(user.grownCount).enumerated().map { offset, item in
            DemoPost(index: grownPostIndexBase + user.grownCount - offset, items: [item], isVideo: false)
        }
        var posts: [DemoPost] = []
        var rest = user.items.dropFirst(user.grownCount)
        while !rest.isEmpty {
            let index = posts.count + 1
            let size = sizes[(index - 1) % sizes.count]
            // A label or a warning is the whole post's: adult pictures are never posted with others.
            let items = Array(rest.prefix(size).prefix { $0.rating == rest.first!.rating })
            rest = rest.dropFirst(items.count)
            posts.append(DemoPost(index: index, items: items, isVideo: index % 7 == 0 && items.count == 1))
        }
        return grown + posts
    }

    /// "Aurora" for aurora.
    static func displayName(_ user: String) -> String { user.prefix(1).uppercased() + user.dropFirst() }

    /// A name made of `alphabet` from a seed: deterministic ids (DIDs, record keys, content ids) for the demo.
    static func word(_ seed: String, length: Int, alphabet: String = "abcdefghijklmnopqrstuvwxyz234567") -> String {
        let letters = Array(alphabet)
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var word = ""
        var round: UInt64 = 0
        while word.count < length {
            for byte in "\(seed)#\(round)".utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            var bits = hash
            for _ in 0..<8 where word.count < length {
                word.append(letters[Int(bits % UInt64(letters.count))])
                bits /= UInt64(letters.count)
            }
            round += 1
        }
        return word
    }
}
