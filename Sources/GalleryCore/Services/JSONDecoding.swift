import FoundationEssentials
import GObjectBindings

/// JSON from a service, decoded the same way for every source: strict at the top, lenient per entry, bounded
/// in how many entries are decoded at all, and explained in a sentence when it does not fit.
enum JSONDecoding {
    /// Decodes `type` from a response body, or explains in a sentence why not. `document` names what was
    /// expected, as the start of that sentence ("List of posts", translated).
    static func decode<T: Decodable>(_ type: T.Type, from body: Bytes, service: String, document: String,
                                     webPageHint: String? = nil) throws(GalleryError) -> T {
        let data = body.withUnsafeBytes { Data($0) }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw .malformedResponse(service: service, detail: explain(error, body: data, document: document,
                                                                       webPageHint: webPageHint))
        } catch {
            throw .malformedResponse(service: service, detail: tr("{document}: could not be read.", ["document": document]))
        }
    }

    /// Decodes `type` from JSON text the app wrote itself (a request body it reads back); nil when it does not fit.
    static func decodeQuietly<T: Decodable>(_ type: T.Type, from text: String) -> T? {
        try? JSONDecoder().decode(T.self, from: Data(text.utf8))
    }

    /// A sentence for the window, "{document}: what is wrong.". Never quotes the offending value: it may be
    /// huge or hostile.
    static func explain(_ error: DecodingError, body: Data? = nil, document: String, webPageHint: String? = nil) -> String {
        let named = { (values: [String: any CustomStringConvertible]) in values.merging(["document": document]) { $1 } }
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let start = body?.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
            if body?.isEmpty == true || start == nil {
                // TRANSLATORS: {document} names what the app asked for: "Account", "List of posts", "API reply".
                return tr("{document}: the server sent an empty response.", named([:]))
            }
            if start == UInt8(ascii: "<") {
                guard let webPageHint else { return tr("{document}: the server sent a web page.", named([:])) }
                // TRANSLATORS: {hint} is a question such as "Is this a Mastodon server?".
                return tr("{document}: the server sent a web page. {hint}", named(["hint": webPageHint]))
            }
            return tr("{document}: not valid JSON (cut off, or nested too deeply).", named([:]))
        case .dataCorrupted(let context):
            // TRANSLATORS: {path} is where in the reply, such as “[3].media_attachments[0].id” or "the top level".
            return tr("{document}: unreadable value at {path}.", named(["path": path(context.codingPath)]))
        case .keyNotFound(let key, let context) where context.codingPath.isEmpty:
            // TRANSLATORS: {key} is the name of a field of the reply, such as “id”.
            return tr("{document}: “{key}” is missing.", named(["key": key.stringValue]))
        case .keyNotFound(let key, let context):
            return tr("{document}: “{key}” is missing at {path}.",
                      named(["key": key.stringValue, "path": path(context.codingPath)]))
        case .valueNotFound(_, let context):
            return tr("{document}: empty value at {path}.", named(["path": path(context.codingPath)]))
        case .typeMismatch(let expected, let context) where context.codingPath.isEmpty:
            // TRANSLATORS: {expected} is "text", "true or false", "a number", "a list" or "an object".
            return tr("{document}: wrong shape (expected {expected}).", named(["expected": describe(expected)]))
        case .typeMismatch(let expected, let context):
            return tr("{document}: wrong type at {path} (expected {expected}).",
                      named(["path": path(context.codingPath), "expected": describe(expected)]))
        @unknown default:
            return tr("{document}: could not be read.", named([:]))
        }
    }

    /// "“[3].media_attachments[0].id”", or "the top level".
    static func path(_ codingPath: [any CodingKey]) -> String {
        // TRANSLATORS: where in a reply something is wrong, when it is the reply as a whole.
        guard !codingPath.isEmpty else { return tr("the top level") }
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        // Keys can come from the server (a dictionary's): shown cleaned and short.
        return "“\(DisplayText.clean(text, limit: 80))”"
    }

    /// What a JSON value should have been.
    private static func describe(_ type: Any.Type) -> String {
        switch type {
        // TRANSLATORS: what a value of a reply should have been, as in "expected text".
        case is String.Type: tr("text")
        case is Bool.Type: tr("true or false")
        case is Int.Type, is Double.Type: tr("a number")
        case is [Any].Type: tr("a list")
        default: String(describing: type).contains("Array") ? tr("a list") : tr("an object")
        }
    }
}

/// Decodes a `T` or keeps the reason it could not, without failing the surrounding array: one entry a server
/// garbled must not sink the others.
struct Lenient<T: Decodable>: Decodable {
    let result: Result<T, DecodingError>

    var value: T? { try? result.get() }

    init(from decoder: any Decoder) {
        do {
            result = .success(try T(from: decoder))
        } catch let error as DecodingError {
            result = .failure(error)
        } catch {
            result = .failure(.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\(error)")))
        }
    }
}

/// A JSON array of which only the first `limit` elements are decoded; the rest are counted, not read. A real
/// page has tens of entries; a hostile one can have millions, and decoding each (an error string apiece for
/// broken ones) is what would take seconds and gigabytes.
struct CappedList<Element: Decodable>: Decodable, Sequence {
    /// More than any service sends in one reply (Mastodon: 40 posts of 4 attachments; Commons: 50 pages).
    static var limit: Int { 500 }

    private(set) var elements: [Element] = []
    /// Elements in the JSON array, decoded or not.
    private(set) var totalCount = 0

    init() {}

    init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        totalCount = container.count ?? 0
        while !container.isAtEnd && elements.count < Self.limit {
            elements.append(try container.decode(Element.self))
        }
        totalCount = Swift.max(totalCount, elements.count)
    }

    var count: Int { elements.count }
    var isEmpty: Bool { elements.isEmpty }
    /// Elements left undecoded beyond the limit.
    var leftOut: Int { totalCount - elements.count }
    func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }
}
