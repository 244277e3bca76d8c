package app

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"testing"
)

// fakeService records its starts and stops in a shared log.
type fakeService struct {
	name string
	fail error
	log  *[]string
}

func (f fakeService) Start(context.Context) error {
	*f.log = append(*f.log, "start "+f.name)
	return f.fail
}

func (f fakeService) Stop() { *f.log = append(*f.log, "stop "+f.name) }

func TestLifecycleUnwindsWhatStarted(t *testing.T) {
	var log []string
	l := lifecycle{log: slog.New(slog.DiscardHandler)}
	ctx := context.Background()
	l.defer_("store", func() { log = append(log, "close store") })
	if err := l.start(ctx, "hub", fakeService{"hub", nil, &log}); err != nil {
		t.Fatal(err)
	}
	l.startOptional(ctx, "watch", fakeService{"watch", errors.New("no inotify"), &log}, "not watched")
	err := l.start(ctx, "chat", fakeService{"chat", errors.New("disk full"), &log})
	if err == nil || err.Error() != "start chat: disk full" {
		t.Fatalf("start error %v", err)
	}
	l.stop()
	l.stop() // a second stop stops nothing again
	want := []string{"start hub", "start watch", "start chat", "stop hub", "close store"}
	if !slices.Equal(log, want) {
		t.Fatalf("got %v, want %v", log, want)
	}
}
