package app

import (
	"context"
	"io"
	"path/filepath"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/avatar"
	"github.com/wispapp/wisp/app/wire"
)

// avatarAPI serves the user's character (app/avatar) to the API; a change is published
// to every window as the avatar-changed frame.
type avatarAPI struct {
	store   *avatar.Store
	publish func(wire.Frame)
}

var _ api.Avatar = avatarAPI{}

// newAvatar opens the user's character in <state>/avatar.
func (a *App) newAvatar() {
	a.avatar = avatar.New(filepath.Join(a.stateDir, "avatar"), a.log.With("component", "avatar"))
}

// avatarAPI is the API's view of the user's character.
func (a *App) avatarAPI() avatarAPI {
	return avatarAPI{store: a.avatar, publish: a.events.Publish}
}

func (v avatarAPI) Current(context.Context) wire.Avatar { return v.store.Current() }

func (v avatarAPI) Limit() int64 { return v.store.Limit() }

func (v avatarAPI) Open(context.Context) (*avatar.File, error) { return v.store.Open() }

func (v avatarAPI) Save(ctx context.Context, name string, body io.Reader) (wire.Avatar, error) {
	got, err := v.store.Save(ctx, name, body)
	if err == nil {
		v.publish(wire.NewAvatarChanged(got))
	}
	return got, err
}

func (v avatarAPI) Remove(context.Context) (wire.Avatar, error) {
	got, err := v.store.Remove()
	if err == nil {
		v.publish(wire.NewAvatarChanged(got))
	}
	return got, err
}
