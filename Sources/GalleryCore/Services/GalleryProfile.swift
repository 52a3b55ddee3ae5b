import FoundationEssentials

/// What a service tells anyone about a gallery's owner: the name they chose and their avatar, for the list of
/// followed galleries. Both optional: Commons has neither, and a user may have set neither.
public struct GalleryProfile: Sendable, Equatable {
    /// Cleaned like every text a server sends, at most `FollowLimits.maxDisplayNameLength` characters; nil
    /// when the user set none.
    public var displayName: String?
    /// An absolute https URL (http only when the source's own endpoint is http: a local test server).
    public var avatarURL: String?

    public init(displayName: String?, avatarURL: String?) {
        self.displayName = displayName
        self.avatarURL = avatarURL
    }

    /// Longer than any avatar address a service makes; a longer one is left out.
    static let maxAvatarURLBytes = 2048

    /// The profile from what a reply said, or nil when it said nothing usable. `endpoint`: the source's, whose
    /// scheme decides whether an http avatar is taken.
    static func fromReply(displayName: String?, avatar: String?, endpoint: Endpoint) -> GalleryProfile? {
        let name = displayName.map { DisplayText.clean($0, limit: FollowLimits.maxDisplayNameLength) }
        let profile = GalleryProfile(displayName: name?.isEmpty == false ? name : nil,
                                     avatarURL: avatar.flatMap { avatarURL($0, allowsHTTP: endpoint.origin.hasPrefix("http://")) })
        return profile.displayName == nil && profile.avatarURL == nil ? nil : profile
    }

    private static func avatarURL(_ text: String, allowsHTTP: Bool) -> String? {
        let url = text.trimmed
        guard url.utf8.count <= maxAvatarURLBytes, let origin = URLText.origin(of: url),
              origin.hasPrefix("https://") || (allowsHTTP && origin.hasPrefix("http://")),
              let components = URLComponents(string: url), components.user == nil, components.password == nil,
              DisplayText.isClean(url)
        else { return nil }
        return url
    }
}
