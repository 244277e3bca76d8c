package app

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/emotes"
	"github.com/wispapp/wisp/internal/jsonpatch"
	"github.com/wispapp/wisp/runtime"
)

// newEmotes opens the catalog on <state>/emotes and offers PLAY_EMOTE to the agent.
func (a *App) newEmotes() error {
	a.emotes = emotes.New(emotes.Options{
		Dir: filepath.Join(a.stateDir, "emotes"), Logger: a.log.With("component", "emotes"),
	})
	return a.actions.Register(runtime.Action{
		Name: "PLAY_EMOTE",
		Description: "Play an animation on your avatar, which the user sees next to the chat. Use it now " +
			"and then to show how you feel or to punctuate a moment (wave when greeting, dance to " +
			"celebrate, cry at sad news), at most once per reply and not in every reply.",
		Schema:  a.emoteSchema,
		Handler: a.runEmoteAction,
	})
}

// emoteSchema lists the emotes the agent may play, including the user's packs.
func (a *App) emoteSchema() json.RawMessage {
	schema, _ := json.Marshal(map[string]any{
		"type": "object",
		"properties": map[string]any{
			"emoteId": map[string]any{"type": "string", "enum": a.emotes.AgentIDs(), "description": "Which emote to play"},
		},
		"required": []string{"emoteId"},
	})
	return schema
}

func (a *App) runEmoteAction(_ context.Context, call runtime.Call) (string, error) {
	var args struct {
		EmoteID string `json:"emoteId"`
	}
	if err := json.Unmarshal(call.Args, &args); err != nil {
		return "", fmt.Errorf("arguments: %w", err)
	}
	e, ok := a.emotes.Get(args.EmoteID)
	if !ok || !emotes.ForAgent(e.ID) {
		return "", fmt.Errorf("unknown emote %q: choose one of %v", args.EmoteID, a.emotes.AgentIDs())
	}
	a.playEmote(e)
	if call.Callback != nil {
		call.Callback(e.Status, runtime.MergeReplace)
	}
	// Clients following the run see the emote and the avatar's state (docs/chat.md).
	call.Custom("emote", map[string]any{"emoteId": e.ID, "name": e.Name, "duration": e.Duration})
	if err := call.Patch(jsonpatch.Add("/avatar", map[string]string{"emote": e.ID, "name": e.Name})); err != nil {
		a.log.Warn("avatar state not recorded", "emote", e.ID, "err", err)
	}
	return fmt.Sprintf("Your avatar is playing %q (%s, %.1f s).", e.ID, e.Name, e.Duration), nil
}

// playEmote shows an emote on every client's avatar.
func (a *App) playEmote(e emotes.Emote) {
	a.events.Publish(wire.NewEmote(e.ID, e.GLBPath, e.Duration, e.Loop))
}

// emoteAPI serves the catalog to the API; playing an emote publishes it.
type emoteAPI struct {
	*emotes.Catalog
	play func(emotes.Emote)
}

var _ api.Emotes = emoteAPI{}

func (e emoteAPI) List(context.Context) []emotes.Emote { return e.Catalog.List() }
func (e emoteAPI) Get(_ context.Context, id string) (emotes.Emote, bool) {
	return e.Catalog.Get(id)
}
func (e emoteAPI) Open(_ context.Context, id string) (*emotes.Asset, error) {
	return e.Catalog.Open(id)
}
func (e emoteAPI) Play(_ context.Context, em emotes.Emote) { e.play(em) }
