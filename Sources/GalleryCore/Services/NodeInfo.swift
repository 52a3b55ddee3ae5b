import FoundationEssentials
import GObjectBindings

/// NodeInfo, which fediverse servers use to say what software they run (nodeinfo.diaspora.software; the
/// protocol and schemas in jhass/nodeinfo): `/.well-known/nodeinfo` is a JRD whose `links` name schema
/// documents by `rel` (`http://nodeinfo.diaspora.software/ns/schema/2.1`, …), and that document's
/// `software.name` ("mastodon", "misskey", `^[a-z0-9-]+$` by the 2.x schemas, though Iceshrimp.NET sends
/// "Iceshrimp.NET") is the answer. Parsing only; `ServerSoftwareLookup` does the requests.
public enum NodeInfo {
    static let schemaPrefix = "http://nodeinfo.diaspora.software/ns/schema/"
    /// The schema versions read, best first: every one has `software.name`.
    static let versions = ["2.2", "2.1", "2.0", "1.1", "1.0"]
    /// A software name longer than this is not one.
    static let maxNameLength = 64

    /// What went wrong, as the end of a sentence for the window ("…: no NodeInfo document").
    public enum Failure: Error, Equatable, Sendable {
        case noLink
        case unreadable
        case noName
    }

    /// The href of the best schema document the discovery reply links to, resolved against the reply's URL.
    static func documentLink(in body: Bytes, replyURL: String) -> Result<String, Failure> {
        guard let discovery = try? JSONDecoder().decode(Discovery.self, from: body.withUnsafeBytes { Data($0) }) else {
            return .failure(.unreadable)
        }
        let links = discovery.links.elements.compactMap(\.value)
        for version in versions {
            if let link = links.first(where: { $0.rel?.trimmed == schemaPrefix + version }),
               let href = URLText.webURL(link.href, relativeTo: replyURL) {
                return .success(href)
            }
        }
        return .failure(.noLink)
    }

    /// `software.name`, trimmed and lower-cased.
    static func softwareName(in body: Bytes) -> Result<String, Failure> {
        guard let document = try? JSONDecoder().decode(Document.self, from: body.withUnsafeBytes { Data($0) }) else {
            return .failure(.unreadable)
        }
        guard let name = document.software?.name?.trimmed.lowercased(), !name.isEmpty, name.count <= maxNameLength,
              name.unicodeScalars.allSatisfy({ $0.isASCII && !$0.properties.isWhitespace && $0.value >= 0x20 })
        else { return .failure(.noName) }
        return .success(name)
    }

    private struct Discovery: Decodable {
        struct Link: Decodable {
            let rel: String?
            let href: String?
        }
        let links: CappedList<Lenient<Link>>
    }

    private struct Document: Decodable {
        struct Software: Decodable { let name: String? }
        let software: Software?
    }
}

/// What each server software's name means for the app: the source whose API it answers.
public enum ServerSoftware {
    /// Misskey and its forks: Misskey's API (`/api/users/show`, `/api/users/notes`).
    public static let misskeyFamily: Set = [
        "misskey", "sharkey", "firefish", "iceshrimp", "foundkey", "calckey", "cherrypick", "catodon", "meisskey",
    ]
    /// Mastodon, its forks (Hometown, glitch-soc, Fedibird, kmyblue report their own names) and the servers
    /// that implement its client API for reading (Pleroma, Akkoma, GoToSocial, Iceshrimp.NET).
    public static let mastodonAPI: Set = [
        "mastodon", "hometown", "glitch-soc", "glitchsoc", "fedibird", "kmyblue", "pleroma", "akkoma", "gotosocial",
        "iceshrimp.net",
    ]

    /// The source for a NodeInfo software name; nil for software whose galleries the app cannot read.
    public static func sourceKind(for name: String) -> SourceKind? {
        let name = name.trimmed.lowercased()
        return SourceKind.descriptors.first { $0.serverSoftware.contains(name) }?.kind
    }
}
