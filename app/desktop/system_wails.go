//go:build desktop && !headless

package desktop

import (
	"context"

	wailsruntime "github.com/wailsapp/wails/v2/pkg/runtime"
)

// wailsSystem is the Wails runtime as the System binding uses it (system.go): only
// calls through, so everything that decides is tested with a fake.
type wailsSystem struct{ wailsWindow }

var _ systemRuntime = wailsSystem{}

func (wailsSystem) InitializeNotifications(ctx context.Context) error {
	return wailsruntime.InitializeNotifications(ctx)
}

func (wailsSystem) CleanupNotifications(ctx context.Context) { wailsruntime.CleanupNotifications(ctx) }

func (wailsSystem) SendNotification(ctx context.Context, id, title, body string, data map[string]any) error {
	return wailsruntime.SendNotification(ctx, wailsruntime.NotificationOptions{ID: id, Title: title, Body: body, Data: data})
}

func (wailsSystem) OnNotificationResponse(ctx context.Context, fn func(action string, data map[string]any, err error)) {
	wailsruntime.OnNotificationResponse(ctx, func(r wailsruntime.NotificationResult) {
		fn(r.Response.ActionIdentifier, r.Response.UserInfo, r.Error)
	})
}

func (wailsSystem) BrowserOpenURL(ctx context.Context, url string) {
	wailsruntime.BrowserOpenURL(ctx, url)
}

func (wailsSystem) EventsEmit(ctx context.Context, name string) { wailsruntime.EventsEmit(ctx, name) }
