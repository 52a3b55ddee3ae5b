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

    /// The policy connections are checked against; nil while `useEndpoint` decides (only the endpoint's own
    /// requests are sent meanwhile).
    var decidedAddressPolicy: AddressPolicy? { waitingForPolicy == nil ? addressPolicy : nil }

    /// Runs `send` for `url` once the address policy is decided, or now for the endpoint's own requests.
    func whenPolicyDecided(for url: String, _ send: @escaping @MainActor () -> Void) {
        guard waitingForPolicy != nil, URLText.origin(of: url) != endpointOrigin else { return send() }
        waitingForPolicy?.append(send)
    }
}
