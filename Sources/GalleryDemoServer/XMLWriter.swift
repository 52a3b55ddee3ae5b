/// Builds an indented XML document element by element; names are trusted constants, every text and attribute
/// value is escaped here.
package struct XMLWriter {
    package private(set) var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    private var openElements: [String] = []

    package typealias Attributes = [(name: String, value: String)]

    package init() {}

    package mutating func open(_ name: String, _ attributes: Attributes = []) {
        indent()
        output += "<\(name)\(render(attributes))>\n"
        openElements.append(name)
    }

    package mutating func close() {
        guard let name = openElements.popLast() else { preconditionFailure("close() without open()") }
        indent()
        output += "</\(name)>\n"
    }

    /// `<name attributes>text</name>`, or `<name attributes/>` when `text` is nil.
    package mutating func element(_ name: String, _ attributes: Attributes = [], text: String? = nil) {
        indent()
        if let text {
            output += "<\(name)\(render(attributes))>\(XMLEscaping.text(text))</\(name)>\n"
        } else {
            output += "<\(name)\(render(attributes))/>\n"
        }
    }

    /// Closes whatever is still open and returns the document.
    package mutating func finish() -> String {
        while !openElements.isEmpty { close() }
        return output
    }

    private mutating func indent() {
        output += String(repeating: "  ", count: openElements.count)
    }

    private func render(_ attributes: Attributes) -> String {
        attributes.map { " \($0.name)=\"\(XMLEscaping.attribute($0.value))\"" }.joined()
    }
}
