import FoundationEssentials
import GObjectBindings

/// JSON from a service, decoded the same way for every source: strict at the top, lenient per entry, bounded
/// in how many entries are decoded at all, and explained in a sentence when it does not fit.
enum JSONDecoding {
    /// Decodes `type` from a response body, or explains in a sentence why not.
    static func decode<T: Decodable>(_ type: T.Type, from body: Bytes, service: String, what: String,
                                     webPageHint: String? = nil) throws(GalleryError) -> T {
        let data = body.withUnsafeBytes { Data($0) }
        do {
            return try JSONDecoder().decode(T.self, from: data)
        } catch let error as DecodingError {
            throw .malformedResponse(service: service, detail: explain(error, body: data, what: what, webPageHint: webPageHint))
        } catch {
            throw .malformedResponse(service: service, detail: "The \(what) could not be read.")
        }
    }

    /// A sentence for the window. Never quotes the offending value: it may be huge or hostile.
    static func explain(_ error: DecodingError, body: Data? = nil, what: String, webPageHint: String? = nil) -> String {
        switch error {
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            let start = body?.first { !($0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09) }
            if body?.isEmpty == true || start == nil { return "The server sent an empty response instead of the \(what)." }
            if start == UInt8(ascii: "<") {
                return "The server sent a web page instead of the \(what)." + (webPageHint.map { " " + $0 } ?? "")
            }
            return "The \(what) is not valid JSON (cut off, or nested too deeply)."
        case .dataCorrupted(let context):
            return "The \(what) has an unreadable value at \(path(context.codingPath))."
        case .keyNotFound(let key, let context):
            return "The \(what) lacks “\(key.stringValue)”\(location(context.codingPath))."
        case .valueNotFound(_, let context):
            return "The \(what) has an empty value at \(path(context.codingPath))."
        case .typeMismatch(let expected, let context):
            return "The \(what) has \(context.codingPath.isEmpty ? "the wrong shape" : "a wrong type at \(path(context.codingPath))")"
                + " (expected \(describe(expected)))."
        @unknown default:
            return "The \(what) could not be read."
        }
    }

    private static func location(_ codingPath: [any CodingKey]) -> String {
        codingPath.isEmpty ? "" : " at \(path(codingPath))"
    }

    /// "[3].media_attachments[0].id", or "the top level".
    static func path(_ codingPath: [any CodingKey]) -> String {
        guard !codingPath.isEmpty else { return "the top level" }
        var text = ""
        for key in codingPath {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        // Keys can come from the server (a dictionary's): shown cleaned and short.
        return "“\(DisplayText.clean(text, limit: 80))”"
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "text"
        case is Bool.Type: "true or false"
        case is Int.Type, is Double.Type: "a number"
        case is [Any].Type: "a list"
        default: String(describing: type).contains("Array") ? "a list" : "an object"
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
