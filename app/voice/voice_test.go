package voice

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// service is a Service on cfg with its own default client (closed after the test)
// and firstByte as its first-byte timeout (0: the default).
func service(t *testing.T, cfg config.Voice, firstByte time.Duration) *Service {
	t.Helper()
	client := defaultClient()
	t.Cleanup(client.CloseIdleConnections)
	return New(Options{Config: func() config.Voice { return cfg }, Client: client, FirstByte: firstByte,
		Log: slog.New(slog.DiscardHandler)})
}

func ttsAt(url string) config.Voice { return config.Voice{TTS: config.TTS{BaseURL: url}} }
func sttAt(url string) config.Voice { return config.Voice{STT: config.STT{BaseURL: url}} }

// upstream serves h; it is closed after the test.
func upstream(t *testing.T, h http.HandlerFunc) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

func speakAll(t *testing.T, s *Service, text, voice string) ([]byte, string, error) {
	t.Helper()
	body, mt, err := s.Speak(context.Background(), text, voice)
	if err != nil {
		return nil, "", err
	}
	defer body.Close()
	data, err := io.ReadAll(body)
	return data, mt, err
}

func TestSpeakSendsOpenAIsRequest(t *testing.T) {
	fake := llmtest.New()
	defer fake.Close()
	for _, c := range []struct {
		name      string
		tts       config.TTS
		voice     string
		wantModel string
		wantVoice string
		wantSpeed float64
		wantAuth  string
	}{
		{"configured", config.TTS{Model: "kokoro", Voice: "af_bella", Speed: 1.2, APIKey: "sk-1"}, "", "kokoro", "af_bella", 1.2, "Bearer sk-1"},
		{"defaults", config.TTS{}, "", config.DefaultTTSModel, config.DefaultTTSVoice, 1, ""},
		{"asked voice, fast", config.TTS{Voice: "alloy", Speed: 9}, " shimmer ", config.DefaultTTSModel, "shimmer", config.MaxSpeechSpeed, ""},
		{"slow", config.TTS{Speed: 0.01}, "", config.DefaultTTSModel, config.DefaultTTSVoice, config.MinSpeechSpeed, ""},
	} {
		fake.ForgetRequests()
		c.tts.BaseURL = fake.OpenAIURL() + "/"
		s := service(t, config.Voice{TTS: c.tts}, 0)
		audio, mt, err := speakAll(t, s, "  Hello.  ", c.voice)
		if err != nil || mt != "audio/wav" || string(audio[:4]) != "RIFF" {
			t.Fatalf("%s: %v %q %d bytes", c.name, err, mt, len(audio))
		}
		got := fake.SpeechRequests()
		if len(got) != 1 {
			t.Fatalf("%s: %d requests", c.name, len(got))
		}
		r := got[0]
		if r.Model != c.wantModel || r.Input != "Hello." || r.Voice != c.wantVoice || r.Format != "wav" || r.Speed != c.wantSpeed ||
			r.Header.Get("Authorization") != c.wantAuth {
			t.Errorf("%s: sent %+v (auth %q)", c.name, r, r.Header.Get("Authorization"))
		}
	}
}

func TestSpeakRefusals(t *testing.T) {
	s := service(t, ttsAt("http://127.0.0.1:1/v1"), 0)
	for _, c := range []struct {
		name, text, voice string
		kind              fault.Kind
		want              string
	}{
		{"empty", " \n ", "", fault.Invalid, "no text"},
		{"too long", strings.Repeat("é", MaxSpeechText+1), "", fault.TooLarge, "4097 characters"},
		{"voice name", "Hi", strings.Repeat("v", 101), fault.Invalid, "voice name"},
	} {
		_, _, err := s.Speak(context.Background(), c.text, c.voice)
		if !fault.Is(err, c.kind) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if _, _, err := service(t, config.Voice{}, 0).Speak(context.Background(), "Hi", ""); err != ErrNoSpeech || err.Error() != "speech is not set up: Settings → Voice" {
		t.Errorf("not set up: %v", err)
	}
	for _, base := range []string{"ftp://example.com/v1", "example.com/v1", "http://"} {
		_, _, err := service(t, ttsAt(base), 0).Speak(context.Background(), "Hi", "")
		if !fault.Is(err, fault.Unavailable) || !strings.Contains(err.Error(), "not an http(s) URL") {
			t.Errorf("base %q: %v", base, err)
		}
	}
	if _, _, err := s.Speak(context.Background(), "Hi", ""); !fault.Is(err, fault.Upstream) || !strings.Contains(err.Error(), "could not be reached") {
		t.Errorf("nothing listening: %v", err)
	}
}

func TestUpstreamErrorsArePassedOn(t *testing.T) {
	huge := strings.Repeat("x", 10<<20)
	for _, c := range []struct {
		name   string
		status int
		ctype  string
		body   string
		want   string
	}{
		{"openai 401", 401, "application/json", `{"error":{"message":"Incorrect API key provided: sk-bad.","type":"invalid_request_error","param":null,"code":"invalid_api_key"}}`,
			"the speech server answered 401: Incorrect API key provided: sk-bad."},
		{"openai 500", 500, "application/json", `{"error":{"message":"The server had an error while processing your request.","type":"server_error"}}`,
			"the speech server answered 500: The server had an error while processing your request."},
		{"fastapi", 422, "application/json", `{"detail":[{"loc":["body","voice"],"msg":"Voice 'x' not found","type":"value_error"}]}`,
			"answered 422: Voice 'x' not found"},
		{"detail string", 400, "application/json", `{"detail":"Model not loaded"}`, "answered 400: Model not loaded"},
		{"plain text", 503, "text/plain", "busy\nloading model\n", "answered 503: busy loading model"},
		{"html", 502, "text/html", "<html><body>Bad gateway</body></html>", "answered 502: Bad Gateway"},
		{"empty", 404, "", "", "answered 404: Not Found"},
	} {
		srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
			if c.ctype != "" {
				w.Header().Set("Content-Type", c.ctype)
			}
			w.WriteHeader(c.status)
			io.WriteString(w, c.body)
		})
		_, _, err := speakAll(t, service(t, ttsAt(srv.URL+"/v1"), 0), "Hi", "")
		if !fault.Is(err, fault.Upstream) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
	// A hostile server's endless error: read bounded, its message cut short.
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(500)
		io.WriteString(w, huge)
	})
	_, _, err := speakAll(t, service(t, ttsAt(srv.URL+"/v1"), 0), "Hi", "")
	if !fault.Is(err, fault.Upstream) || len([]rune(err.Error())) > 400 || !strings.HasSuffix(err.Error(), "…") {
		t.Errorf("huge error: %d characters: %.80s", len(err.Error()), err)
	}
}

func TestSpeakRefusesWhatIsNotAudio(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, "<html>welcome to my router</html>")
	})
	_, _, err := speakAll(t, service(t, ttsAt(srv.URL), 0), "Hi", "")
	if !fault.Is(err, fault.Upstream) || !strings.Contains(err.Error(), "answered text/html; charset=utf-8, not audio") {
		t.Errorf("html: %v", err)
	}
}

func TestSpeakTimeouts(t *testing.T) {
	hang := make(chan struct{})
	defer close(hang)
	arrived := make(chan struct{}, 1)
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.URL.Path, "cancel") {
			arrived <- struct{}{}
		}
		if strings.Contains(r.URL.Path, "silent") {
			w.Header().Set("Content-Type", "audio/wav")
			io.WriteString(w, "RIFF")
			w.(http.Flusher).Flush()
		}
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	})
	s := service(t, ttsAt(srv.URL+"/v1"), 50*time.Millisecond)
	_, _, err := s.Speak(context.Background(), "Hi", "")
	if !fault.Is(err, fault.Upstream) || !strings.Contains(err.Error(), "did not answer within 50ms") {
		t.Errorf("no answer: %v", err)
	}
	data, _, err := speakAll(t, service(t, ttsAt(srv.URL+"/silent/v1"), 50*time.Millisecond), "Hi", "")
	if string(data) != "RIFF" || !errors.Is(err, errSilent) {
		t.Errorf("silence after the first bytes: %q %v", data, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-arrived
		cancel()
	}()
	if _, _, err := service(t, ttsAt(srv.URL+"/cancel/v1"), time.Minute).Speak(ctx, "Hi", ""); !errors.Is(err, context.Canceled) || fault.Is(err, fault.Upstream) {
		t.Errorf("the caller's cancel: %v", err)
	}
}

func TestSpeakCapsAnEndlessStream(t *testing.T) {
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "audio/wav")
		chunk := make([]byte, 1<<20)
		for r.Context().Err() == nil {
			if _, err := w.Write(chunk); err != nil {
				return
			}
		}
	})
	body, _, err := service(t, ttsAt(srv.URL), 0).Speak(context.Background(), "Hi", "")
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, body)
	body.Close()
	if n != MaxSpeechAudio || !errors.Is(err, errSpeechTooLong) {
		t.Errorf("read %d bytes, %v", n, err)
	}
}

func TestNoRedirectCarriesTheKey(t *testing.T) {
	var elsewhere atomic.Int32
	other := upstream(t, func(w http.ResponseWriter, r *http.Request) { elsewhere.Add(1) })
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/v1/audio/speech", http.StatusTemporaryRedirect)
	})
	cfg := ttsAt(srv.URL + "/v1")
	cfg.TTS.APIKey = "sk-secret"
	_, _, err := speakAll(t, service(t, cfg, 0), "Hi", "")
	if !fault.Is(err, fault.Upstream) || !strings.Contains(err.Error(), "redirected to "+other.URL) || elsewhere.Load() != 0 {
		t.Errorf("redirect: %v; the other server got %d requests", err, elsewhere.Load())
	}
}

func TestTranscribeSendsAMultipartFile(t *testing.T) {
	fake := llmtest.New()
	defer fake.Close()
	fake.SetTranscript("  Turn off the lights.  ")
	cfg := sttAt(fake.OpenAIURL())
	cfg.STT.Model, cfg.STT.APIKey = "whisper-large-v3", "gsk-1"
	s := service(t, cfg, 0)
	wav := append(llmtest.WAVHeader(320, 16000), make([]byte, 320)...)
	for _, c := range []struct{ mime, name, part string }{
		{"audio/wav", "speech.wav", "audio/wav"},
		{"audio/x-wav", "speech.wav", "audio/wav"},
		{"audio/webm; codecs=opus", "speech.webm", "audio/webm"},
		{"audio/ogg", "speech.ogg", "audio/ogg"},
		{"audio/mpeg", "speech.mp3", "audio/mpeg"},
		{"audio/mp4", "speech.m4a", "audio/mp4"},
		{"", "speech.wav", "audio/wav"},
		{"application/octet-stream", "speech.wav", "audio/wav"},
	} {
		fake.ForgetRequests()
		text, err := s.Transcribe(context.Background(), bytes.NewReader(wav), c.mime)
		if err != nil || text != "Turn off the lights." {
			t.Fatalf("%q: %q %v", c.mime, text, err)
		}
		got := fake.TranscriptionRequests()
		if len(got) != 1 || got[0].FileName != c.name || got[0].MIME != c.part || got[0].Bytes != len(wav) ||
			got[0].Model != "whisper-large-v3" || got[0].Format != "json" || got[0].Header.Get("Authorization") != "Bearer gsk-1" {
			t.Errorf("%q: sent %+v", c.mime, got)
		}
	}
}

func TestTranscribeRefusals(t *testing.T) {
	fake := llmtest.New()
	defer fake.Close()
	s := service(t, sttAt(fake.OpenAIURL()), 0)
	for _, c := range []struct {
		name  string
		audio io.Reader
		mime  string
		kind  fault.Kind
		want  string
	}{
		{"empty", strings.NewReader(""), "audio/wav", fault.Invalid, "no audio"},
		{"too large", io.LimitReader(zeros{}, MaxAudio+1), "audio/wav", fault.TooLarge, "larger than 25 MiB"},
		{"not audio", strings.NewReader("%PDF-1.7"), "application/pdf", fault.Invalid, `"application/pdf" is not one`},
	} {
		_, err := s.Transcribe(context.Background(), c.audio, c.mime)
		if !fault.Is(err, c.kind) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	if n := len(fake.TranscriptionRequests()); n != 0 {
		t.Errorf("%d refused requests were sent", n)
	}
	if _, err := service(t, config.Voice{}, 0).Transcribe(context.Background(), strings.NewReader("RIFF"), "audio/wav"); err != ErrNoTranscription {
		t.Errorf("not set up: %v", err)
	}
	fake.FailAudio(429, "Rate limit reached for whisper-1.")
	if _, err := s.Transcribe(context.Background(), strings.NewReader("RIFF"), "audio/wav"); !fault.Is(err, fault.Upstream) ||
		err.Error() != "the transcription server answered 429: Rate limit reached for whisper-1." {
		t.Errorf("upstream 429: %v", err)
	}
}

func TestTranscribeReadsTheAnswerBounded(t *testing.T) {
	for _, c := range []struct{ name, body, want string }{
		{"no text", `{"segments":[]}`, "has no text"},
		{"not json", `hello`, "has no text: hello"},
		{"huge", `{"text":"` + strings.Repeat("a", 2<<20) + `"}`, "larger than 1 MiB"},
	} {
		srv := upstream(t, func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, c.body) })
		_, err := service(t, sttAt(srv.URL), 0).Transcribe(context.Background(), strings.NewReader("RIFF"), "audio/wav")
		if !fault.Is(err, fault.Upstream) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.name, err)
		}
	}
	hang := make(chan struct{})
	defer close(hang)
	srv := upstream(t, func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-hang:
		case <-r.Context().Done():
		}
	})
	_, err := service(t, sttAt(srv.URL), 50*time.Millisecond).Transcribe(context.Background(), strings.NewReader("RIFF"), "audio/wav")
	if !fault.Is(err, fault.Upstream) || !strings.Contains(err.Error(), "the transcription server did not answer within 50ms") {
		t.Errorf("hang: %v", err)
	}
}

func TestCanSpeakAndListen(t *testing.T) {
	s := service(t, config.Voice{TTS: config.TTS{BaseURL: " "}, STT: config.STT{BaseURL: "http://x/v1"}}, 0)
	if s.CanSpeak() || !s.CanListen() {
		t.Errorf("CanSpeak %v, CanListen %v", s.CanSpeak(), s.CanListen())
	}
}

type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}
