import GObjectBindings

/// How the app describes itself to a person: the About window's line, made from the one list of sources so
/// that a new service is named there without anyone remembering to. The desktop entry and the metainfo are
/// files, not code; `ServiceNamesInTextsTests` checks that they name every service of `services` too.
public enum AppDescription {
    /// The online services, in the source picker's order: every source but the built-in offline demo.
    public static var services: [SourceKind] { SourceKind.allCases.filter { $0 != .demo } }

    /// "DeviantArt, Mastodon, Wikimedia Commons, Bluesky and Misskey", in the user's language.
    public static var serviceList: String { list(services.map(\.displayName)) }

    /// The About window's description of the app.
    public static var aboutComments: String {
        // TRANSLATORS: the About window's description; {services} is a list of service names such as
        // "DeviantArt, Mastodon and Bluesky".
        tr("Browse the public image galleries of {services} users, or the built-in offline demo.",
           ["services": serviceList])
    }

    /// `names` as a sentence lists them: "A", "A and B", "A, B and C".
    static func list(_ names: [String]) -> String {
        guard var result = names.first else { return "" }
        for (index, name) in names.enumerated().dropFirst() {
            if index == names.count - 1 {
                // TRANSLATORS: joins the last name to a list of names: "DeviantArt, Mastodon and Misskey".
                result = tr("{list} and {last}", ["list": result, "last": name])
            } else {
                // TRANSLATORS: joins a name to a list of names: "DeviantArt, Mastodon".
                result = tr("{list}, {next}", ["list": result, "next": name])
            }
        }
        return result
    }
}
