package main

import (
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/bench/benchkit"
)

// fakeRun is a run whose tree used the given ticks (100 a second) in each 30 s phase.
func fakeRun(visibleTicks, hiddenTicks int64) *runResult {
	r := &runResult{ready: 2 * time.Second, clean: true, procs: 3}
	r.seconds = [phases]float64{30, 30, 10}
	for p, ticks := range map[phase]int64{visible: visibleTicks, hidden: hiddenTicks, shown: visibleTicks / 3} {
		r.cpu[p] = usage{ticks: map[string]int64{"WebKitWebProces": ticks}, total: ticks}
	}
	for _, p := range []phase{visible, hidden} {
		r.mem[p] = memory{
			rss: map[string]int64{"wisp": 200 << 10, "WebKitWebProces": 320 << 10}, pss: map[string]int64{"wisp": 120 << 10, "WebKitWebProces": 240 << 10},
			count: map[string]int{"wisp": 1, "WebKitWebProces": 1}, rssTotal: 520 << 10, pssTotal: 360 << 10,
		}
	}
	return r
}

func fakeResults(targets ...*target) *results {
	env := benchkit.Env{Date: "2026-11-24 12:00 UTC", Commit: "abc1234", Go: "go1.26 linux/amd64", Kernel: "6.1", CPU: "EPYC", CPUs: 2,
		Binaries: []benchkit.Binary{{Name: "wisp", Path: "build/bin/wisp", Size: 72 << 20}}}
	cfg := config{runs: len(targets[0].runs), vrm: targets[len(targets)-1].vrm, settle: 15 * time.Second, hiddenSettle: 3 * time.Second, window: 30 * time.Second, shownWindow: 10 * time.Second, ticks: 100}
	return &results{env: env, cfg: cfg, targets: targets, ownXvfb: true}
}

func TestMarkdown(t *testing.T) {
	for _, tc := range []struct {
		name    string
		targets []*target
		want    []string
	}{
		{
			name:    "targets met",
			targets: []*target{{name: "wisp", runs: []*runResult{fakeRun(120, 15)}}},
			want: []string{
				"Measured 2026-11-24 12:00 UTC · commit abc1234 · wisp `build/bin/wisp` (72.0 MiB)",
				"1 run of the binary, each: the page painted, 15 s to settle, 30 s visible, 30 s hidden (after 3 s), 10 s shown again.",
				"| CPU, window visible, avatar idling (30 s), share of one core | **4.0%** | ≤ 5% | pass |",
				"| CPU, window hidden (unmapped, 30 s) | **0.5%** | ≤ 1% | pass |",
				"| RSS of Wisp and its WebKit processes, visible | 520 MiB |",
				"| PSS of the same, visible | 360 MiB |",
				"| `WebKitWebProces` | 1 | 4.0% | 0.5% | 320 MiB | 240 MiB |",
				"wisp: closed like a user closes the window, exit status 0: 1/1.",
			},
		},
		{
			name: "two characters, both checked",
			targets: []*target{
				{name: builtinName, checked: true, runs: []*runResult{fakeRun(120, 15)}},
				{name: vrmName, vrm: "frontend/e2e/fixtures/wisp-test.vrm", checked: true, runs: []*runResult{fakeRun(180, 60)}},
			},
			want: []string{
				"1 run of each character (the built-in one, and `frontend/e2e/fixtures/wisp-test.vrm` uploaded through `POST /api/avatar` once the page painted), taking turns",
				"| Figure | wisp, built-in character | wisp, VRM character | Target | Result |",
				"| CPU, window visible, avatar idling (30 s), share of one core | **4.0%** | **6.0%** | ≤ 5% | pass / **MISSED** |",
				"| CPU, window hidden (unmapped, 30 s) | **0.5%** | **2.0%** | ≤ 1% | pass / **MISSED** |",
				"By process, wisp, VRM character",
			},
		},
		{
			name: "missed, with a baseline",
			targets: []*target{
				{name: "wisp", runs: []*runResult{fakeRun(300, 60), fakeRun(200, 40), fakeRun(250, 50)}},
				{name: "before", runs: []*runResult{fakeRun(3000, 10), fakeRun(3000, 10), fakeRun(3000, 10)}},
			},
			want: []string{
				"3 runs of each binary, taking turns, each:",
				"| Figure | wisp | before | Target | Result |",
				"| CPU, window visible, avatar idling (30 s), share of one core | **8.3%** | 100.0% | ≤ 5% | **MISSED** |",
				"| CPU, window hidden (unmapped, 30 s) | **1.7%** | 0.3% | ≤ 1% | **MISSED** |",
				"By process, before",
				"before: closed like a user closes the window, exit status 0: 3/3.",
			},
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := fakeResults(tc.targets...).markdown()
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("markdown lacks %q:\n%s", w, got)
				}
			}
		})
	}
}
