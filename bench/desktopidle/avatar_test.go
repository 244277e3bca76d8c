package main

import (
	"strings"
	"testing"
)

func TestStartedURL(t *testing.T) {
	for _, tc := range []struct {
		line, want string
		ok         bool
	}{
		{`time=2026-11-28T07:10:00.000Z level=INFO msg="wisp started" url=http://127.0.0.1:41234 state=/tmp/s config=/tmp/s/wisp.json`, "http://127.0.0.1:41234", true},
		// The URL last on the line, or quoted.
		{`level=INFO msg="wisp started" url=http://127.0.0.1:8080`, "http://127.0.0.1:8080", true},
		{`level=INFO msg="wisp started" url="http://127.0.0.1:8080/" state="/tmp/a b"`, "http://127.0.0.1:8080", true},
		{`level=INFO msg="ui ready" api=true`, "", false},
		{`level=INFO msg="wisp started" url= state=/tmp/s`, "", false},
		{`level=INFO msg="wisp started" url=wails://wails state=/tmp/s`, "", false},
	} {
		got, err := startedURL(tc.line)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("startedURL(%q) = %q, %v; want %q (ok %v)", tc.line, got, err, tc.want, tc.ok)
		}
	}
}

func TestLineWatchKeepsTheLine(t *testing.T) {
	w := newLineWatch(avatarLine("vrm") + " ")
	// Written in pieces, and the built-in character's report does not match.
	for _, p := range []string{
		`level=INFO msg="ui report" event=avatar-loaded detail=builtin origin=wails://wails` + "\n",
		`level=INFO msg="ui report" event=avatar-loaded detail="vrm: bad" origin=wails://wails` + "\nlevel=INFO msg=\"ui rep",
		`ort" event=avatar-loaded detail=vrm origin=wails://wails` + "\n",
	} {
		select {
		case <-w.seen:
			t.Fatalf("seen before the VRM's report")
		default:
		}
		if _, err := w.Write([]byte(p)); err != nil {
			t.Fatal(err)
		}
	}
	select {
	case <-w.seen:
	default:
		t.Fatal("the VRM's report was not seen")
	}
	if got := w.line(); !strings.HasSuffix(got, `detail=vrm origin=wails://wails`) {
		t.Errorf("line() = %q", got)
	}
}

func TestFileName(t *testing.T) {
	if got := fileName(vrmName); got != "wisp--VRM-character" {
		t.Errorf("fileName(%q) = %q", vrmName, got)
	}
}
