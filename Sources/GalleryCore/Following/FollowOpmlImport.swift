import GObjectBindings

extension FollowOpml {
    /// Reads a subscription list where it is called (`parse` calls it on a worker). GMarkup does the XML: it
    /// fetches nothing and expands no declared entity, so an entity bomb or an external entity fails as an
    /// unknown entity. Outlines are read at any depth (a reader's folders) and only under `<body>`.
    static func read(_ bytes: [UInt8]) throws(FollowOpmlError) -> Import {
        guard bytes.count <= maxBytes else { throw .tooLarge(limit: maxBytes) }
        // GMarkup takes UTF-8 without a byte order mark; some editors write one.
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let reader = OutlineReader()
        do {
            try MarkupParser.parse(Bytes(body), delegate: reader)
        } catch {
            throw reader.failure ?? .invalidXML(detail: error.message)
        }
        guard reader.sawBody else { throw .notOPML }
        return reader.result
    }
}

/// GMarkup's events turned into the galleries of a subscription list, each outline on its own: our `gv:`
/// attributes first, else its `xmlUrl`, else its `htmlUrl`.
private final class OutlineReader: MarkupParserDelegate {
    var result = FollowOpml.Import()
    var failure: FollowOpmlError?
    var sawBody = false

    /// The open elements' names, outermost first.
    private var path: [String] = []
    /// Prefix → namespace URI declared on each open element.
    private var scopes: [[String: String]] = []
    private var outlines = 0
    /// The galleries and accounts already taken, so a list naming one twice brings it once.
    private var taken: Set<String> = []

    func startElement(_ name: String, attributes: [String: String]) throws {
        guard path.count < FollowOpml.maxDepth else { throw stop(.tooDeep(limit: FollowOpml.maxDepth)) }
        if path.isEmpty && name != "opml" { throw stop(.notOPML) }
        var scope: [String: String] = [:]
        for (key, value) in attributes where key.hasPrefix("xmlns:") { scope[String(key.dropFirst(6))] = value }
        scopes.append(scope)
        path.append(name)
        if path == ["opml", "body"] { sawBody = true }
        guard name == "outline", path.count > 2, path[0] == "opml", path[1] == "body" else { return }
        outlines += 1
        guard outlines <= FollowOpml.maxOutlines else { throw stop(.tooManyOutlines(limit: FollowOpml.maxOutlines)) }
        read(outline: attributes)
    }

    func endElement(_ name: String) throws {
        path.removeLast()
        scopes.removeLast()
    }

    func text(_ text: String) throws {}

    private func stop(_ reason: FollowOpmlError) -> MarkupParser.Stop {
        failure = reason
        return MarkupParser.Stop(reason.sentence)
    }

    private func read(outline attributes: [String: String]) {
        if let entry = ours(attributes) { return add(entry) }
        let links = [attributes["xmlUrl"], attributes["htmlUrl"]].compactMap { $0 }.filter { !$0.trimmed.isEmpty }
        // A folder: only a text and its outlines.
        guard !links.isEmpty else { return }
        for link in links {
            switch FollowOpmlLinks.recognise(link) {
            case .gallery(let kind, let username):
                if let key = Self.key(kind, username) { return add(FollowOpml.Entry(key: key, displayName: key.username)) }
            case .fediverse(let name, let server):
                let account = FollowOpml.FediverseAccount(name: name, server: server)
                if taken.insert("@\(name)@\(server)".lowercased()).inserted { result.fediverseAccounts.append(account) }
                return
            case nil:
                continue
            }
        }
        result.notRecognised += 1
    }

    /// The gallery our own `gv:source` and `gv:username` name, with the outline's text as its name.
    private func ours(_ attributes: [String: String]) -> FollowOpml.Entry? {
        var source: String?
        var username: String?
        for (qualified, value) in attributes {
            guard let colon = qualified.firstIndex(of: ":"), namespace(of: qualified[..<colon]) == FollowOpml.namespace
            else { continue }
            switch qualified[qualified.index(after: colon)...] {
            case "source": source = value
            case "username": username = value
            default: break
            }
        }
        guard let kind = source.flatMap(SourceKind.init(rawValue:)), let username,
              let key = Self.key(kind, username) else { return nil }
        let name = DisplayText.clean(attributes["text"] ?? "", limit: FollowLimits.maxDisplayNameLength)
        return FollowOpml.Entry(key: key, displayName: name.isEmpty ? key.username : name)
    }

    private func namespace(of prefix: Substring) -> String? {
        for scope in scopes.reversed() {
            if let uri = scope[String(prefix)] { return uri }
        }
        return nil
    }

    private func add(_ entry: FollowOpml.Entry) {
        if taken.insert(entry.key.source.rawValue + "\n" + entry.key.identity).inserted { result.galleries.append(entry) }
    }

    /// The key as the source spells the username ("user:müller_x" becomes "Müller x"), or nil for one it
    /// refuses. Only the source's rules run; nothing is sent (the demo source is given an address it never uses).
    private static func key(_ kind: SourceKind, _ username: String) -> FollowedGallery.Key? {
        guard username.utf8.count <= FollowLimits.maxUsernameLength * 4,
              let made = try? kind.makeSource(username: username, endpointOverride: kind == .demo ? "http://127.0.0.1" : nil),
              made.username.count <= FollowLimits.maxUsernameLength
        else { return nil }
        return FollowedGallery.Key(source: made.kind, username: made.username)
    }
}
