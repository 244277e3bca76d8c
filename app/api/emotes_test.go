package api

import (
	"context"
	"testing"

	"github.com/wispapp/wisp/emotes"
)

func TestEmoteRoutes(t *testing.T) {
	wave := emotes.Emote{ID: "wave", Name: "Wave", GLBPath: "/emotes/wave.glb", Duration: 2.5}
	var played []string
	s := serveAPI(t, "", Options{Emotes: fakeEmotes{
		list: func(context.Context) []emotes.Emote { return []emotes.Emote{wave} },
		get: func(_ context.Context, id string) (emotes.Emote, bool) {
			return wave, id == "wave"
		},
		play: func(_ context.Context, e emotes.Emote) { played = append(played, e.ID) },
	}})
	list := s.call("GET", "/api/emotes", nil, nil)
	if list.status != 200 || list.body["avatar"] != AvatarPath || len(list.body["emotes"].([]any)) != 1 {
		t.Fatalf("list: %d %v", list.status, list.body)
	}
	for _, tc := range []struct {
		body any
		want string
	}{
		{map[string]string{"emoteId": "moonwalk"}, "Unknown emote: moonwalk"},
		{map[string]string{}, "emoteId is required"},
		{map[string]string{"emoteId": ""}, "emoteId is required"},
		{map[string]int{"emoteId": 3}, ""},
		{`{"emoteId": "wave"`, ""},
	} {
		got := s.call("POST", "/api/emote", tc.body, nil)
		if got.status != 400 || (tc.want != "" && got.body["error"] != tc.want) {
			t.Errorf("POST %v: %d %v, want 400 %q", tc.body, got.status, got.body, tc.want)
		}
	}
	if got := s.call("POST", "/api/emote", map[string]string{"emoteId": "wave"}, nil); got.status != 200 || got.body["ok"] != true {
		t.Fatalf("POST wave: %d %v", got.status, got.body)
	}
	if len(played) != 1 || played[0] != "wave" {
		t.Fatalf("played %v", played)
	}
	for _, path := range []string{"/emotes/none.glb", "/emotes/wave.txt", "/emotes/a/b.glb"} {
		if got := s.call("GET", path, nil, nil); got.status != 404 {
			t.Errorf("GET %s: %d", path, got.status)
		}
	}
}
