import Foundation
import GObjectBindings

extension HTTPClient {
    /// The longest requests to other origins wait for `useEndpoint`'s name resolution: offline, a resolver
    /// can take many seconds to fail, and answers from the disk cache should not wait for it. Past it, private
    /// addresses are refused until the resolution says the endpoint is private.
    public nonisolated static let endpointDecisionMilliseconds: UInt32 = 3000

    /// The gallery at `origin` is the one being read: if its endpoint is on a private address (the demo
    /// server, a server the user runs), every address stays allowed; otherwise requests to private addresses
    /// are refused from now on (see `AddressPolicy`). Until that is decided (a name is resolved for it, once),
    /// requests to other origins wait (at most `endpointDecisionMilliseconds`); the endpoint's own go at once.
    public func useEndpoint(_ origin: String) {
        policyDecisions += 1
        let decision = policyDecisions
        endpointOrigin = URLText.origin(of: origin)
        if waitingForPolicy == nil { waitingForPolicy = [] }
        let treatedAsPublic = addressesTreatedAsPublic
        if let isPrivate = AddressPolicy.literalEndpointIsPrivate(origin, treatedAsPublic: treatedAsPublic) {
            return decide(AddressPolicy(allowsPrivateAddresses: isPrivate, treatedAsPublic: treatedAsPublic))
        }
        let deadline = MainLoopSource.after(milliseconds: Self.endpointDecisionMilliseconds) { [weak self] in
            guard let self, decision == self.policyDecisions, self.waitingForPolicy != nil else { return }
            self.decide(AddressPolicy(allowsPrivateAddresses: false, treatedAsPublic: treatedAsPublic))
        }
        AddressPolicy.endpointIsPrivate(origin, treatedAsPublic: treatedAsPublic) { [weak self] isPrivate in
            deadline.cancel()
            guard let self, decision == self.policyDecisions else { return }
            self.decide(AddressPolicy(allowsPrivateAddresses: isPrivate, treatedAsPublic: treatedAsPublic))
        }
    }

    private func decide(_ policy: AddressPolicy) {
        let narrows = addressPolicy.allowsPrivateAddresses && !policy.allowsPrivateAddresses
        addressPolicy = policy
        // A kept-alive connection to a private address, made while they were allowed, is never reused.
        if narrows { replaceSession() }
        let waiting = waitingForPolicy ?? []
        waitingForPolicy = nil
        for send in waiting { send() }
    }

    /// The policy decided for the endpoint; nil while `useEndpoint` decides.
    var decidedAddressPolicy: AddressPolicy? { waitingForPolicy == nil ? addressPolicy : nil }

    /// The policy a connection to `host` is checked against: none behind a proxy (whose address is all a
    /// connection shows). While `useEndpoint` decides, the endpoint's own host is not judged (its requests go
    /// at once) and any other host — a redirect's — is judged strictly: private addresses refused.
    func addressPolicy(forConnectionTo host: String) -> AddressPolicy? {
        guard usesProxy != true else { return nil }
        guard waitingForPolicy != nil else { return addressPolicy }
        let endpointHost = endpointOrigin.flatMap { URLComponents(string: $0)?.host }
        if let endpointHost, Self.sameHost(endpointHost, host) { return nil }
        return AddressPolicy(allowsPrivateAddresses: false, treatedAsPublic: addressesTreatedAsPublic)
    }

    /// libsoup keeps an IPv6 literal's host without brackets; URLComponents with them.
    private static func sameHost(_ first: String, _ second: String) -> Bool {
        let bare = { (host: String) in host.trimmingCharacters(in: CharacterSet(charactersIn: "[]")).lowercased() }
        return bare(first) == bare(second)
    }

    /// Whether a request for `url` may be answered from the disk cache, where no connection (so no address
    /// check) is made: not when the policy refuses private addresses and the URL's host is one (a literal) or
    /// was reached on one (a response stored while a private gallery was open).
    func servesFromCache(_ url: String) -> Bool {
        guard usesProxy != true, let policy = decidedAddressPolicy, !policy.allowsPrivateAddresses,
              let origin = URLText.origin(of: url), let host = URLComponents(string: origin)?.host?.lowercased() else { return true }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        if AddressPolicy.literalEndpointIsPrivate(origin, treatedAsPublic: addressesTreatedAsPublic) == true { return false }
        return !hostsOnPrivateAddresses.contains(bare) && !hostsOnPrivateAddresses.contains(host)
    }

    /// Runs `send` for `url` once the address policy is decided, or now for the endpoint's own requests.
    func whenPolicyDecided(for url: String, _ send: @escaping @MainActor () -> Void) {
        guard waitingForPolicy != nil, URLText.origin(of: url) != endpointOrigin else { return send() }
        waitingForPolicy?.append(send)
    }
}
