// Package desktop is Wisp's Wails window: it starts the app, opens the window on
// the API, binds what the page calls as window.go.desktop (Desktop, System), and
// hands a second launch on the same state folder to the window already open. It
// records the microphone where WebKitGTK will not (mic.go, through the mic package).
// Everything else goes over HTTP and /ws like any other client. The Wails runtime
// is behind small interfaces (window.go, system.go, mic.go's eventSink) so what
// decides is tested with fakes. A build without the "desktop" tag (or with "headless") has no window: Run
// refuses. It must not be imported by app.
package desktop
