import GObjectBindings

/// Where an account's own files are: its DID document names its Personal Data Server (PDS), which serves the
/// original of a video (`com.atproto.sync.getBlob`) — a file the app's own client can fetch, where the AppView
/// gives only an HLS playlist. Resolved as the AT Protocol specifies (atproto.com/specs/did): a `did:plc` at
/// the PLC directory (`https://plc.directory/DID`), a `did:web` at `https://HOST/.well-known/did.json`; the PDS
/// is the `service` entry whose id ends in `#atproto_pds` and whose type is `AtprotoPersonalDataServer`.
enum BlueskyIdentity {
    static let stage = "identity"
    /// A PDS's address is a host name; a longer one is not an address.
    static let maxEndpointBytes = 2048

    /// The request for `did`'s document, on the PLC directory or the did:web host (each replaced by the
    /// endpoint override, as every request of the source is); nil for a DID the app cannot resolve.
    static func documentURL(of did: String, endpointOverride: String?) -> String? {
        if did.hasPrefix("did:plc:") {
            // As the directory writes it: 24 characters of base32, nothing that could change the path.
            let key = did.utf8.dropFirst("did:plc:".count)
            guard key.count == 24, key.allSatisfy(isBase32) else { return nil }
            return Endpoint(canonical: "https://plc.directory", override: endpointOverride).url("/" + did)
        }
        guard did.hasPrefix("did:web:") else { return nil }
        // "did:web:example.com%3A8443" is https://example.com:8443 (the port's colon is percent-encoded).
        let host = String(did.dropFirst("did:web:".count)).replacing("%3A", with: ":").replacing("%3a", with: ":")
        guard let origin = URLText.origin(of: "https://" + host), origin == "https://" + host.lowercased() else { return nil }
        return Endpoint(canonical: origin, override: endpointOverride).url("/.well-known/did.json")
    }

    /// The PDS's origin from a DID document about `did`; nil when the document is not about it, names no PDS,
    /// or names one the app will not fetch from: anything but a bare `https://host[:port]` (plain http only
    /// when `allowsHTTP`, the gallery's own endpoint being http: a local test server).
    static func personalDataServer(in body: Bytes, did: String, allowsHTTP: Bool) -> String? {
        guard let document = try? JSONDecoding.decode(Document.self, from: body, service: BlueskySource.service, document: "DID"),
              document.id == did else { return nil }
        let entry = document.service?.compactMap(\.value).first {
            $0.id.hasSuffix("#atproto_pds") && $0.type == "AtprotoPersonalDataServer"
        }
        guard var endpoint = entry?.serviceEndpoint, endpoint.utf8.count <= Self.maxEndpointBytes else { return nil }
        if endpoint.hasSuffix("/") { endpoint.removeLast() }
        guard let origin = URLText.origin(of: endpoint), origin == endpoint.lowercased(),
              origin.hasPrefix("https://") || allowsHTTP && origin.hasPrefix("http://") else { return nil }
        return origin
    }

    /// The original of the blob `cid` in `did`'s repository, on its PDS; nil for a CID that is not one
    /// (CIDv1 in base32: lower-case letters and digits 2–7).
    static func blobURL(pds: String, did: String, cid: String) -> String? {
        guard cid.hasPrefix("b"), (8...128).contains(cid.utf8.count), cid.utf8.allSatisfy(isBase32) else { return nil }
        return pds + "/xrpc/com.atproto.sync.getBlob?did=\(URLText.encodeComponent(did))&cid=\(cid)"
    }

    /// A character of the lower-case base32 alphabet (RFC 4648) that PLC identifiers and CIDv1 are written in.
    private static func isBase32(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "2")...UInt8(ascii: "7")).contains(byte)
    }

    /// The parts of a DID document (W3C DID Core) that say where the PDS is.
    struct Document: Decodable {
        let id: String
        let service: CappedList<Lenient<Service>>?

        struct Service: Decodable {
            let id: String
            let type: String
            let serviceEndpoint: String
        }
    }
}
