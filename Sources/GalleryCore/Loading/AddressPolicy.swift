import CGLib
import FoundationEssentials
import GObjectBindings

/// Which addresses the app's requests may connect to. A gallery on the public internet must not make the app
/// reach into the user's own network (a router's page, a printer, a service on localhost): its media, pages and
/// redirects are refused on loopback, private (RFC 1918, carrier-grade NAT), link-local, unique-local,
/// multicast and unspecified addresses — in every IPv6 form that carries one (v4-mapped, NAT64, 6to4). Unless
/// the gallery's own endpoint is itself on such an address (the demo server, a server the user runs): then
/// everything is allowed. `HTTPClient` checks each connection's address after name resolution, before the
/// connection is made, the first request's and every redirect's alike.
public struct AddressPolicy: Sendable, Equatable {
    /// Private addresses may be reached: the gallery's endpoint is on one, or no gallery decided yet.
    public var allowsPrivateAddresses: Bool
    /// Addresses (their bytes) counted as public: tests serve a "public" gallery on 127.0.0.1 and its
    /// "private" neighbour on 127.0.0.2.
    public var treatedAsPublic: Set<[UInt8]>

    public init(allowsPrivateAddresses: Bool, treatedAsPublic: Set<[UInt8]> = []) {
        self.allowsPrivateAddresses = allowsPrivateAddresses
        self.treatedAsPublic = treatedAsPublic
    }

    /// A connection to `address` (4 or 16 bytes) must not be made.
    public func refuses(_ address: [UInt8]) -> Bool {
        !allowsPrivateAddresses && isPrivate(address)
    }

    /// On the user's own network or machine (as `treatedAsPublic` has it).
    public func isPrivate(_ address: [UInt8]) -> Bool {
        !treatedAsPublic.contains(address) && Self.isPrivate(address)
    }

    /// Loopback, private, link-local, unique-local, multicast, reserved or unspecified; anything not 4 or 16
    /// bytes long too.
    public static func isPrivate(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4:
            return isPrivateV4(address[...])
        case 16:
            let bytes = address
            // ::ffff:a.b.c.d (v4-mapped) and ::a.b.c.d (v4-compatible, "::" and "::1" among them).
            if bytes[0..<10].allSatisfy({ $0 == 0 }) && (bytes[10..<12].allSatisfy({ $0 == 0 }) || bytes[10..<12].allSatisfy({ $0 == 0xFF })) {
                return isPrivateV4(bytes[12..<16])
            }
            // 64:ff9b::/96: NAT64 reaches the IPv4 address in the last four bytes.
            if bytes[0..<12] == [0, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0] { return isPrivateV4(bytes[12..<16]) }
            // 2002::/16: 6to4 carries an IPv4 address in bytes 2-5.
            if bytes[0] == 0x20 && bytes[1] == 0x02 { return isPrivateV4(bytes[2..<6]) }
            return bytes[0] & 0xFE == 0xFC                          // fc00::/7 unique-local
                || (bytes[0] == 0xFE && bytes[1] & 0x80 == 0x80)    // fe80::/10 link-local, fec0::/10 site-local
                || bytes[0] == 0xFF                                 // multicast
        default:
            return true
        }
    }

    private static func isPrivateV4(_ address: ArraySlice<UInt8>) -> Bool {
        let a = address[address.startIndex], b = address[address.startIndex + 1]
        return a == 0 || a == 10 || a == 127 || a >= 224          // this network, private, loopback, multicast, reserved
            || (a == 169 && b == 254)                             // link-local
            || (a == 172 && b & 0xF0 == 16)                       // 172.16/12
            || (a == 192 && b == 168)                             // 192.168/16
            || (a == 100 && b & 0xC0 == 64)                       // 100.64/10 carrier-grade NAT
            || (a == 198 && b & 0xFE == 18)                       // 198.18/15 benchmarking
    }

    /// `address` as text ("10.0.0.1", "::1").
    public static func text(_ address: [UInt8]) -> String {
        let family = address.count == 16 ? G_SOCKET_FAMILY_IPV6 : G_SOCKET_FAMILY_IPV4
        guard address.count == 4 || address.count == 16,
              let inet = address.withUnsafeBufferPointer({ g_inet_address_new_from_bytes($0.baseAddress, family) }) else { return "?" }
        defer { g_object_unref(UnsafeMutableRawPointer(inet)) }
        return takeString(g_inet_address_to_string(inet)) ?? "?"
    }

    /// Whether the endpoint at `origin` ("https://host[:port]") is on a private address: a literal address is
    /// classified at once, a name once resolved (private if any of its addresses is). A name that does not
    /// resolve counts as public: its gallery cannot load anyway.
    @MainActor
    public static func endpointIsPrivate(_ origin: String, treatedAsPublic: Set<[UInt8]> = [],
                                         completion: @escaping @MainActor (Bool) -> Void) {
        let policy = AddressPolicy(allowsPrivateAddresses: false, treatedAsPublic: treatedAsPublic)
        guard var host = URLComponents(string: origin)?.host, !host.isEmpty else {
            MainLoopSource.idle { completion(false) }
            return
        }
        if let isPrivate = literalEndpointIsPrivate(origin, treatedAsPublic: treatedAsPublic) {
            MainLoopSource.idle { completion(isPrivate) }
            return
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        let resolver = g_resolver_get_default()
        AsyncCallback { _, result in
            var isPrivate = false
            if let list = g_resolver_lookup_by_name_finish(resolver, result, nil) {
                var node: UnsafeMutablePointer<GList>? = list
                while let current = node {
                    if let inet = current.pointee.data, policy.isPrivate(bytes(of: inet.assumingMemoryBound(to: GInetAddress.self))) { isPrivate = true }
                    node = current.pointee.next
                }
                g_resolver_free_addresses(list)
            }
            g_object_unref(UnsafeMutableRawPointer(resolver))
            completion(isPrivate)
        }.pass { g_resolver_lookup_by_name_async(resolver, host, nil, $0, $1) }
    }

    /// Whether the endpoint at `origin` is on a private address when its host is an IP address; nil for a name.
    /// Whether `origin` is an address literal on a private network (the demo server, a LAN server by its IP):
    /// what can be told without resolving a name.
    public static func isPrivateLiteral(_ origin: String) -> Bool {
        literalEndpointIsPrivate(origin, treatedAsPublic: []) == true
    }

    static func literalEndpointIsPrivate(_ origin: String, treatedAsPublic: Set<[UInt8]>) -> Bool? {
        guard var host = URLComponents(string: origin)?.host else { return nil }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard let literal = g_inet_address_new_from_string(host) else { return nil }
        defer { g_object_unref(UnsafeMutableRawPointer(literal)) }
        return AddressPolicy(allowsPrivateAddresses: false, treatedAsPublic: treatedAsPublic).isPrivate(bytes(of: literal))
    }

    /// Whether GIO's proxy resolver (the desktop's or the environment's proxy settings) sends requests to an
    /// http or https address through a proxy. Then each connection goes to the proxy, which resolves names
    /// itself: its address says nothing about where a request goes, and a proxy on the user's own network must
    /// not be refused. Call once GIO's modules are loaded (`Soup.NetworkSetup`).
    @MainActor
    static func systemUsesProxy(completion: @escaping @MainActor (Bool) -> Void) {
        guard let resolver = g_proxy_resolver_get_default() else {
            MainLoopSource.idle { completion(false) }
            return
        }
        var answers: [Bool] = []
        for sample in ["http://gallery-viewer.invalid/", "https://gallery-viewer.invalid/"] {
            AsyncCallback { _, result in
                var proxied = false
                if let proxies = g_proxy_resolver_lookup_finish(resolver, result, nil) {
                    proxied = proxies[0].map { String(cString: $0) != "direct://" } ?? false
                    g_strfreev(proxies)
                }
                answers.append(proxied)
                if answers.count == 2 { completion(answers.contains(true)) }
            }.pass { g_proxy_resolver_lookup_async(resolver, sample, nil, $0, $1) }
        }
    }

    private static func bytes(of inet: UnsafeMutablePointer<GInetAddress>) -> [UInt8] {
        guard let bytes = g_inet_address_to_bytes(inet) else { return [] }
        return Array(UnsafeBufferPointer(start: bytes, count: Int(g_inet_address_get_native_size(inet))))
    }
}
