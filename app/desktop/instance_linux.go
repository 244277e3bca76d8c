//go:build desktop && !headless && linux

package desktop

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/wailsapp/wails/v2/pkg/options"
)

// handOverTimeout bounds the whole hand-over, so a session bus that does not answer
// cannot hold a second launch.
const handOverTimeout = 5 * time.Second

// showRunningWindow asks the desktop Wisp of the instance id to show its window: it
// calls, on the session bus, the service Wails' single-instance lock (Wails v2 on
// Linux) exports for that id, with what Wails hands to OnSecondInstanceLaunch. It
// fails when nobody serves that id (no session bus, or that Wisp is still starting).
func showRunningWindow(id string) error {
	ctx, cancel := context.WithTimeout(context.Background(), handOverTimeout)
	defer cancel()
	conn, err := dbus.ConnectSessionBus(dbus.WithContext(ctx))
	if err != nil {
		return fmt.Errorf("session bus: %w", err)
	}
	defer conn.Close()
	wd, _ := os.Getwd()
	msg, err := json.Marshal(options.SecondInstanceData{Args: os.Args[1:], WorkingDirectory: wd})
	if err != nil {
		return err
	}
	name := "wails_app_" + strings.NewReplacer("-", "_", ".", "_").Replace(id)
	service := "org." + name + ".SingleInstance"
	path := dbus.ObjectPath("/org/" + name + "/SingleInstance")
	if err := conn.Object(service, path).CallWithContext(ctx, service+".SendMessage", 0, string(msg)).Store(); err != nil {
		return fmt.Errorf("ask %s: %w", service, err)
	}
	return nil
}
