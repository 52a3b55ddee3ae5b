/// Change handlers held by weak owners: a row that goes away stops being told about changes without having
/// to unsubscribe, so no update can reach a destroyed row.
@MainActor
public struct Observers<Subject: AnyObject> {
    private struct Entry {
        weak var owner: AnyObject?
        let handler: @MainActor (Subject) -> Void
    }

    private var entries: [Entry] = []

    public init() {}

    public mutating func add(owner: AnyObject, _ handler: @escaping @MainActor (Subject) -> Void) {
        entries.removeAll { $0.owner == nil }
        entries.append(Entry(owner: owner, handler: handler))
    }

    public func notify(_ subject: Subject) {
        for entry in entries where entry.owner != nil { entry.handler(subject) }
    }
}
