#!/usr/bin/python3
"""Follows, as a screen reader hears them, the names an application's control takes while it changes by itself.

    atspi_follow.py APP_NAME PREFIX NAME...

Keeps the names with PREFIX (one control's, e.g. "Large view: ") that APP_NAME's nodes take: the name a node
has when it comes on screen (ATK announces no change for a node's first name, so a screen reader reads it
then) and each change of name after; a name kept again in a row counts once. Prints "listening" once the
listeners are registered, then each name kept as it comes. Start it before the application: a GTK
application reads the registered listeners when it joins the bus, so none of its changes is missed.
Exits 0 once the names kept, from the first NAME on, are the NAMEs in that order; 1 when another name with
PREFIX came in between, or the NAMEs did not all come within $E2E_PATIENCE seconds (default 120); 2 when a
listener could not be registered.
"""
import os
import sys

import gi

gi.require_version("Atspi", "2.0")
from gi.repository import Atspi, GLib  # noqa: E402

PATIENCE = float(os.environ.get("E2E_PATIENCE") or 120)


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    app_name, prefix, expected = sys.argv[1], sys.argv[2], sys.argv[3:]
    Atspi.init()
    loop = GLib.MainLoop()
    kept = []
    result = [1]

    def on_event(event):
        if event.type.startswith("object:state-changed:showing"):
            if event.detail1 != 1:
                return
            try:
                name = event.source.get_name() or ""
            except GLib.Error:
                return
        else:
            name = event.any_data if isinstance(event.any_data, str) else ""
        if not name.startswith(prefix):
            return
        try:
            app = event.source.get_application()
        except GLib.Error:
            return
        if app is None or app.get_name() != app_name:
            return
        if kept and kept[-1] == name:
            return
        kept.append(name)
        print(name, flush=True)
        if expected[0] not in kept:
            return
        after = kept[kept.index(expected[0]):]
        if after != expected[:len(after)]:
            print(f"atspi_follow: FAIL: after {expected[0]!r} came {after[1:]!r}, not {expected[1:]!r}", file=sys.stderr)
            loop.quit()
        elif after == expected:
            result[0] = 0
            loop.quit()

    def give_up():
        print(f"atspi_follow: FAIL: within {PATIENCE:.0f} s the names with {prefix!r} were {kept!r}, "
              f"not {expected!r} in that order", file=sys.stderr)
        loop.quit()
        return False

    events = ("object:property-change:accessible-name", "object:state-changed:showing")
    listener = Atspi.EventListener.new(on_event)
    for name in events:
        if not listener.register(name):
            print(f"atspi_follow: could not listen to {name}", file=sys.stderr)
            return 2
    GLib.timeout_add(int(PATIENCE * 1000), give_up)
    print("listening", flush=True)
    loop.run()
    for name in events:
        listener.deregister(name)
    return result[0]


if __name__ == "__main__":
    sys.exit(main())
