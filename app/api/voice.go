package api

import (
	"context"
	"errors"
	"io"
	"net/http"

	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
)

// Voice speaks and listens through the user's audio servers (docs/voice.md).
type Voice interface {
	// Speak streams text said in voice ("" the configured one): the audio and its
	// MIME type, for the caller to close.
	Speak(ctx context.Context, text, voice string) (io.ReadCloser, string, error)
	// Transcribe is what the audio (of MIME type mimeType) says.
	Transcribe(ctx context.Context, audio io.Reader, mimeType string) (string, error)
	CanSpeak() bool
	CanListen() bool
}

// MaxTranscriptionBytes is the largest audio POST /api/transcriptions takes.
const MaxTranscriptionBytes = 25 << 20

// voiceRoutes are speech out, speech in and their status.
func (s *Server) voiceRoutes(mux *http.ServeMux) {
	mux.Handle("GET /api/voice", s.handle(s.getVoice))
	mux.Handle("POST /api/speech", s.handle(s.postSpeech))
	mux.Handle("POST /api/transcriptions", withRawBody(s.handle(s.postTranscription)))
}

// getVoice answers whether speech out and in are set up.
func (s *Server) getVoice(w http.ResponseWriter, r *http.Request) error {
	return writeJSON(w, http.StatusOK, wire.VoiceStatus{CanSpeak: s.voice.CanSpeak(), CanListen: s.voice.CanListen()})
}

// postSpeech streams the audio of POST /api/speech {text, voice?} as the speech
// server sends it, flushed after every read. Once the audio has begun, a failure can
// only end it early; it is logged.
func (s *Server) postSpeech(w http.ResponseWriter, r *http.Request) error {
	var body wire.SpeechBody
	if err := decodeJSON(w, r, &body); err != nil {
		return err
	}
	audio, mimeType, err := s.voice.Speak(r.Context(), body.Text, body.Voice)
	if err != nil {
		return err
	}
	defer audio.Close()
	h := w.Header()
	h.Set("Content-Type", mimeType)
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(http.StatusOK)
	flusher, _ := w.(http.Flusher)
	buf := make([]byte, 32<<10)
	for {
		n, err := audio.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return nil // the client went away
			}
			if flusher != nil {
				flusher.Flush()
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			if r.Context().Err() == nil {
				s.log.Warn("speech cut off", "err", err)
			}
			return nil
		}
	}
}

// postTranscription transcribes the request's body, the audio's bytes as they are
// (Content-Type: audio/wav, audio/webm, ...), and answers {text}. A body over
// MaxTranscriptionBytes is refused (413) as soon as it passes it.
func (s *Server) postTranscription(w http.ResponseWriter, r *http.Request) error {
	if !s.voice.CanListen() {
		return s.refuseBody(w, fault.Unavailable.Errorf("transcription is not set up: Settings → Voice"))
	}
	if r.ContentLength > MaxTranscriptionBytes {
		return s.refuseBody(w, fault.TooLarge.Errorf("the audio is larger than 25 MiB, the most transcribed at once"))
	}
	body := http.MaxBytesReader(w, r.Body, MaxTranscriptionBytes)
	text, err := s.voice.Transcribe(r.Context(), body, r.Header.Get("Content-Type"))
	if err != nil {
		if fault.Is(err, fault.TooLarge) {
			w.Header().Set("Connection", "close")
		}
		return err
	}
	return writeJSON(w, http.StatusOK, wire.Transcription{Text: text})
}

// refuseBody refuses a request whose body is not read: the connection closes after
// the answer.
func (s *Server) refuseBody(w http.ResponseWriter, err error) error {
	w.Header().Set("Connection", "close")
	return err
}
