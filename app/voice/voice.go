// Package voice speaks and listens through OpenAI-compatible audio servers: speech out
// with POST <tts.baseURL>/audio/speech and speech in with POST
// <stt.baseURL>/audio/transcriptions (docs/voice.md). The servers are the user's to
// choose and may be remote, so every call is bounded: connect and first-byte timeouts,
// a silence timeout while audio streams, capped sizes both ways, no redirects (the
// API key goes to the configured base URL only), and an upstream's error read bounded
// and passed on in its own words.
//
// It reads the live settings through a func on every call, and imports nothing of
// Wisp but app/config and internal/.
package voice

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/internal/fault"
)

// The bounds of a call.
const (
	// ConnectTimeout bounds connecting to a server (and its TLS handshake).
	ConnectTimeout = 10 * time.Second
	// FirstByteTimeout bounds the wait for a server's answer to begin; while speech
	// streams, it also bounds a silence between two reads.
	FirstByteTimeout = 30 * time.Second
	// MaxSpeechText is the longest text spoken at once, in characters (OpenAI's limit).
	MaxSpeechText = 4096
	// MaxSpeechAudio caps one speech answer: a server that sends more is cut off.
	MaxSpeechAudio = 50 << 20
	// MaxAudio is the largest audio transcribed at once (OpenAI's limit).
	MaxAudio = 25 << 20
	// maxErrorBody is how much of an upstream's error answer is read.
	maxErrorBody = 64 << 10
	// maxTranscriptBody is how much of a transcription answer is read.
	maxTranscriptBody = 1 << 20
	// maxVoiceName bounds a voice name given by a caller.
	maxVoiceName = 100
	// maxTranscribeWait bounds the wait for a transcription, whatever its size.
	maxTranscribeWait = 5 * time.Minute
)

// The errors of a voice that is not set up.
var (
	ErrNoSpeech        = fault.Unavailable.Errorf("speech is not set up: Settings → Voice")
	ErrNoTranscription = fault.Unavailable.Errorf("transcription is not set up: Settings → Voice")
)

// Options build a Service.
type Options struct {
	// Config reads the live voice settings.
	Config func() config.Voice
	// Client makes the calls; nil is a default one with ConnectTimeout that follows no
	// redirect.
	Client *http.Client
	// FirstByte replaces FirstByteTimeout (tests); 0 keeps it.
	FirstByte time.Duration
	Log       *slog.Logger
}

// Service is speech out and in.
type Service struct {
	config    func() config.Voice
	client    *http.Client
	firstByte time.Duration
	log       *slog.Logger
}

// New builds a service.
func New(o Options) *Service {
	if o.Config == nil {
		o.Config = func() config.Voice { return config.Voice{} }
	}
	if o.Client == nil {
		o.Client = sharedClient()
	}
	if o.FirstByte <= 0 {
		o.FirstByte = FirstByteTimeout
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Service{config: o.Config, client: o.Client, firstByte: o.FirstByte, log: o.Log}
}

// sharedClient is the default client, one for every Service, so they share its
// connections.
var sharedClient = sync.OnceValue(defaultClient)

// defaultClient connects within ConnectTimeout, waits FirstByteTimeout for headers
// and follows no redirect: a redirect would carry the key elsewhere, so it is refused
// with a message naming where it pointed.
func defaultClient() *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = (&net.Dialer{Timeout: ConnectTimeout, KeepAlive: 30 * time.Second}).DialContext
	tr.TLSHandshakeTimeout = ConnectTimeout
	tr.ResponseHeaderTimeout = maxTranscribeWait // the service's own timer is shorter for speech
	return &http.Client{Transport: tr, CheckRedirect: noRedirect}
}

func noRedirect(req *http.Request, _ []*http.Request) error {
	return fmt.Errorf("the server redirected to %s: set its final address as the base URL", req.URL.Redacted())
}

// CanSpeak reports whether a speech server is set.
func (s *Service) CanSpeak() bool { return strings.TrimSpace(s.config().TTS.BaseURL) != "" }

// CanListen reports whether a transcription server is set.
func (s *Service) CanListen() bool { return strings.TrimSpace(s.config().STT.BaseURL) != "" }

// endpoint joins a base URL (ending in /v1) and a path, refusing what is not http(s).
func endpoint(base, path string) (string, error) {
	base = strings.TrimRight(strings.TrimSpace(base), "/")
	u, err := url.Parse(base)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fault.Unavailable.Errorf("the voice server's base URL %q is not an http(s) URL: Settings → Voice", base)
	}
	return base + path, nil
}

// errFirstByte ends a call whose server did not answer in time.
var errFirstByte = errors.New("no answer in time")

// send makes req and waits up to wait for its answer to begin. The returned stop
// ends the call's context: the caller calls it once done with the body.
func (s *Service) send(ctx context.Context, req *http.Request, key string, wait time.Duration, what string) (*http.Response, context.CancelCauseFunc, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	timer := time.AfterFunc(wait, func() { cancel(errFirstByte) })
	res, err := s.client.Do(req.WithContext(ctx))
	if !timer.Stop() && err == nil {
		// The answer began as the time ran out: its body is already cut off.
		res.Body.Close()
		err = errFirstByte
	}
	if err != nil {
		cause := context.Cause(ctx)
		cancel(nil)
		switch {
		case errors.Is(cause, errFirstByte):
			s.log.Warn("voice server did not answer", "server", what, "wait", wait)
			return nil, nil, fault.Upstream.Errorf("the %s did not answer within %s", what, wait)
		case ctx.Err() != nil && errors.Is(err, context.Canceled):
			return nil, nil, err // the caller went away
		}
		return nil, nil, fault.Upstream.Errorf("the %s could not be reached: %s", what, reachError(err))
	}
	if res.StatusCode/100 != 2 {
		msg := upstreamMessage(readBounded(res, maxErrorBody))
		res.Body.Close()
		cancel(nil)
		if msg == "" {
			msg = http.StatusText(res.StatusCode)
		}
		s.log.Warn("voice server refused", "server", what, "status", res.StatusCode, "message", msg)
		return nil, nil, fault.Upstream.Errorf("the %s answered %d: %s", what, res.StatusCode, msg)
	}
	return res, cancel, nil
}

// reachError is a transport error without the URL Go repeats in it.
func reachError(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return err.Error()
}
