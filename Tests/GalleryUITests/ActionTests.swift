import CGLib
import CGtk
import GObjectBindings
@_spi(GtkInterop) import GtkBindings
import TestSupport
import XCTest

/// Actions as menus and shortcuts trigger them: through GAction by name, with nothing holding the Swift
/// wrapper (the app keeps none).
final class ActionTests: GLibTestCase {
    func testAToggleWorksAfterItsWrapperIsGone() {
        MainActor.assumeIsolated {
            let group = ActionGroup()
            var changes: [Bool] = []
            do {
                SimpleAction.addToggle(to: group, name: "toggle", initial: false) { changes.append($0) }
            }
            // A menu's check item activates a stateful boolean action without a parameter: GSimpleAction
            // turns that into change-state with the opposite value.
            g_action_group_activate_action(group.ref.opaque, "toggle", nil)
            g_action_group_activate_action(group.ref.opaque, "toggle", nil)
            g_action_group_change_action_state(group.ref.opaque, "toggle", g_variant_new_boolean(1))
            XCTAssertEqual(changes, [true, false, true])
            let state = g_action_group_get_action_state(group.ref.opaque, "toggle")
            defer { g_variant_unref(state) }
            XCTAssertEqual(g_variant_get_boolean(state), 1, "the action's own state follows")
        }
    }
}
