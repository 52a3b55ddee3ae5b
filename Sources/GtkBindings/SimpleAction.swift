internal import CGLib
internal import CGtk
import GObjectBindings

/// A named action ("app.quit", "win.back") that menus, buttons and keyboard accelerators trigger.
@MainActor
public final class SimpleAction {
    @_spi(GtkInterop) public let ref: ObjectRef

    private init(_ action: OpaquePointer) {
        ref = ObjectRef(action, transfer: .full)
    }

    private var action: OpaquePointer { ref.opaque }

    /// Adds a plain action to `map` (the application, an application window, an action group).
    @discardableResult
    public static func add(to map: some ActionMap, name: String,
                           _ activate: @escaping @MainActor () -> Void) -> SimpleAction {
        let action = SimpleAction(g_simple_action_new(name, nil))
        action.ref.connect("activate") { (_: UnsafeMutableRawPointer?) in activate() }
        g_action_map_add_action(map.actionMap.ref.opaque, action.action)
        return action
    }

    /// Adds an action taking a string parameter, triggered by detailed names ("win.pan::left").
    @discardableResult
    public static func add(to map: some ActionMap, name: String, stringParameter activate: @escaping @MainActor (String) -> Void)
        -> SimpleAction {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = SimpleAction(g_simple_action_new(name, type))
        action.ref.connect("activate") { (parameter: UnsafeMutableRawPointer?) in
            guard let parameter else { return }
            activate(String(cString: g_variant_get_string(parameter.opaque, nil)))
        }
        g_action_map_add_action(map.actionMap.ref.opaque, action.action)
        return action
    }

    /// Adds an on/off action (a check item in a menu). The action map keeps it; the returned wrapper may be
    /// dropped: the handler sets the state on the action that emitted `change-state`, not on a wrapper.
    @discardableResult
    public static func addToggle(to map: some ActionMap, name: String, initial: Bool,
                                 _ changed: @escaping @MainActor (Bool) -> Void) -> SimpleAction {
        let action = SimpleAction(g_simple_action_new_stateful(name, nil, g_variant_new_boolean(initial.gboolean)))
        action.ref.connectWithEmitter("change-state") { (emitter: SignalEmitter, value: UnsafeMutableRawPointer?) in
            guard let value else { return }
            let variant = value.opaque
            g_simple_action_set_state(emitter.opaque, variant)
            changed(g_variant_get_boolean(variant) != 0)
        }
        g_action_map_add_action(map.actionMap.ref.opaque, action.action)
        return action
    }

    /// Adds an action whose state is one of `values` (radio items in a menu, each naming its value as
    /// "win.NAME::VALUE"). Activating one of them sets the state and calls `changed` with it; any other
    /// value changes nothing.
    @discardableResult
    public static func addChoice(to map: some ActionMap, name: String, values: [String], initial: String,
                                 _ changed: @escaping @MainActor (String) -> Void) -> SimpleAction {
        let type = g_variant_type_new("s")
        defer { g_variant_type_free(type) }
        let action = SimpleAction(g_simple_action_new_stateful(name, type, g_variant_new_string(initial)))
        action.ref.connectWithEmitter("change-state") { (emitter: SignalEmitter, value: UnsafeMutableRawPointer?) in
            guard let value else { return }
            let variant = value.opaque
            let chosen = String(cString: g_variant_get_string(variant, nil))
            guard values.contains(chosen) else { return }
            g_simple_action_set_state(emitter.opaque, variant)
            changed(chosen)
        }
        g_action_map_add_action(map.actionMap.ref.opaque, action.action)
        return action
    }

    /// The state of a choice action; setting it moves the menu's radio mark without calling the handler.
    public var choice: String? {
        get {
            guard let state = g_action_get_state(action) else { return nil }
            defer { g_variant_unref(state) }
            guard String(cString: g_variant_get_type_string(state)) == "s" else { return nil }
            return String(cString: g_variant_get_string(state, nil))
        }
        set {
            guard let newValue else { return }
            g_simple_action_set_state(action, g_variant_new_string(newValue))
        }
    }

    public var isEnabled: Bool {
        get { g_action_get_enabled(action) != 0 }
        set { g_simple_action_set_enabled(action, newValue.gboolean) }
    }

    /// The on/off state of a toggle action.
    public var isOn: Bool {
        get {
            guard let state = g_action_get_state(action) else { return false }
            defer { g_variant_unref(state) }
            return g_variant_get_boolean(state) != 0
        }
        set { g_simple_action_set_state(action, g_variant_new_boolean(newValue.gboolean)) }
    }

    /// Activates the action as a menu item or shortcut would.
    public func activate() {
        if g_action_get_state_type(action) != nil {
            g_action_change_state(action, g_variant_new_boolean((!isOn).gboolean))
        } else {
            g_action_activate(action, nil)
        }
    }
}
