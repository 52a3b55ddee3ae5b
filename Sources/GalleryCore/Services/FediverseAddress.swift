import GObjectBindings

/// "user@server" addresses of the fediverse (Mastodon, Misskey and their kin), checked the same way for every
/// service that takes them, with messages that name the service and an example address of it.
enum FediverseAddress {
    /// "user@server" or "@user@server" → (user, server), the server lower-cased, with ":port" when one other
    /// than 443 was typed. `example` is an address of the service ("alice@mastodon.social").
    static func split(_ text: String, service: String, example: String) throws(GalleryError) -> (user: String, server: String) {
        var account = Substring(text.trimmed)
        if account.hasPrefix("@") { account = account.dropFirst() }
        let parts = account.split(separator: "@", omittingEmptySubsequences: false)
        let values = ["service": service, "example": example]
        guard parts.count >= 2 else {
            throw .invalidUsername(reason: account.isEmpty
                // TRANSLATORS: {service} is Mastodon or Misskey; {example} an address such as alice@mastodon.social.
                ? tr("Type a {service} address, like {example}.", values)
                : tr("{service} needs the server too. Type the full address, like {example}.", values))
        }
        guard parts.count == 2 else {
            throw .invalidUsername(
                reason: tr("A {service} address has one “@” between the name and the server, like {example}.", values))
        }
        return (try validUser(String(parts[0]), values), try validServer(String(parts[1]), values))
    }

    /// Letters, digits and "_"; remote accounts may also have "." and "-" inside (not first or last), as
    /// Mastodon's own account pattern allows (Misskey's local names are `\w{1,20}`).
    private static func validUser(_ user: String, _ values: [String: String]) throws(GalleryError) -> String {
        let scalars = Array(user.unicodeScalars)
        func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_")
        }
        guard let first = scalars.first, let last = scalars.last, scalars.count <= 64,
              isWordCharacter(first), isWordCharacter(last),
              scalars.allSatisfy({ isWordCharacter($0) || $0 == "." || $0 == "-" })
        else {
            throw .invalidUsername(reason: user.isEmpty
                ? tr("The name before “@” is missing. Type the full address, like {example}.", values)
                : tr("{service} names contain only letters, digits and underscores, like {example}.", values))
        }
        return user
    }

    /// A host name (ASCII labels of letters, digits and hyphens) with an optional port. Anything else — a
    /// path, query, fragment, credentials, spaces — could point the request somewhere else, so it is refused
    /// rather than cleaned up.
    private static func validServer(_ text: String, _ values: [String: String]) throws(GalleryError) -> String {
        let server = text.lowercased()
        func invalid() -> GalleryError {
            .invalidUsername(reason: tr("“{server}” is not a server name. Type the full address, like {example}.",
                                        values.merging(["server": String(text.prefix(100))]) { $1 }))
        }
        guard !server.isEmpty else {
            throw .invalidUsername(reason: tr("The server after “@” is missing. Type the full address, like {example}.", values))
        }
        guard server.unicodeScalars.allSatisfy(\.isASCII) else {
            throw .invalidUsername(reason: tr("Type the server name in its ASCII form (xn--…), like {example}.", values))
        }
        let hostAndPort = server.split(separator: ":", omittingEmptySubsequences: false)
        guard hostAndPort.count <= 2 else { throw invalid() }
        let host = hostAndPort[0]
        guard HostName.isValid(host) else { throw invalid() }
        guard hostAndPort.count == 2 else { return String(host) }
        let portText = hostAndPort[1]
        guard (1...5).contains(portText.count), portText.allSatisfy(\.isASCII), portText.allSatisfy(\.isNumber),
              let port = Int(portText), (1...65535).contains(port)
        else { throw invalid() }
        // Links from the server name the host without ":443"; keeping it would make them look foreign.
        return port == 443 ? String(host) : "\(host):\(port)"
    }
}

/// DNS host names as addresses and handles use them: at least two dot-separated labels of lower-case ASCII
/// letters, digits and inner hyphens, at most 253 bytes.
enum HostName {
    static func isValid(_ host: Substring) -> Bool {
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        return host.utf8.count <= 253 && labels.count >= 2 && labels.allSatisfy(isLabel)
    }

    static func isLabel(_ label: Substring) -> Bool {
        (1...63).contains(label.utf8.count) && label.first != "-" && label.last != "-"
            && label.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }
}
