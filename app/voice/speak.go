package voice

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/internal/fault"
)

// speechRequest is OpenAI's POST /v1/audio/speech body.
type speechRequest struct {
	Model          string  `json:"model"`
	Input          string  `json:"input"`
	Voice          string  `json:"voice"`
	ResponseFormat string  `json:"response_format"`
	Speed          float64 `json:"speed"`
}

// SpeechFormat is the audio asked of the speech server: WAV decodes everywhere
// (WebKitGTK needs no extra GStreamer plugin) and without a decoder's delay.
const SpeechFormat = "wav"

// Speak asks the speech server to say text in voice ("" is the configured one) and
// returns its audio as it streams, with its MIME type; the caller closes body. The
// body ends with an error when the server sends more than MaxSpeechAudio or falls
// silent for FirstByteTimeout, and when ctx ends.
func (s *Service) Speak(ctx context.Context, text, voice string) (io.ReadCloser, string, error) {
	tts := s.config().TTS
	if strings.TrimSpace(tts.BaseURL) == "" {
		return nil, "", ErrNoSpeech
	}
	text = strings.TrimSpace(text)
	switch n := utf8.RuneCountInString(text); {
	case n == 0:
		return nil, "", fault.Invalid.Errorf("there is no text to say")
	case n > MaxSpeechText:
		return nil, "", fault.TooLarge.Errorf("the text is %d characters long; at most %d are said at once", n, MaxSpeechText)
	}
	voice = strings.TrimSpace(voice)
	if len(voice) > maxVoiceName {
		return nil, "", fault.Invalid.Errorf("a voice name is at most %d bytes long", maxVoiceName)
	}
	url, err := endpoint(tts.BaseURL, "/audio/speech")
	if err != nil {
		return nil, "", err
	}
	body, _ := json.Marshal(speechRequest{
		Model: or(tts.Model, config.DefaultTTSModel), Input: text, Voice: or(voice, or(tts.Voice, config.DefaultTTSVoice)),
		ResponseFormat: SpeechFormat, Speed: speed(tts.Speed),
	})
	req, err := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, "", fault.Unavailable.Errorf("the speech server's URL is not usable: %v", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "audio/wav, audio/*")
	res, stop, err := s.send(ctx, req, tts.APIKey, s.firstByte, "speech server")
	if err != nil {
		return nil, "", err
	}
	mt := res.Header.Get("Content-Type")
	if !audioType(mt) {
		res.Body.Close()
		stop(nil)
		return nil, "", fault.Upstream.Errorf("the speech server answered %s, not audio: check its base URL (it ends in /v1)", or(mt, "no Content-Type"))
	}
	return newStream(res.Body, stop, s.firstByte, MaxSpeechAudio), mt, nil
}

// audioType reports whether a Content-Type is audio (or a generic stream some
// servers label audio with).
func audioType(contentType string) bool {
	if contentType == "" {
		return false
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (strings.HasPrefix(mt, "audio/") || mt == "application/octet-stream")
}

// speed is the configured speed, clamped (0: 1).
func speed(v float64) float64 {
	if v == 0 {
		return 1
	}
	return min(max(v, config.MinSpeechSpeed), config.MaxSpeechSpeed)
}

func or(s, fallback string) string {
	if s = strings.TrimSpace(s); s != "" {
		return s
	}
	return fallback
}

// Errors of a speech stream cut off.
var (
	errSpeechTooLong = errors.New("the speech server sent more than 50 MiB of audio")
	errSilent        = errors.New("the speech server stopped sending audio")
)

// stream is a speech answer's body, bounded: at most limit bytes, and no silence
// longer than idle between reads (the call's context is cancelled then, which ends
// a blocked read).
type stream struct {
	body   io.ReadCloser
	stop   context.CancelCauseFunc
	idle   time.Duration
	left   int64
	timer  *time.Timer
	once   sync.Once
	silent atomic.Bool // the idle timer fired
}

func newStream(body io.ReadCloser, stop context.CancelCauseFunc, idle time.Duration, limit int64) *stream {
	st := &stream{body: body, stop: stop, idle: idle, left: limit}
	st.timer = time.AfterFunc(idle, func() {
		st.silent.Store(true)
		stop(errSilent)
	})
	return st
}

func (st *stream) Read(p []byte) (int, error) {
	if st.left <= 0 {
		return 0, errSpeechTooLong
	}
	if int64(len(p)) > st.left {
		p = p[:st.left]
	}
	n, err := st.body.Read(p)
	st.left -= int64(n)
	if n > 0 {
		st.timer.Reset(st.idle)
	}
	if err != nil && !errors.Is(err, io.EOF) && st.silent.Load() {
		err = errSilent
	}
	return n, err
}

// Close ends the call.
func (st *stream) Close() error {
	var err error
	st.once.Do(func() {
		st.timer.Stop()
		err = st.body.Close()
		st.stop(nil)
	})
	return err
}
