//go:build desktop && !headless

package desktop

import (
	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// MicStart turns the microphone on: push-to-talk (false) or hands-free (true). The
// page calls it as window.go.desktop.Desktop.MicStart; see Mic.Start.
func (d *Desktop) MicStart(handsFree bool) error { return d.mic.Start(handsFree) }

// MicStop turns the microphone off and, after push-to-talk, returns the transcript;
// see Mic.Stop.
func (d *Desktop) MicStop() (string, error) { return d.mic.Stop() }

// wailsEvents sends the microphone's events to the page through the Wails runtime,
// once the window has started (before, there is no page to tell).
type wailsEvents struct{ win *window }

func (e wailsEvents) Emit(name string, data any) {
	if ctx := e.win.ctx.Load(); ctx != nil {
		wailsruntime.EventsEmit(*ctx, name, data)
	}
}

// transcriberOf is the app's speech-to-text (App.Transcribe), when this build has it.
func transcriberOf(a any) Transcriber {
	t, _ := a.(Transcriber)
	return t
}
