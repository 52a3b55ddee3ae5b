import CGtk
import GObjectBindings

/// A GtkListBox bound to a ListStore: GTK creates one row per model item through `createRow`, and adds or
/// removes rows as the store changes, without rebuilding the others.
@MainActor
public final class ListBox: Widget {
    public init() {
        super.init(gtk_list_box_new())
    }

    private var listBox: UnsafeMutablePointer<GtkListBox> { widget.raw.as(GtkListBox.self) }

    /// `createRow` gets the Swift object carried by the store item and returns the row widget to show.
    public func bind(to store: ListStore, createRow: @escaping @MainActor (AnyObject) -> Widget) {
        let box = Unmanaged.passRetained(RowFactory(createRow)).toOpaque()
        gtk_list_box_bind_model(listBox, store.ref.opaque, { item, data in
            let factory = Unmanaged<RowFactory>.fromOpaque(data!).takeUnretainedValue()
            nonisolated(unsafe) let item = item
            // Pointers are not Sendable; the address crosses assumeIsolated's boundary as an integer.
            let address = MainActor.assumeIsolated { () -> UInt in
                guard let value = ListStore.value(ofItem: item) else { return UInt(bitPattern: gtk_label_new("")) }
                // The list box expects a full (or floating) reference and releases it after inserting the
                // row; the wrapper's own reference goes away with the wrapper.
                return UInt(bitPattern: g_object_ref(factory.create(value).widget))
            }
            return UnsafeMutablePointer<GtkWidget>(bitPattern: address)
        }, box, releaseBoxNotify)
    }

    private final class RowFactory: @unchecked Sendable {
        let create: @MainActor (AnyObject) -> Widget
        init(_ create: @escaping @MainActor (AnyObject) -> Widget) { self.create = create }
    }

    public var selectionMode: GtkSelectionMode {
        get { gtk_list_box_get_selection_mode(listBox) }
        set { gtk_list_box_set_selection_mode(listBox, newValue) }
    }

    /// With single-click activation off, a click selects and a double-click (or Enter) activates.
    public var activatesOnSingleClick: Bool {
        get { gtk_list_box_get_activate_on_single_click(listBox) != 0 }
        set { gtk_list_box_set_activate_on_single_click(listBox, newValue.gboolean) }
    }

    /// The index of the row at `y` (list box coordinates), if any.
    public func rowIndex(atY y: Int) -> Int? {
        guard let row = gtk_list_box_get_row_at_y(listBox, Int32(y)) else { return nil }
        return Int(gtk_list_box_row_get_index(row))
    }

    public func rowWidget(at index: Int) -> UnsafeMutablePointer<GtkWidget>? {
        gtk_list_box_get_row_at_index(listBox, Int32(index))?.raw.as(GtkWidget.self)
    }

    /// Allocation of the row at `index` in list box coordinates.
    public func rowFrame(at index: Int) -> (y: Int, height: Int)? {
        guard let row = rowWidget(at: index) else { return nil }
        var allocation = GtkAllocation()
        gtk_widget_get_allocation(row, &allocation)
        return (Int(allocation.y), Int(allocation.height))
    }

    public func selectRow(at index: Int) {
        guard let row = gtk_list_box_get_row_at_index(listBox, Int32(index)) else { return }
        gtk_list_box_select_row(listBox, row)
        gtk_widget_grab_focus(row.raw.as(GtkWidget.self))
    }

    public var selectedIndex: Int? {
        guard let row = gtk_list_box_get_selected_row(listBox) else { return nil }
        return Int(gtk_list_box_row_get_index(row))
    }

    /// A row was activated: double-click, Enter, or space.
    public func onRowActivated(_ handler: @escaping @MainActor (_ index: Int) -> Void) {
        ref.connect("row-activated") { row in
            guard let row else { return }
            handler(Int(gtk_list_box_row_get_index(row.as(GtkListBoxRow.self))))
        }
    }

    /// Shown instead of rows while the model is empty.
    public func setPlaceholder(_ placeholder: Widget) {
        gtk_list_box_set_placeholder(listBox, placeholder.widget)
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
}
