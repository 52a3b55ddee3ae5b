import GObjectBindings

/// Refuses a message's connection to an address the client's `AddressPolicy` refuses (checked after name
/// resolution, before each new connection: the first request's and every redirect's) and an https request
/// redirected to http (checked before each connection and before each send, a kept-alive connection's too),
/// by cancelling it; `refusal` says why.
/// The message's handlers own the guard; it holds no reference to the message.
@MainActor
final class ConnectionGuard {
    private let cancellable: Cancellable
    private let startedSecure: Bool
    private(set) var refusal: HTTPError.Refusal?

    init(message: Soup.Message, cancellable: Cancellable,
         policy: @escaping @MainActor (_ host: String, _ address: [UInt8]) -> AddressPolicy?) {
        self.cancellable = cancellable
        startedSecure = message.scheme == "https"
        message.onConnecting { [self] address, scheme, host in
            check(scheme: scheme)
            if refusal == nil, policy(host, address)?.refuses(address) == true {
                refuse(.privateAddress(AddressPolicy.text(address)))
            }
            return refusal != nil
        }
    }

    func check(scheme: String) {
        if startedSecure, scheme != "https" { refuse(.insecureRedirect) }
    }

    private func refuse(_ reason: HTTPError.Refusal) {
        if refusal == nil { refusal = reason }
        cancellable.cancel()
    }
}
