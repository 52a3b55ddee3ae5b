#!/usr/bin/python3
"""Does what a user does to one control of a running application, over AT-SPI, as assistive technology can.

    atspi_do.py APP_NAME --press NAME      presses the button named NAME, once it is on screen and sensitive (a
                                           toggle or menu button too: that one is toggled, a popover opened)
    atspi_do.py APP_NAME --find NAME       waits for something named NAME on screen
    atspi_do.py APP_NAME --selected NAME   waits for a list item named NAME that is selected
    atspi_do.py APP_NAME --activate NAME   activates the menu item named NAME (its mnemonic's underscore left
                                           out), as a click on it does

Waits up to $E2E_PATIENCE seconds (default 120); exits 0 when done, 1 when it never came (listing what was on
screen), 2 when the application is not on the accessibility bus.
"""
import os
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

PATIENCE = float(os.environ.get("E2E_PATIENCE") or 120)
MAX_NODES = 20000


def application(name):
    desktop = Atspi.get_desktop(0)
    for index in range(desktop.get_child_count()):
        app = desktop.get_child_at_index(index)
        if app is not None and app.get_name() == name:
            return app
    return None


def walk(node, seen):
    """NODE and what it holds, but not the pages of tabbed notebooks: GTK's print dialog swaps its option pages
    when a printer is chosen, and once a page it removed was read, GTK's notebook accessibility emits a
    critical (gtk_notebook_get_tab_label) when the dialog goes."""
    seen[0] += 1
    if seen[0] > MAX_NODES:
        return
    yield node
    if node.get_role() == Atspi.Role.PAGE_TAB_LIST:
        return
    for index in range(node.get_child_count()):
        child = node.get_child_at_index(index)
        if child is not None:
            yield from walk(child, seen)


def ready(node):
    states = node.get_state_set()
    return all(states.contains(state) for state in (Atspi.StateType.SHOWING, Atspi.StateType.SENSITIVE))


def selected(node):
    return node.get_state_set().contains(Atspi.StateType.SELECTED)


BUTTONS = (Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON)


def press(node, roles=BUTTONS):
    if node.get_role() not in roles or "Action" not in node.get_interfaces():
        return False
    return node.get_n_actions() > 0 and node.do_action(0)  # a GTK button's or menu item's first action: click


def found(app, verb, name):
    """Whether NAME is on screen and, for --press and --activate, was pressed. A node that goes away while it
    is read (GTK rebuilds a list's rows when the list changes) fails the read with a D-Bus error: the window
    is changing, and the caller reads it again."""
    try:
        for node in walk(app, [0]):
            if (node.get_name() or "").strip() != name or not ready(node):
                continue
            if verb == "--find" or (verb == "--selected" and selected(node)) or (verb == "--press" and press(node)) \
                    or (verb == "--activate" and press(node, (Atspi.Role.MENU_ITEM,))):
                return True
    except GLib.Error:
        pass
    return False


def main():
    if len(sys.argv) != 4 or sys.argv[2] not in ("--press", "--find", "--selected", "--activate"):
        print(__doc__, file=sys.stderr)
        return 2
    app_name, verb, name = sys.argv[1:]
    Atspi.init()
    deadline = time.monotonic() + PATIENCE
    app = None
    while time.monotonic() < deadline:
        app = app or application(app_name)
        if app is not None and found(app, verb, name):
            return 0
        time.sleep(0.3)
    if app is None:
        print(f"atspi_do: no application named {app_name!r} on the accessibility bus", file=sys.stderr)
        return 2
    print(f"atspi_do: nothing named {name!r} ({verb[2:]}) on screen; named there:", file=sys.stderr)
    for node in walk(app, [0]):
        if (node.get_name() or "").strip():
            print(f"  {node.get_role_name()}: {node.get_name()!r}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
