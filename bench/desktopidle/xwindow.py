"""Hides, shows or closes the largest X11 window named NAME, as a window manager would.

  xwindow.py hide NAME    unmaps it (what a window manager does to iconify a window)
  xwindow.py show NAME    maps it again
  xwindow.py close NAME   sends WM_DELETE_WINDOW (the close button)
  xwindow.py state NAME   prints "viewable" or "unmapped"

Run by bench/desktopidle (embedded in the driver) with python3-xlib, on an Xvfb
display without a window manager. GTK takes an unmap it did not ask for as
iconification, and WebKitGTK then marks the page hidden. Exits 1 if there is
no such window.
"""
import sys

from Xlib import X, display
from Xlib.protocol import event


def find(d, name):
    best, area = None, 0
    stack = [d.screen().root]
    while stack:
        w = stack.pop()
        try:
            if w.get_wm_name() == name:
                g = w.get_geometry()
                if g.width * g.height > area:
                    best, area = w, g.width * g.height
            stack.extend(w.query_tree().children)
        except Exception:  # windows can vanish while we walk the tree
            continue
    return best


def main():
    if len(sys.argv) != 3 or sys.argv[1] not in ("hide", "show", "close", "state"):
        print(__doc__, file=sys.stderr)
        return 2
    cmd, name = sys.argv[1], sys.argv[2]
    d = display.Display()
    w = find(d, name)
    if w is None:
        print("no window named %r" % name, file=sys.stderr)
        return 1
    if cmd == "hide":
        w.unmap()
    elif cmd == "show":
        w.map()
    elif cmd == "close":
        protocols = d.intern_atom("WM_PROTOCOLS")
        delete = d.intern_atom("WM_DELETE_WINDOW")
        ev = event.ClientMessage(window=w, client_type=protocols, data=(32, [delete, X.CurrentTime, 0, 0, 0]))
        w.send_event(ev, event_mask=X.NoEventMask)
    else:
        viewable = w.get_attributes().map_state == X.IsViewable
        print("viewable" if viewable else "unmapped")
    d.sync()
    return 0


if __name__ == "__main__":
    sys.exit(main())
