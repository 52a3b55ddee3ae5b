import GObjectBindings

/// The `/@NAME` accounts of an imported list (`FollowOpml.Import.fediverseAccounts`) as Mastodon or Misskey
/// galleries: each server is asked once what it runs (`ServerSoftwareLookup`), one at a time, at most
/// `FollowOpml.maxServersToAsk` of them; accounts whose server did not say, or past that cap, are left out
/// and counted. The lookups go through a client of their own: a lookup sets its client's endpoint (and so its
/// address policy), which must not be the window's.
@MainActor
public final class FollowOpmlAccounts {
    public struct Outcome: Sendable {
        public var entries: [FollowOpml.Entry] = []
        public var leftOut = 0
        /// Why servers did not say, one per server.
        public var problems: [GalleryError] = []
    }

    private let lookup: ServerSoftwareLookup
    private let origin: String?
    private var request: Cancellable?
    private var accounts: ArraySlice<FollowOpml.FediverseAccount> = []
    private var kinds: [String: SourceKind?] = [:]
    private var outcome = Outcome()
    private var completion: (@MainActor (Outcome) -> Void)?

    /// `origin` answers for every server (an endpoint override), or nil to ask each server itself.
    public init(client: HTTPClient, askingAt origin: String?) {
        lookup = ServerSoftwareLookup(client: client)
        self.origin = origin
    }

    /// `completion` runs once on the main loop, never before this returns; not after `cancel()`.
    public func resolve(_ accounts: [FollowOpml.FediverseAccount], completion: @escaping @MainActor (Outcome) -> Void) {
        self.accounts = accounts[...]
        self.completion = completion
        MainLoopSource.idle { [weak self] in self?.next() }
    }

    public func cancel() {
        completion = nil
        request?.cancel()
        request = nil
    }

    private func next() {
        guard completion != nil else { return }
        while let account = accounts.first {
            if let known = kinds[account.server] {
                accounts.removeFirst()
                add(account, as: known)
                continue
            }
            guard kinds.count < FollowOpml.maxServersToAsk else {
                accounts.removeFirst()
                outcome.leftOut += 1
                continue
            }
            request = lookup.sourceKind(forServer: account.server, askingAt: origin) { [weak self] result in
                guard let self else { return }
                request = nil
                switch result {
                case .success(let kind): kinds[account.server] = .some(kind)
                case .failure(let error):
                    kinds[account.server] = .some(nil)
                    outcome.problems.append(error)
                }
                next()
            }
            return
        }
        let completion = self.completion
        self.completion = nil
        completion?(outcome)
    }

    private func add(_ account: FollowOpml.FediverseAccount, as kind: SourceKind?) {
        let address = ProfileLink.address(account.name, account.server)
        guard let kind, let made = try? kind.makeSource(username: address, endpointOverride: kind == .demo ? "http://127.0.0.1" : nil) else {
            outcome.leftOut += 1
            return
        }
        outcome.entries.append(FollowOpml.Entry(key: .init(source: made.kind, username: made.username), displayName: made.username))
    }
}
