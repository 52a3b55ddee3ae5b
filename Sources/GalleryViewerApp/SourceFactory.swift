import GalleryCore
import GObjectBindings
import GalleryDemoServer

/// Builds the source for each search. The endpoint override (--endpoint, GALLERY_VIEWER_ENDPOINT) belongs to
/// the source named with --source, or, without one, to every source a search uses — also one taken from a link
/// typed in the window (tests and mirrors point the whole app at one server). The Demo source without an
/// override gets the embedded demo server, started the first time it is needed.
@MainActor
final class SourceFactory {
    /// The one source the override is for; nil: every source.
    private var overriddenSource: SourceKind?
    private var endpointOverride: String?
    private var demoServer: DemoServer?

    init(overriddenSource: SourceKind?, endpointOverride: String?) {
        setOverride(source: overriddenSource, endpoint: endpointOverride)
    }

    /// A later launch handed over to the running window brings its own command line: its override (or none)
    /// replaces the previous one for the searches that follow. `source` nil: for every source.
    func setOverride(source: SourceKind?, endpoint: String?) {
        overriddenSource = endpoint == nil ? nil : source
        endpointOverride = endpoint
    }

    /// The override that applies to `kind`, if any.
    func endpoint(for kind: SourceKind) -> String? {
        overriddenSource == nil || overriddenSource == kind ? endpointOverride : nil
    }

    /// Where a `/@NAME` link's server is asked what it runs: the override when it is for every source (it then
    /// stands for every server), else the server itself (nil).
    var serverLookupOrigin: String? { overriddenSource == nil ? endpointOverride : nil }

    func make(_ kind: SourceKind, username: String) throws(GalleryError) -> any GallerySource {
        var endpoint = endpoint(for: kind)
        if kind == .demo && endpoint == nil { endpoint = try demoServerURL() }
        return try kind.makeSource(username: username, endpointOverride: endpoint)
    }

    /// The endpoint a check of a followed `kind` gallery uses: the override, else for the Demo source the
    /// embedded demo server (nil if it cannot start: the gallery's check then fails with that problem).
    func endpointForCheck(_ kind: SourceKind) -> String? {
        if let endpoint = endpoint(for: kind) { return endpoint }
        return kind == .demo ? try? demoServerURL() : nil
    }

    private func demoServerURL() throws(GalleryError) -> String {
        if let demoServer { return demoServer.baseURL }
        do {
            guard let directory = DemoGalleryLocation.defaultDataDirectory() else {
                // TRANSLATORS: make demo-data is a command: keep it as it is.
                throw DemoUnavailable(tr("The demo gallery’s files were not found. Run “make demo-data”."))
            }
            let server = try DemoServer(dataDirectory: directory, options: .init(recordsRequests: false))
            try server.start()
            demoServer = server
            return server.baseURL
        } catch {
            throw .network(service: SourceKind.demo.displayName,
                           detail: tr("The demo server could not start: {reason}", ["reason": "\(error)"]))
        }
    }

    /// Stops the embedded server, if one was started.
    func shutDown() {
        demoServer?.stop()
        demoServer = nil
    }
}

private struct DemoUnavailable: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
