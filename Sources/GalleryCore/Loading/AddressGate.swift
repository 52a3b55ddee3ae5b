import FoundationEssentials
import GObjectBindings

/// Which addresses one `HTTPClient`'s connections may reach, decided from the gallery being read: the
/// `AddressPolicy` in force, the requests that wait for its decision, and the hosts met on private addresses
/// (whose stored copies the disk cache must not serve while private addresses are refused).
@MainActor
final class AddressGate {
    /// The longest requests to other origins wait for `useEndpoint`'s name resolution: offline, a resolver
    /// can take many seconds to fail, and answers from the disk cache should not wait for it. Past it, private
    /// addresses are refused until the resolution says the endpoint is private.
    nonisolated static let endpointDecisionMilliseconds: UInt32 = 3000

    /// Everything is allowed until a gallery's endpoint decides (`useEndpoint`).
    private(set) var policy = AddressPolicy(allowsPrivateAddresses: true)
    /// Addresses `useEndpoint` counts as public (their bytes): tests serve a "public" gallery on 127.0.0.1.
    var treatedAsPublic: Set<[UInt8]> = []
    /// Requests go through a proxy (see `AddressPolicy.systemUsesProxy`): addresses are not checked then.
    /// nil until GIO's proxy resolver answered (addresses are checked meanwhile).
    var usesProxy: Bool?
    /// The origin of the gallery whose endpoint decides `policy`.
    private(set) var endpointOrigin: String?
    /// Hosts connected to on a private address: no answer for them comes from the disk cache while the policy
    /// refuses private addresses (`servesFromCache`).
    private var hostsOnPrivateAddresses: Set<String> = []
    /// Requests that wait for `useEndpoint`'s decision; nil when there is none pending.
    private var waiting: [@MainActor () -> Void]?
    private var decisions = 0

    /// The policy now refuses private addresses it allowed until now: a kept-alive connection to one, made
    /// while they were allowed, must never be reused.
    var onNarrowed: (@MainActor () -> Void)?

    init() {
        // Loaded off the main loop, so that the first request does not wait for it (see `HTTPClient.open`).
        Soup.NetworkSetup.whenLoaded { [weak self] in
            AddressPolicy.systemUsesProxy { [weak self] in self?.usesProxy = $0 }
        }
    }

    /// The gallery at `origin` is the one being read: if its endpoint is on a private address (the demo
    /// server, a server the user runs), every address stays allowed; otherwise connections to private
    /// addresses are refused from now on (see `AddressPolicy`). Until that is decided (a name is resolved for
    /// it, once), requests to other origins wait (at most `endpointDecisionMilliseconds`); the endpoint's own
    /// go at once.
    func useEndpoint(_ origin: String) {
        decisions += 1
        let decision = decisions
        endpointOrigin = URLText.origin(of: origin)
        if waiting == nil { waiting = [] }
        let treatedAsPublic = treatedAsPublic
        if let isPrivate = AddressPolicy.literalEndpointIsPrivate(origin, treatedAsPublic: treatedAsPublic) {
            return decide(AddressPolicy(allowsPrivateAddresses: isPrivate, treatedAsPublic: treatedAsPublic))
        }
        let deadline = MainLoopSource.after(milliseconds: Self.endpointDecisionMilliseconds) { [weak self] in
            guard let self, decision == self.decisions, self.waiting != nil else { return }
            self.decide(AddressPolicy(allowsPrivateAddresses: false, treatedAsPublic: treatedAsPublic))
        }
        AddressPolicy.endpointIsPrivate(origin, treatedAsPublic: treatedAsPublic) { [weak self] isPrivate in
            deadline.cancel()
            guard let self, decision == self.decisions else { return }
            self.decide(AddressPolicy(allowsPrivateAddresses: isPrivate, treatedAsPublic: treatedAsPublic))
        }
    }

    private func decide(_ newPolicy: AddressPolicy) {
        let narrows = policy.allowsPrivateAddresses && !newPolicy.allowsPrivateAddresses
        policy = newPolicy
        if narrows { onNarrowed?() }
        let sends = waiting ?? []
        waiting = nil
        for send in sends { send() }
    }

    /// The policy decided for the endpoint; nil while `useEndpoint` decides.
    var decidedPolicy: AddressPolicy? { waiting == nil ? policy : nil }

    /// Runs `send` for `url` once the policy is decided, or now for the endpoint's own requests.
    func whenDecided(for url: String, _ send: @escaping @MainActor () -> Void) {
        guard waiting != nil, URLText.origin(of: url) != endpointOrigin else { return send() }
        waiting?.append(send)
    }

    /// The policy a connection to `host` at `address` is checked against: none behind a proxy (whose address
    /// is all a connection shows). While `useEndpoint` decides, the endpoint's own host is not judged (its
    /// requests go at once) and any other host — a redirect's — is judged strictly: private addresses refused.
    /// A host met on a private address is remembered (see `servesFromCache`).
    func policy(forConnectionTo host: String, at address: [UInt8]) -> AddressPolicy? {
        let applied = policy(forConnectionTo: host)
        if applied?.isPrivate(address) == true { hostsOnPrivateAddresses.insert(host.lowercased()) }
        return applied
    }

    private func policy(forConnectionTo host: String) -> AddressPolicy? {
        guard usesProxy != true else { return nil }
        guard waiting != nil else { return policy }
        let endpointHost = endpointOrigin.flatMap { URLComponents(string: $0)?.host }
        if let endpointHost, Self.bare(endpointHost) == Self.bare(host) { return nil }
        return AddressPolicy(allowsPrivateAddresses: false, treatedAsPublic: treatedAsPublic)
    }

    /// Whether a request for `url` may be answered from the disk cache, where no connection (so no address
    /// check) is made: not when the policy refuses private addresses and the URL's host is one (a literal) or
    /// was reached on one (a response stored while a private gallery was open).
    func servesFromCache(_ url: String) -> Bool {
        guard usesProxy != true, let policy = decidedPolicy, !policy.allowsPrivateAddresses,
              let origin = URLText.origin(of: url), let host = URLComponents(string: origin)?.host?.lowercased() else { return true }
        if AddressPolicy.literalEndpointIsPrivate(origin, treatedAsPublic: treatedAsPublic) == true { return false }
        return !hostsOnPrivateAddresses.contains(Self.bare(host)) && !hostsOnPrivateAddresses.contains(host)
    }

    /// libsoup keeps an IPv6 literal's host without brackets; URLComponents with them.
    private static func bare(_ host: String) -> String {
        let isBracket = { (character: Character) in character == "[" || character == "]" }
        var bare = Substring(host)
        while let first = bare.first, isBracket(first) { bare.removeFirst() }
        while let last = bare.last, isBracket(last) { bare.removeLast() }
        return bare.lowercased()
    }
}
