package tasks

import (
	"strings"
	"testing"
	"time"

	"github.com/wispapp/wisp/internal/fault"
)

// slots are the schedule's next n slots after from, as RFC 3339 in its zone.
func slots(t *testing.T, spec Spec, loc *time.Location, from time.Time, n int) []string {
	t.Helper()
	s, err := parse(spec, from, loc)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for at := from; len(out) < n; {
		at = s.next(at)
		if at.IsZero() {
			break
		}
		out = append(out, at.In(loc).Format(time.RFC3339))
	}
	return out
}

// RRULE and cron place their slots on the wall clock alike: a time clocks skip
// runs when they show it an hour on, and a time they show twice runs once.
func TestNextAcrossDST(t *testing.T) {
	ny := zone(t, "America/New_York")
	berlin := zone(t, "Europe/Berlin")
	cases := []struct {
		name string
		spec Spec
		loc  *time.Location
		from time.Time
		want []string
	}{
		{"cron spring forward: 02:30 does not exist, runs at 03:30", Spec{Cron: "30 2 * * *"}, ny,
			time.Date(2026, 3, 7, 12, 0, 0, 0, ny),
			[]string{"2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"}},
		{"rrule spring forward: the same", Spec{RRule: "FREQ=DAILY;BYHOUR=2;BYMINUTE=30"}, ny,
			time.Date(2026, 3, 7, 12, 0, 0, 0, ny),
			[]string{"2026-03-08T03:30:00-04:00", "2026-03-09T02:30:00-04:00"}},
		{"cron fall back: 01:30 happens twice, runs once", Spec{Cron: "30 1 * * *"}, ny,
			time.Date(2026, 10, 31, 12, 0, 0, 0, ny),
			[]string{"2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"}},
		{"rrule fall back: the same", Spec{RRule: "FREQ=DAILY;BYHOUR=1;BYMINUTE=30"}, ny,
			time.Date(2026, 10, 31, 12, 0, 0, 0, ny),
			[]string{"2026-11-01T01:30:00-04:00", "2026-11-02T01:30:00-05:00"}},
		{"rrule from inside the repeated hour does not run it again", Spec{RRule: "FREQ=DAILY;BYHOUR=1;BYMINUTE=30"}, ny,
			time.Date(2026, 11, 1, 6, 10, 0, 0, time.UTC), // 01:10 EST, after 01:30 EDT
			[]string{"2026-11-02T01:30:00-05:00"}},
		{"hourly cron lives the repeated hour once", Spec{Cron: "0 * * * *"}, ny,
			time.Date(2026, 11, 1, 0, 30, 0, 0, ny),
			[]string{"2026-11-01T01:00:00-04:00", "2026-11-01T02:00:00-05:00", "2026-11-01T03:00:00-05:00"}},
		{"every weekday at 9 in Berlin keeps 09:00 across its change", Spec{RRule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0"},
			berlin, time.Date(2026, 3, 27, 12, 0, 0, 0, berlin),
			[]string{"2026-03-30T09:00:00+02:00", "2026-03-31T09:00:00+02:00"}},
		{"Berlin spring forward: 02:30 runs at 03:30", Spec{Cron: "30 2 * * *"}, berlin,
			time.Date(2026, 3, 28, 12, 0, 0, 0, berlin),
			[]string{"2026-03-29T03:30:00+02:00", "2026-03-30T02:30:00+02:00"}},
		{"Berlin fall back: 02:30 runs once", Spec{Cron: "30 2 * * *"}, berlin,
			time.Date(2026, 10, 24, 12, 0, 0, 0, berlin),
			[]string{"2026-10-25T02:30:00+02:00", "2026-10-26T02:30:00+01:00"}},
		{"minutely across spring forward: each real minute once", Spec{Cron: "* * * * *"}, ny,
			time.Date(2026, 3, 8, 1, 58, 0, 0, ny),
			[]string{"2026-03-08T01:59:00-05:00", "2026-03-08T03:00:00-04:00", "2026-03-08T03:01:00-04:00"}},
		{"once", Spec{At: time.Date(2026, 5, 1, 8, 0, 0, 0, berlin)}, berlin, time.Date(2026, 4, 1, 0, 0, 0, 0, berlin),
			[]string{"2026-05-01T08:00:00+02:00"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := slots(t, tc.spec, tc.loc, tc.from, len(tc.want)+1)
			if len(tc.spec.At.String()) > 0 && !tc.spec.At.IsZero() {
				got = got[:min(len(got), len(tc.want)+1)]
			}
			if strings.Join(got[:min(len(got), len(tc.want))], " ") != strings.Join(tc.want, " ") {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := 1; i < len(got); i++ {
				if got[i] <= got[i-1] && got[i] == got[i-1] {
					t.Fatalf("a slot repeats: %v", got)
				}
			}
		})
	}
}

// What a schedule may not be is refused before anything is saved, saying why.
func TestScheduleRefused(t *testing.T) {
	ny := zone(t, "America/New_York")
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, ny)
	cases := []struct {
		name string
		spec Spec
		want string
	}{
		{"at in the past", Spec{At: now.Add(-time.Minute)}, "at is in the past"},
		{"cron that never fires", Spec{Cron: "0 0 30 2 *"}, "never fires"},
		{"rrule that ended", Spec{RRule: "FREQ=DAILY;UNTIL=20200101T000000Z"}, "never fires"},
		{"rrule every second", Spec{RRule: "FREQ=SECONDLY"}, "more often than once a minute"},
		{"rrule twice a minute", Spec{RRule: "FREQ=MINUTELY;BYSECOND=0,30"}, "more often than once a minute"},
		{"cron with six fields", Spec{Cron: "0 0 9 * * *"}, "cron: expected exactly 5 fields"},
		{"cron nonsense", Spec{Cron: "every day"}, "cron:"},
		{"rrule nonsense", Spec{RRule: "FREQ=SOMETIMES"}, "rrule:"},
		{"rrule with a DTSTART", Spec{RRule: "DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY"}, "without DTSTART"},
		{"rrule too long", Spec{RRule: "FREQ=DAILY;" + strings.Repeat("BYHOUR=1;", 100)}, "longer than"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s, err := parse(tc.spec, now, ny)
			if err == nil {
				_, err = s.check(now)
			}
			if err == nil || !strings.Contains(err.Error(), tc.want) || fault.KindOf(err) != fault.Invalid {
				t.Fatalf("got %v, want an invalid %q", err, tc.want)
			}
		})
	}
	for _, ok := range []Spec{{Cron: "* * * * *"}, {RRule: "FREQ=MINUTELY"}, {Cron: "@daily"}, {RRule: "RRULE:FREQ=HOURLY;COUNT=3"}} {
		s, err := parse(ok, now, ny)
		if err == nil {
			_, err = s.check(now)
		}
		if err != nil {
			t.Errorf("%+v refused: %v", ok, err)
		}
	}
}

func TestScheduleWords(t *testing.T) {
	berlin := zone(t, "Europe/Berlin")
	now := time.Date(2026, 6, 1, 12, 0, 0, 0, berlin)
	for spec, want := range map[Spec]string{
		{RRule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0"}: "every weekday at 09:00",
		{RRule: "FREQ=DAILY;BYHOUR=7;BYMINUTE=30"}:                      "every day at 07:30",
		{RRule: "FREQ=WEEKLY;BYDAY=SA;BYHOUR=10"}:                       "every Saturday at 10:00",
		{RRule: "FREQ=MONTHLY;BYMONTHDAY=1"}:                            "RRULE FREQ=MONTHLY;BYMONTHDAY=1",
		{Cron: "0 8 * * 1"}:                                             "cron 0 8 * * 1",
		{At: time.Date(2026, 7, 3, 18, 0, 0, 0, time.UTC)}:              "once, Fri 3 Jul 2026 20:00",
	} {
		s, err := parse(spec, now, berlin)
		if err != nil {
			t.Fatal(err)
		}
		if got := s.words(); got != want {
			t.Errorf("%+v: %q, want %q", spec, got, want)
		}
	}
}
