#!/usr/bin/python3
"""Drops files or addresses on an X window as a file manager does, through the XDND protocol
(version 5): enter, position, drop, then the list handed over as text/uri-list when the window
asks for it. For tests of what a window does with a drop; xdotool cannot drag between programs.

Usage: xdnd-drop.py WINDOW_ID X Y [--shift] ITEM...   (X, Y inside the window; an ITEM that is a
path is sent as a file:// URI, one with a scheme as it is). Exits 0 once the window says it took
the drop, 1 when it refused it, 2 when it did not answer within 5 s.
"""
import os
import sys
import time
import urllib.parse

from Xlib import X, Xatom, display, protocol


def uri(item):
    if "://" in item:
        return item
    return "file://" + urllib.parse.quote(os.path.abspath(item))


def main():
    arguments = sys.argv[1:]
    shift = "--shift" in arguments
    arguments = [a for a in arguments if a != "--shift"]
    if len(arguments) < 4:
        sys.exit(__doc__)
    target_id, x, y = int(arguments[0], 0), int(arguments[1]), int(arguments[2])
    payload = ("".join(uri(item) + "\r\n" for item in arguments[3:])).encode()

    screen = display.Display()
    root = screen.screen().root
    atom = lambda name: screen.intern_atom(name)
    xdnd = {name: atom(name) for name in ["XdndAware", "XdndEnter", "XdndPosition", "XdndStatus", "XdndDrop", "XdndFinished",
                                          "XdndSelection", "XdndActionCopy", "XdndLeave"]}
    uri_list = atom("text/uri-list")
    source = root.create_window(0, 0, 1, 1, 0, X.CopyFromParent)
    source.set_selection_owner(xdnd["XdndSelection"], X.CurrentTime)
    target = screen.create_resource_object("window", target_id)
    aware = target.get_full_property(xdnd["XdndAware"], Xatom.ATOM)
    if aware is None:
        print("xdnd-drop: the window takes no drops (no XdndAware)", file=sys.stderr)
        sys.exit(1)
    version = min(5, aware.value[0])
    at = target.translate_coords(root, x, y)
    root_x, root_y = x - at.x, y - at.y

    def send(kind, data):
        event = protocol.event.ClientMessage(window=target, client_type=xdnd[kind], data=(32, data))
        target.send_event(event, propagate=False)
        screen.flush()

    if shift:
        # The window reads the modifiers when the drop comes: hold Shift through it.
        os.system("xdotool keydown shift")
    send("XdndEnter", [source.id, version << 24, uri_list, 0, 0])
    send("XdndPosition", [source.id, 0, (root_x << 16) | root_y, X.CurrentTime, xdnd["XdndActionCopy"]])
    deadline = time.monotonic() + 5
    dropped = False
    accepted = None
    while time.monotonic() < deadline:
        if not screen.pending_events():
            time.sleep(0.01)
            continue
        event = screen.next_event()
        if event.type == X.ClientMessage and event.client_type == xdnd["XdndStatus"]:
            accepted = bool(event.data[1][1] & 1)
            if not accepted:
                send("XdndLeave", [source.id, 0, 0, 0, 0])
                break
            if not dropped:
                send("XdndDrop", [source.id, 0, X.CurrentTime, 0, 0])
                dropped = True
        elif event.type == X.SelectionRequest:
            event.requestor.change_property(event.property, event.target, 8, payload)
            notify = protocol.event.SelectionNotify(time=event.time, requestor=event.requestor, selection=event.selection,
                                                     target=event.target, property=event.property)
            event.requestor.send_event(notify)
            screen.flush()
        elif event.type == X.ClientMessage and event.client_type == xdnd["XdndFinished"]:
            if shift:
                os.system("xdotool keyup shift")
            sys.exit(0)
    if shift:
        os.system("xdotool keyup shift")
    sys.exit(1 if accepted is False else 2)


if __name__ == "__main__":
    main()
