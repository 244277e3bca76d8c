//go:build desktop && !headless && linux

package desktop

/*
#cgo linux pkg-config: gtk+-3.0
#include <gtk/gtk.h>

static gboolean wisp_quit_main_loop(gpointer unused) {
	gtk_main_quit();
	return G_SOURCE_REMOVE;
}

// wisp_quit_soon asks the GTK main loop to end from its own thread: g_idle_add is
// safe from any thread, gtk_main_quit is not.
static void wisp_quit_soon(void) { g_idle_add(wisp_quit_main_loop, NULL); }
*/
import "C"

import "context"

// quitWindowLoop ends the window's main loop the way closing the window does: on the
// GTK main thread. (Wails' runtime.Quit calls gtk_main_quit on the calling goroutine's
// thread, which raced with WebKit and once crashed the process on SIGTERM.)
func quitWindowLoop(context.Context) { C.wisp_quit_soon() }
