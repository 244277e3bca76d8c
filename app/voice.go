package app

import (
	"bytes"
	"context"
	"io"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/voice"
	"github.com/wispapp/wisp/runtime/speech"
)

// voiceService is speech out and in on the live settings (docs/voice.md). It is
// cheap to build: it holds no state of its own, and its calls share one HTTP client.
func (a *App) voiceService() *voice.Service {
	return voice.New(voice.Options{
		Config: func() config.Voice { return a.settings.Live().Voice },
		Log:    a.log.With("service", "voice"),
	})
}

// Transcribe is what audio of MIME type mimeType says, through the configured
// transcription server: the desktop window's microphone hands its recordings here.
func (a *App) Transcribe(ctx context.Context, audio []byte, mimeType string) (string, error) {
	return a.voiceService().Transcribe(ctx, bytes.NewReader(audio), mimeType)
}

// spokenVoice is the voice the API serves: the text a client sends is read as speech
// first (speech.Spoken), so markdown, code and links are said as a reply's clauses
// are, not spelled out.
type spokenVoice struct{ *voice.Service }

var _ api.Voice = spokenVoice{}

func (v spokenVoice) Speak(ctx context.Context, text, voiceName string) (io.ReadCloser, string, error) {
	return v.Service.Speak(ctx, speech.Spoken(text), voiceName)
}
