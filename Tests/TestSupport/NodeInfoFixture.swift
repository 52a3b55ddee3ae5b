/// NodeInfo replies as real servers send them, written from jhass/nodeinfo (PROTOCOL.md: the discovery JRD at
/// /.well-known/nodeinfo; schemas/2.x/schema.json: the document's required properties).
public enum NodeInfoFixture {
    /// The schema document, `version` 2.0 or 2.1, naming `software`.
    public static func document(software: String, version: String = "2.1") -> String {
        """
        {"version":"\(version)","software":{"name":"\(software)","version":"4.3.0"},"protocols":["activitypub"],
         "services":{"inbound":[],"outbound":[]},"openRegistrations":true,"usage":{"users":{"total":42}},
         "metadata":{"nodeName":"Example"}}
        """
    }

    /// The discovery document: one link per schema version.
    public static func discovery(_ links: [(version: String, href: String)]) -> String {
        let entries = links.map { #"{"rel":"http://nodeinfo.diaspora.software/ns/schema/\#($0.version)","href":"\#($0.href)"}"# }
        return #"{"links":[\#(entries.joined(separator: ","))]}"#
    }
}
