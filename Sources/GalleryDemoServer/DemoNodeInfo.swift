/// NodeInfo (nodeinfo.diaspora.software; jhass/nodeinfo's protocol and 2.1 schema) for the demo server, so a
/// `https://SERVER/@NAME` link pointed at it (through the endpoint override) is told apart like a real
/// server's: the discovery document at `/.well-known/nodeinfo` links to `/nodeinfo/2.1`, which names the
/// software whose API the demo server speaks for such links.
enum DemoNodeInfo {
    static let discoveryPath = "/.well-known/nodeinfo"
    static let documentPath = "/nodeinfo/2.1"
    /// The demo server answers profile links in the Misskey API's format.
    static let software = "misskey"

    static func route(_ segments: [String], baseURL: String) -> ServerResponse? {
        switch segments {
        case [".well-known", "nodeinfo"]: discovery(baseURL: baseURL)
        case ["nodeinfo", "2.1"]: document()
        default: nil
        }
    }

    static func discovery(baseURL: String) -> ServerResponse {
        let json = #"{"links":[{"rel":"http://nodeinfo.diaspora.software/ns/schema/2.1","href":"\#(baseURL)\#(documentPath)"}]}"#
        return .text(json, contentType: "application/json")
    }

    /// Every property the 2.1 schema requires, with the demo's own values.
    static func document() -> ServerResponse {
        let json = """
            {"version":"2.1","software":{"name":"\(software)","version":"demo","homepage":"https://github.com/galleryviewer/gallery-viewer"},\
            "protocols":["activitypub"],"services":{"inbound":[],"outbound":[]},"openRegistrations":false,\
            "usage":{"users":{"total":0}},"metadata":{"nodeName":"Gallery Viewer demo server"}}
            """
        return .text(json, contentType: "application/json; profile=\"http://nodeinfo.diaspora.software/ns/schema/2.1#\"")
    }
}
