internal import CGLib
internal import CGtk
import GObjectBindings

/// A GtkListStore of text columns: the rows an EntryCompletion offers. Rows are addressed by position.
@MainActor
public final class ListStore {
    @_spi(GtkInterop) public let ref: ObjectRef
    public let columnCount: Int

    public init(textColumns: Int) {
        precondition(textColumns > 0)
        columnCount = textColumns
        var types = [GType](repeating: gv_type_string(), count: textColumns)
        ref = ObjectRef(gtk_list_store_newv(Int32(textColumns), &types)!, transfer: .full)
    }

    var store: UnsafeMutablePointer<GtkListStore> { ref.typed() }
    var model: OpaquePointer { ref.opaque }

    /// Replaces every row; each row has a text per column.
    public func replaceRows(_ rows: [[String]]) {
        gtk_list_store_clear(store)
        for row in rows {
            precondition(row.count == columnCount, "a row has \(columnCount) texts")
            var values = row.map { text -> GValue in
                var value = GValue()
                g_value_init(&value, gv_type_string())
                g_value_set_string(&value, text)
                return value
            }
            var columns = (0..<Int32(columnCount)).map { $0 }
            var iter = GtkTreeIter()
            gtk_list_store_insert_with_valuesv(store, &iter, -1, &columns, &values, Int32(columnCount))
            for index in values.indices { g_value_unset(&values[index]) }
        }
    }

    public var rowCount: Int { Int(gtk_tree_model_iter_n_children(model, nil)) }

    /// The text at `row`, `column`; nil past the end.
    public func text(row: Int, column: Int) -> String? {
        var iter = GtkTreeIter()
        guard column < columnCount, gtk_tree_model_iter_nth_child(model, &iter, nil, Int32(row)) != 0 else { return nil }
        var value = GValue()
        gtk_tree_model_get_value(model, &iter, Int32(column), &value)
        defer { g_value_unset(&value) }
        return string(g_value_get_string(&value))
    }

    /// The position of the row `iter` (a GtkTreeIter of this store, as a signal or callback hands it) points at.
    func row(at iter: UnsafeMutableRawPointer?) -> Int? {
        guard let iter, let path = gtk_tree_model_get_path(model, iter.as(GtkTreeIter.self)) else { return nil }
        defer { gtk_tree_path_free(path) }
        guard gtk_tree_path_get_depth(path) == 1, let indices = gtk_tree_path_get_indices(path) else { return nil }
        return Int(indices[0])
    }
}
