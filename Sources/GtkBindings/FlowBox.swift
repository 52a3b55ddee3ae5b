internal import CGLib
internal import CGtk
import GObjectBindings

/// A GtkFlowBox whose children the caller adds and removes (the gallery grid recycles a small pool of
/// them), laid out in lines of at most `maxChildrenPerLine`. Children are addressed by their position.
@MainActor
public final class FlowBox: Widget {
    public init() {
        super.init(gtk_flow_box_new())
    }

    private var flowBox: UnsafeMutablePointer<GtkFlowBox> { widget.raw.as(GtkFlowBox.self) }

    public var selectionMode: ListBox.SelectionMode {
        get { ListBox.SelectionMode.allCases.first { $0.gtk == gtk_flow_box_get_selection_mode(flowBox) } ?? .none }
        set { gtk_flow_box_set_selection_mode(flowBox, newValue.gtk) }
    }

    /// With single-click activation off, a click selects and a double-click (or Enter) activates.
    public var activatesOnSingleClick: Bool {
        get { gtk_flow_box_get_activate_on_single_click(flowBox) != 0 }
        set { gtk_flow_box_set_activate_on_single_click(flowBox, newValue.gboolean) }
    }

    /// Every child as wide (and every line as tall) as the largest.
    public var isHomogeneous: Bool {
        get { gtk_flow_box_get_homogeneous(flowBox) != 0 }
        set { gtk_flow_box_set_homogeneous(flowBox, newValue.gboolean) }
    }

    /// The number of children per line, when the box is given room for at least that many.
    public func setChildrenPerLine(minimum: Int, maximum: Int) {
        gtk_flow_box_set_min_children_per_line(flowBox, guint(max(1, minimum)))
        gtk_flow_box_set_max_children_per_line(flowBox, guint(max(1, minimum, maximum)))
    }

    public var maxChildrenPerLine: Int { Int(gtk_flow_box_get_max_children_per_line(flowBox)) }

    public var columnSpacing: Int {
        get { Int(gtk_flow_box_get_column_spacing(flowBox)) }
        set { gtk_flow_box_set_column_spacing(flowBox, guint(max(0, newValue))) }
    }

    public var rowSpacing: Int {
        get { Int(gtk_flow_box_get_row_spacing(flowBox)) }
        set { gtk_flow_box_set_row_spacing(flowBox, guint(max(0, newValue))) }
    }

    /// Inserts `child` (a FlowBoxChild, or any widget, which GTK wraps in one) at `position`; -1 appends.
    public func insert(_ child: Widget, at position: Int) {
        gtk_flow_box_insert(flowBox, child.widget, Int32(position))
    }

    public func remove(_ child: Widget) {
        gtk_container_remove(widget.raw.as(GtkContainer.self), child.widget)
    }

    /// The position of the child at (`x`, `y`) in the box's coordinates, if any.
    public func childIndex(atX x: Int, y: Int) -> Int? {
        guard let child = gtk_flow_box_get_child_at_pos(flowBox, Int32(x), Int32(y)) else { return nil }
        return Int(gtk_flow_box_child_get_index(child))
    }

    /// Selects exactly the children at `positions` (`.multiple` mode), without moving the focus.
    public func selectChildren(at positions: Set<Int>) {
        var index: Int32 = 0
        while let child = gtk_flow_box_get_child_at_index(flowBox, index) {
            let wanted = positions.contains(Int(index))
            if wanted != (gtk_flow_box_child_is_selected(child) != 0) {
                if wanted { gtk_flow_box_select_child(flowBox, child) } else { gtk_flow_box_unselect_child(flowBox, child) }
            }
            index += 1
        }
    }

    /// The positions of the selected children.
    public var selectedPositions: Set<Int> {
        guard let list = gtk_flow_box_get_selected_children(flowBox) else { return [] }
        defer { g_list_free(list) }
        var positions: Set<Int> = []
        var node: UnsafeMutablePointer<GList>? = list
        while let current = node {
            if let child = current.pointee.data {
                positions.insert(Int(gtk_flow_box_child_get_index(child.assumingMemoryBound(to: GtkFlowBoxChild.self))))
            }
            node = current.pointee.next
        }
        return positions
    }

    /// The first selected child's position.
    public var selectedIndex: Int? {
        guard let list = gtk_flow_box_get_selected_children(flowBox) else { return nil }
        defer { g_list_free(list) }
        guard let child = list.pointee.data else { return nil }
        return Int(gtk_flow_box_child_get_index(child.assumingMemoryBound(to: GtkFlowBoxChild.self)))
    }

    /// A child was activated: double-click, Enter, or space.
    public func onChildActivated(_ handler: @escaping @MainActor (_ index: Int) -> Void) {
        ref.connect("child-activated") { child in
            guard let child else { return }
            handler(Int(gtk_flow_box_child_get_index(child.as(GtkFlowBoxChild.self))))
        }
    }

    /// Emits `child-activated` for the child at `index`, as Enter on a selected child would.
    public func activateChild(at index: Int) {
        guard let child = gtk_flow_box_get_child_at_index(flowBox, Int32(index)) else { return }
        gtk_widget_activate(child.raw.as(GtkWidget.self))
    }
}

/// A child of a FlowBox, holding the child's content.
@MainActor
public final class FlowBoxChild: Bin {
    public init() {
        super.init(gtk_flow_box_child_new())
    }

    public var index: Int { Int(gtk_flow_box_child_get_index(widget.raw.as(GtkFlowBoxChild.self))) }
    public var isSelected: Bool { gtk_flow_box_child_is_selected(widget.raw.as(GtkFlowBoxChild.self)) != 0 }
}
