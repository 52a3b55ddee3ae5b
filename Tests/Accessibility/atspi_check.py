#!/usr/bin/python3
"""Reads a running Gallery Viewer's accessibility tree over AT-SPI, as a screen reader would, and checks it.

    atspi_check.py APP_NAME [--expect NAME]... [--expect-checked NAME]... [--expect-text TEXT]...
                   [--expect-no-text TEXT]... [--expect-description NAME=TEXT]...
                   [--expect-first-item NAME=TEXT]...

Every control a user can press, type into or activate (buttons of any kind, combo boxes, text entries,
list rows and grid tiles, menu items) that is on screen must have an accessible name; each --expect NAME
must be on screen, each --expect-checked NAME too, pressed in (a toggle button that is on), each
--expect-text TEXT must be part of some text on screen (a label's, a control's name) and no
--expect-no-text TEXT may be, and each --expect-description NAME=TEXT needs a node on screen named NAME
whose accessible description holds TEXT, and each --expect-first-item NAME=TEXT needs the gallery's first
item (the row or tile described "Item 1 of N") on screen, named NAME and holding a text with TEXT (all waited
for, up to $E2E_PATIENCE seconds, default 120, as the window may still be loading or changing; a debug build
on one loaded core takes its time).
Prints the controls it saw and exits 1 with the offenders, 0 when all is well, 2 when the application is
not on the accessibility bus.
"""
import os
import sys
import time

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

CONTROLS = {
    Atspi.Role.PUSH_BUTTON, Atspi.Role.TOGGLE_BUTTON, Atspi.Role.RADIO_BUTTON, Atspi.Role.CHECK_BOX,
    Atspi.Role.COMBO_BOX, Atspi.Role.ENTRY, Atspi.Role.TEXT, Atspi.Role.PASSWORD_TEXT, Atspi.Role.SPIN_BUTTON,
    Atspi.Role.SLIDER, Atspi.Role.LINK, Atspi.Role.MENU_ITEM, Atspi.Role.CHECK_MENU_ITEM, Atspi.Role.LIST_ITEM,
}
MAX_NODES = 20000  # a bound on the walk, far above what the window shows
PATIENCE = float(os.environ.get("E2E_PATIENCE") or 120)


def find_application(name, timeout=PATIENCE):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        desktop = Atspi.get_desktop(0)
        for index in range(desktop.get_child_count()):
            app = desktop.get_child_at_index(index)
            if app is not None and app.get_name() == name:
                return app
        time.sleep(0.2)
    return None


def showing(node):
    states = node.get_state_set()
    return states.contains(Atspi.StateType.SHOWING) and states.contains(Atspi.StateType.VISIBLE)


def walk(node, depth=0, seen=None):
    seen = seen if seen is not None else [0]
    seen[0] += 1
    if seen[0] > MAX_NODES:
        return
    yield node, depth
    for index in range(node.get_child_count()):
        child = node.get_child_at_index(index)
        if child is not None:
            yield from walk(child, depth + 1, seen)


def is_checked(node):
    states = node.get_state_set()
    return states.contains(Atspi.StateType.CHECKED) or states.contains(Atspi.StateType.PRESSED)


def visible_controls(app):
    for node, depth in walk(app):
        if node.get_role() in CONTROLS and showing(node):
            yield node, depth, (node.get_name() or "").strip()


def descriptions(app):
    """(name, description) of every node on screen that has a description."""
    for node, _ in walk(app):
        description = (node.get_description() or "").strip()
        if description and showing(node):
            yield (node.get_name() or "").strip(), description


def first_items(app):
    """(name, texts inside) of each gallery cell on screen described as the first: "Item 1 of N"."""
    for node, _ in walk(app):
        if (node.get_description() or "").startswith("Item 1 of ") and showing(node):
            texts = [(inner.get_name() or "").strip() for inner, _ in walk(node)]
            yield (node.get_name() or "").strip(), [text for text in texts if text]


def is_first_item(pair, firsts):
    """Whether PAIR, "NAME=TEXT", is one of the FIRSTS (first_items): so named, with a text holding TEXT."""
    name, _, text = pair.partition("=")
    return any(first_name == name and any(text in inner for inner in texts) for first_name, texts in firsts)


def visible_texts(app):
    for node, _ in walk(app):
        name = (node.get_name() or "").strip()
        if name and showing(node):
            yield name


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        return 2
    app_name, expected, checked, texts, absent, described, first = args[0], [], [], [], [], [], []
    rest = args[1:]
    lists = {"--expect": expected, "--expect-checked": checked, "--expect-text": texts, "--expect-no-text": absent,
             "--expect-description": described, "--expect-first-item": first}
    while rest:
        if rest[0] in lists and len(rest) > 1:
            lists[rest[0]].append(rest[1])
            rest = rest[2:]
        else:
            print(f"atspi_check: unknown argument {rest[0]}", file=sys.stderr)
            return 2
    Atspi.init()
    app = find_application(app_name)
    if app is None:
        print(f"atspi_check: no application named {app_name!r} on the accessibility bus", file=sys.stderr)
        return 2
    deadline = time.monotonic() + PATIENCE
    while True:
        # A node that goes away while it is read (GTK rebuilds a list's rows when the list changes) fails the
        # read with a D-Bus error: the window is changing, so it is read again.
        try:
            controls = list(visible_controls(app))
            names = [name for _, _, name in controls]
            on = [name for node, _, name in controls if is_checked(node)]
            unchecked = [name for name in checked if name not in on]
            shown = list(visible_texts(app)) if texts or absent else []
            missing_texts = [text for text in texts if not any(text in name for name in shown)]
            present = [text for text in absent if any(text in name for name in shown)]
            seen = set(descriptions(app)) if described else set()
            undescribed = [pair for pair in described
                           if not any(name == pair.partition("=")[0] and pair.partition("=")[2] in description
                                      for name, description in seen)]
            firsts = list(first_items(app)) if first else []
            not_first = [pair for pair in first if not is_first_item(pair, firsts)]
        except GLib.Error:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)
            continue
        done = (all(name in names for name in expected) and not unchecked and not missing_texts and not present
                and not undescribed and not not_first)
        if done or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    unnamed = []
    for node, depth, name in controls:
        print(f"{'  ' * min(depth, 12)}{node.get_role_name()}: {name!r}{' (on)' if is_checked(node) else ''}")
        if not name:
            path, parent = [], node.get_parent()
            while parent is not None and len(path) < 6:
                path.append(f"{parent.get_role_name()} {parent.get_name()!r}")
                parent = parent.get_parent()
            unnamed.append(f"{node.get_role_name()} without a name, inside " + " < ".join(path))
    missing = [name for name in expected if name not in names]
    for problem in unnamed:
        print(f"atspi_check: FAIL: {problem}", file=sys.stderr)
    for name in missing:
        print(f"atspi_check: FAIL: no control named {name!r} on screen", file=sys.stderr)
    for name in unchecked:
        print(f"atspi_check: FAIL: no control named {name!r} pressed in on screen", file=sys.stderr)
    for text in missing_texts:
        print(f"atspi_check: FAIL: no text with {text!r} on screen", file=sys.stderr)
    for text in present:
        print(f"atspi_check: FAIL: {text!r} is still on screen", file=sys.stderr)
    for pair in undescribed:
        name, _, text = pair.partition("=")
        print(f"atspi_check: FAIL: no {name!r} described as {text!r}; seen: {sorted(seen)[:20]}", file=sys.stderr)
    for pair in not_first:
        name, _, text = pair.partition("=")
        print(f"atspi_check: FAIL: the first item is not {name!r} holding {text!r}; first items seen: {firsts}",
              file=sys.stderr)
    if texts or absent:
        print("texts on screen: " + " | ".join(shown[:60]))
    if not names:
        print("atspi_check: FAIL: no controls at all on screen", file=sys.stderr)
        return 1
    return 1 if unnamed or missing or unchecked or missing_texts or present or undescribed or not_first else 0


if __name__ == "__main__":
    sys.exit(main())
