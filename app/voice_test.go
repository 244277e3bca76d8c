package app

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/runtime/llm/llmtest"
	"github.com/wispapp/wisp/secrets"
)

// The two voice keys are secrets like the model's: saved in Settings, they go to the
// keyring under their nested paths, stay out of the file and of GET /api/config, are
// read back at the next start, and reach only the configured servers.
func TestKeyringKeepsTheVoiceKeys(t *testing.T) {
	fake := llmtest.New()
	defer fake.Close()
	kr := secrets.NewFake(nil)
	dir := t.TempDir()
	a, _ := startKeyring(t, dir, "", kr, nil)
	put := a.do("PUT", "/api/config", `{"voice":{"tts":{"baseURL":"`+fake.OpenAIURL()+`","apiKey":"sk-tts-secret"},`+
		`"stt":{"baseURL":"`+fake.OpenAIURL()+`","apiKey":"gsk-stt-secret"}}}`, nil)
	if put.status != 200 {
		t.Fatalf("PUT: %d %v", put.status, put.body)
	}
	shown := put.body["secrets"].(map[string]any)
	if shown["voice.tts.apiKey"] != true || shown["voice.stt.apiKey"] != true {
		t.Fatalf("secrets %v", shown)
	}
	want := map[string]string{"voice.tts.apiKey": "sk-tts-secret", "voice.stt.apiKey": "gsk-stt-secret"}
	if got := kr.Values(); !equalMaps(got, want) {
		t.Fatalf("keyring %v", got)
	}
	file, raw := fileOf(t, a.App)
	if strings.Contains(raw, "secret\"") || !slices.Equal(strList(file[config.KeptKey]), []string{"voice.stt.apiKey", "voice.tts.apiKey"}) {
		t.Fatalf("file:\n%s", raw)
	}
	if view, _ := json.Marshal(a.do("GET", "/api/config", nil, nil).body); strings.Contains(string(view), "-secret") {
		t.Fatalf("GET /api/config shows a key: %s", view)
	}

	// The keys reach the servers they belong to; the text is said, not spelled out.
	req, _ := http.NewRequest("POST", a.URL()+"/api/speech",
		strings.NewReader(`{"text":"**Hello.** See [the docs](https://wisp.example/docs)."}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer "+ownTokenOf(a.App))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	audio, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(string(audio), "RIFF") {
		t.Fatalf("speech: %d %.200s", res.StatusCode, audio)
	}
	text, err := a.Transcribe(context.Background(), append(llmtest.WAVHeader(2, 16000), 0, 0), "audio/wav")
	if err != nil || text != llmtest.DefaultTranscript {
		t.Fatalf("Transcribe: %q %v", text, err)
	}
	sp, tr := fake.SpeechRequests(), fake.TranscriptionRequests()
	if len(sp) != 1 || sp[0].Header.Get("Authorization") != "Bearer sk-tts-secret" ||
		len(tr) != 1 || tr[0].Header.Get("Authorization") != "Bearer gsk-stt-secret" {
		t.Fatalf("the servers got %+v and %+v", sp, tr)
	}
	if sp[0].Input != "Hello. See the docs." {
		t.Fatalf("the speech server was asked to say %q", sp[0].Input)
	}
	a.Stop()

	again, _ := startKeyring(t, dir, "", kr, nil)
	if v := again.settings.Live().Voice; v.TTS.APIKey != want["voice.tts.apiKey"] || v.STT.APIKey != want["voice.stt.apiKey"] {
		t.Fatalf("read back %+v", v)
	}
	if put := again.do("PUT", "/api/config", `{"voice":{"tts":{"apiKey":null}}}`, nil); put.status != 200 {
		t.Fatalf("clear: %d %v", put.status, put.body)
	}
	if got := kr.Values(); !equalMaps(got, map[string]string{"voice.stt.apiKey": "gsk-stt-secret"}) {
		t.Fatalf("after clearing the speech key: keyring %v", got)
	}
}
