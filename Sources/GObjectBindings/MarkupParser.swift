import CGLib

/// Receives GMarkup's events. Runs synchronously on the thread that called `MarkupParser.parse`.
public protocol MarkupParserDelegate: AnyObject {
    func startElement(_ name: String, attributes: [String: String]) throws
    func endElement(_ name: String) throws
    func text(_ text: String) throws
}

/// GLib's GMarkup: a small, strict, non-validating XML parser.
///
/// It fits feeds from the network because it never fetches or expands anything: a DOCTYPE is passed over
/// without being interpreted, so a document that uses an entity it declared (the "billion laughs" attack)
/// fails with "unknown entity" instead of expanding. Only the five predefined entities and character
/// references are decoded. It is not namespace-aware: names arrive with their prefix ("media:content").
public enum MarkupParser {
    /// Thrown from a delegate to stop parsing with a message of its own.
    public struct Stop: Error {
        public let message: String
        public init(_ message: String) { self.message = message }
    }

    /// Parses `bytes`, or only their first `limit` bytes: a document cut there ends with an error, after the
    /// delegate saw all that came before the cut.
    public static func parse(_ bytes: Bytes, upTo limit: Int = .max, delegate: MarkupParserDelegate) throws(GLibError) {
        let context = Context(delegate)
        var parser = GMarkupParser(
            start_element: startElement, end_element: endElement, text: text, passthrough: nil, error: nil)
        let markup = g_markup_parse_context_new(
            &parser, G_MARKUP_TREAT_CDATA_AS_TEXT, Unmanaged.passUnretained(context).toOpaque(), nil)
        defer {
            g_markup_parse_context_free(markup)
            withExtendedLifetime(context) {}
        }
        var failure: UnsafeMutablePointer<GError>?
        bytes.withUnsafeBytes { buffer in
            // An empty body has no base address, and GMarkup rejects a NULL text; end_parse alone reports
            // the empty document.
            if let base = buffer.baseAddress?.assumingMemoryBound(to: gchar.self),
               g_markup_parse_context_parse(markup, base, gssize(min(buffer.count, max(0, limit))), &failure) == 0 {
                return
            }
            g_markup_parse_context_end_parse(markup, &failure)
        }
        if let failure { throw GLibError(consuming: failure) }
    }

    private final class Context {
        let delegate: MarkupParserDelegate
        init(_ delegate: MarkupParserDelegate) { self.delegate = delegate }

        static func from(_ data: gpointer?) -> Context {
            Unmanaged<Context>.fromOpaque(data!).takeUnretainedValue()
        }

        /// Runs a delegate call and turns a Swift throw into a GError, which makes GMarkup stop.
        func forward(_ error: UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?, _ body: () throws -> Void) {
            do {
                try body()
            } catch let failure {
                let message = (failure as? Stop)?.message ?? "\(failure)"
                g_set_error_literal(error, g_markup_error_quark(),
                                    Int32(G_MARKUP_ERROR_INVALID_CONTENT.rawValue), message)
            }
        }
    }

    private static let startElement: @convention(c) (
        OpaquePointer?, UnsafePointer<gchar>?, UnsafeMutablePointer<UnsafePointer<gchar>?>?,
        UnsafeMutablePointer<UnsafePointer<gchar>?>?, gpointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?
    ) -> Void = { _, name, names, values, data, error in
        var attributes: [String: String] = [:]
        var index = 0
        while let key = names?[index], let value = values?[index] {
            attributes[String(cString: key)] = String(cString: value)
            index += 1
        }
        let context = Context.from(data)
        context.forward(error) { try context.delegate.startElement(String(cString: name!), attributes: attributes) }
    }

    private static let endElement: @convention(c) (
        OpaquePointer?, UnsafePointer<gchar>?, gpointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?
    ) -> Void = { _, name, data, error in
        let context = Context.from(data)
        context.forward(error) { try context.delegate.endElement(String(cString: name!)) }
    }

    private static let text: @convention(c) (
        OpaquePointer?, UnsafePointer<gchar>?, gsize, gpointer?, UnsafeMutablePointer<UnsafeMutablePointer<GError>?>?
    ) -> Void = { _, text, length, data, error in
        let buffer = UnsafeRawBufferPointer(start: text, count: Int(length))
        let string = String(decoding: buffer, as: UTF8.self)
        let context = Context.from(data)
        context.forward(error) { try context.delegate.text(string) }
    }
}
