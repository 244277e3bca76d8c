#!/usr/bin/python3
"""Find an X11 window by name, and do to it what a window manager would.

  x11-window.py id NAME      prints the id (0x...) of the largest window named exactly NAME
  x11-window.py close NAME   sends WM_DELETE_WINDOW to that window (the close button)
  x11-window.py hide NAME    unmaps it (what a window manager does to iconify a window)
  x11-window.py show NAME    maps it again
  x11-window.py state NAME   prints "viewable" or "unmapped"
  x11-window.py click NAME X Y   clicks at X,Y in that window, as a user's mouse does (XTEST)

Used by the desktop smoke test and bench/desktopidle, where Xvfb runs without a window
manager (GTK takes an unmap it did not ask for as iconification, and WebKitGTK then
marks the page hidden). Exits 1 if no such window exists.
"""
import sys

from Xlib import X, display
from Xlib.ext import xtest
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
    click = len(sys.argv) == 5 and sys.argv[1] == "click"
    if not click and (len(sys.argv) != 3 or sys.argv[1] not in ("id", "close", "hide", "show", "state")):
        print(__doc__, file=sys.stderr)
        return 2
    d = display.Display()
    w = find(d, sys.argv[2])
    if w is None:
        print("no window named %r" % sys.argv[2], file=sys.stderr)
        return 1
    if sys.argv[1] == "id":
        print("0x%x" % w.id)
        return 0
    if sys.argv[1] in ("hide", "show"):
        w.unmap() if sys.argv[1] == "hide" else w.map()
        d.sync()
        return 0
    if click:
        # Real input through the XTEST extension: the toolkit takes it as the user's own
        # (a sent event is marked synthetic and counts for less).
        pos = d.screen().root.translate_coords(w, int(sys.argv[3]), int(sys.argv[4]))
        xtest.fake_input(d, X.MotionNotify, x=pos.x, y=pos.y)
        xtest.fake_input(d, X.ButtonPress, 1)
        xtest.fake_input(d, X.ButtonRelease, 1)
        d.sync()
        return 0
    if sys.argv[1] == "state":
        print("viewable" if w.get_attributes().map_state == X.IsViewable else "unmapped")
        return 0
    protocols = d.intern_atom("WM_PROTOCOLS")
    delete = d.intern_atom("WM_DELETE_WINDOW")
    ev = event.ClientMessage(window=w, client_type=protocols, data=(32, [delete, X.CurrentTime, 0, 0, 0]))
    w.send_event(ev, event_mask=X.NoEventMask)
    d.flush()
    g = w.get_geometry()
    print("x11-window: asked window 0x%x (%dx%d) to close" % (w.id, g.width, g.height))
    return 0


if __name__ == "__main__":
    sys.exit(main())
