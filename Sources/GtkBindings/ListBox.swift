internal import CGLib
internal import CGtk
import GObjectBindings

/// A GtkListBox whose rows the caller adds and removes (the gallery list recycles a small pool of them).
/// Rows are addressed by their position in the box.
@MainActor
public final class ListBox: Widget {
    public init() {
        super.init(gtk_list_box_new())
    }

    private var listBox: UnsafeMutablePointer<GtkListBox> { widget.raw.as(GtkListBox.self) }

    /// How many rows can be selected, and whether a click can unselect.
    public enum SelectionMode: Sendable, CaseIterable {
        case none
        /// At most one; it can be unselected.
        case single
        /// Exactly one once the user picked one: a click never unselects.
        case browse
        case multiple

        var gtk: GtkSelectionMode {
            switch self {
            case .none: GTK_SELECTION_NONE
            case .single: GTK_SELECTION_SINGLE
            case .browse: GTK_SELECTION_BROWSE
            case .multiple: GTK_SELECTION_MULTIPLE
            }
        }
    }

    public var selectionMode: SelectionMode {
        get { SelectionMode.allCases.first { $0.gtk == gtk_list_box_get_selection_mode(listBox) } ?? .none }
        set { gtk_list_box_set_selection_mode(listBox, newValue.gtk) }
    }

    /// With single-click activation off, a click selects and a double-click (or Enter) activates.
    public var activatesOnSingleClick: Bool {
        get { gtk_list_box_get_activate_on_single_click(listBox) != 0 }
        set { gtk_list_box_set_activate_on_single_click(listBox, newValue.gboolean) }
    }

    /// Inserts `row` (a ListBoxRow, or any widget, which GTK wraps in one) at `position`; -1 appends.
    public func insert(_ row: Widget, at position: Int) {
        gtk_list_box_insert(listBox, row.widget, Int32(position))
    }

    public func remove(_ row: Widget) {
        gtk_container_remove(widget.raw.as(GtkContainer.self), row.widget)
    }

    /// The position of the row at `y` (list box coordinates), if any.
    public func rowIndex(atY y: Int) -> Int? {
        guard let row = gtk_list_box_get_row_at_y(listBox, Int32(y)) else { return nil }
        return Int(gtk_list_box_row_get_index(row))
    }

    /// Selects the row at `position` (without moving the focus); nil unselects.
    public func selectRow(at position: Int?) {
        if let position, let row = gtk_list_box_get_row_at_index(listBox, Int32(position)) {
            if gtk_list_box_get_selected_row(listBox) != row { gtk_list_box_select_row(listBox, row) }
        } else if gtk_list_box_get_selected_row(listBox) != nil {
            gtk_list_box_unselect_all(listBox)
        }
    }

    /// The first selected row's position (in `.multiple` mode GTK's own "selected row" is the last one
    /// selected, kept after it is unselected, so the rows are asked).
    public var selectedIndex: Int? { selectedPositions.min() }

    /// Selects exactly the rows at `positions` (`.multiple` mode), without moving the focus.
    public func selectRows(at positions: Set<Int>) {
        var index: Int32 = 0
        while let row = gtk_list_box_get_row_at_index(listBox, index) {
            let wanted = positions.contains(Int(index))
            if wanted != (gtk_list_box_row_is_selected(row) != 0) {
                if wanted { gtk_list_box_select_row(listBox, row) } else { gtk_list_box_unselect_row(listBox, row) }
            }
            index += 1
        }
    }

    /// The positions of the selected rows.
    public var selectedPositions: Set<Int> {
        var positions: Set<Int> = []
        var index: Int32 = 0
        while let row = gtk_list_box_get_row_at_index(listBox, index) {
            if gtk_list_box_row_is_selected(row) != 0 { positions.insert(Int(index)) }
            index += 1
        }
        return positions
    }

    /// A row was activated: double-click, Enter, or space.
    public func onRowActivated(_ handler: @escaping @MainActor (_ index: Int) -> Void) {
        ref.connect("row-activated") { row in
            guard let row else { return }
            handler(Int(gtk_list_box_row_get_index(row.as(GtkListBoxRow.self))))
        }
    }

    /// Emits `row-activated` for the row at `index`, as Enter on a selected row would.
    public func activateRow(at index: Int) {
        guard let row = gtk_list_box_get_row_at_index(listBox, Int32(index)) else { return }
        gtk_widget_activate(row.raw.as(GtkWidget.self))
    }
}

/// A row of a ListBox, holding the row's content.
@MainActor
public final class ListBoxRow: Bin {
    public init() {
        super.init(gtk_list_box_row_new())
    }

    public var index: Int { Int(gtk_list_box_row_get_index(widget.raw.as(GtkListBoxRow.self))) }

    /// Rows that only show something (a details panel's) are neither activated nor selected.
    public var isActivatable: Bool {
        get { gtk_list_box_row_get_activatable(widget.raw.as(GtkListBoxRow.self)) != 0 }
        set { gtk_list_box_row_set_activatable(widget.raw.as(GtkListBoxRow.self), newValue.gboolean) }
    }

    public var isSelectable: Bool {
        get { gtk_list_box_row_get_selectable(widget.raw.as(GtkListBoxRow.self)) != 0 }
        set { gtk_list_box_row_set_selectable(widget.raw.as(GtkListBoxRow.self), newValue.gboolean) }
    }
}
