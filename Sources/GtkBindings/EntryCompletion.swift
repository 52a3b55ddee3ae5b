internal import CGLib
internal import CGtk
import GObjectBindings

/// Completion for an Entry: while the user types, a popup under the entry lists the rows of `model` that the
/// match rule accepts; choosing one calls `onMatchSelected` with its row.
@MainActor
public final class EntryCompletion {
    @_spi(GtkInterop) public let ref: ObjectRef
    public let model: ListStore

    /// Shows column `textColumn` of `model` in the popup.
    public init(model: ListStore, textColumn: Int) {
        self.model = model
        ref = ObjectRef(gtk_entry_completion_new()!, transfer: .full)
        gtk_entry_completion_set_model(completion, model.model)
        gtk_entry_completion_set_text_column(completion, Int32(textColumn))
        // The row chosen goes to `onMatchSelected`, not into the entry as typed text.
        gtk_entry_completion_set_inline_completion(completion, 0)
        gtk_entry_completion_set_inline_selection(completion, 0)
    }

    private var completion: UnsafeMutablePointer<GtkEntryCompletion> { ref.typed() }

    /// Which rows the popup offers for the entry's text (the text as typed, not case-folded).
    public func setMatch(_ matches: @escaping @MainActor (_ text: String, _ row: Int) -> Bool) {
        let box = MatchBox(model: model, matches: matches)
        gtk_entry_completion_set_match_func(completion, matchTrampoline, Unmanaged.passRetained(box).toOpaque(),
                                            releaseBoxNotify)
    }

    /// A row of the popup was chosen (click, or arrows and Enter).
    public func onMatchSelected(_ handler: @escaping @MainActor (_ row: Int) -> Void) {
        ref.connectHandled("match-selected") { [model] _, iter in
            guard let row = model.row(at: iter) else { return false }
            handler(row)
            return true
        }
    }

    /// Characters typed before the popup opens.
    public var minimumKeyLength: Int {
        get { Int(gtk_entry_completion_get_minimum_key_length(completion)) }
        set { gtk_entry_completion_set_minimum_key_length(completion, Int32(newValue)) }
    }

    /// Makes this the completion of `entry` (which holds it from then on).
    public func attach(to entry: Entry) {
        gtk_entry_set_completion(entry.widget.raw.as(GtkEntry.self), completion)
    }
}

private final class MatchBox: @unchecked Sendable {
    let model: ListStore
    let matches: @MainActor (String, Int) -> Bool
    init(model: ListStore, matches: @escaping @MainActor (String, Int) -> Bool) {
        self.model = model
        self.matches = matches
    }
}

// GtkEntryCompletionMatchFunc: gboolean (GtkEntryCompletion *, const gchar *key, GtkTreeIter *, gpointer).
// `key` is GTK's case-folded, normalized text; the handler gets the entry's own.
private let matchTrampoline: GtkEntryCompletionMatchFunc = { completion, _, iter, data in
    let box = Unmanaged<MatchBox>.fromOpaque(data!).takeUnretainedValue()
    nonisolated(unsafe) let arguments = (completion, iter)
    return MainActor.assumeIsolated {
        guard let entry = gtk_entry_completion_get_entry(arguments.0),
              let row = box.model.row(at: UnsafeMutableRawPointer(arguments.1)) else { return false }
        let text = string(gtk_entry_get_text(entry.raw.as(GtkEntry.self))) ?? ""
        return box.matches(text, row)
    }.gboolean
}
