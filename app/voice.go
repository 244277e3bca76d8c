package app

import (
	"bytes"
	"context"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/voice"
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
