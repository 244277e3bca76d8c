package tasks

import (
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
	"github.com/teambition/rrule-go"

	"github.com/wispapp/wisp/internal/fault"
)

// minGap is the shortest time allowed between two runs of a task.
const minGap = time.Minute

// gapSample is how many runs ahead a schedule's gaps are checked.
const gapSample = 64

// maxRuleBytes bounds an RRULE or a cron expression.
const maxRuleBytes = 512

// Spec is when a task runs: exactly one of At (once), RRule (RFC 5545) and Cron
// (five fields), evaluated in the machine's time zone.
type Spec struct {
	At          time.Time
	RRule, Cron string
}

// schedule gives a task's slots.
type schedule struct {
	spec Spec
	loc  *time.Location
	rule *rrule.RRule
	cron cron.Schedule
}

// cronParser reads five fields (and the @daily kind of descriptor).
var cronParser = cron.NewParser(cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// parse reads a spec; dtstart anchors an RRULE (its time of day when the rule names
// none). The error says what is wrong, in the parser's words.
func parse(spec Spec, dtstart time.Time, loc *time.Location) (*schedule, error) {
	s := &schedule{spec: spec, loc: loc}
	switch {
	case spec.RRule != "":
		if len(spec.RRule) > maxRuleBytes {
			return nil, fault.Invalid.Errorf("rrule is longer than %d bytes", maxRuleBytes)
		}
		text := strings.TrimPrefix(strings.TrimSpace(spec.RRule), "RRULE:")
		if strings.ContainsAny(text, "\r\n") || strings.Contains(strings.ToUpper(text), "DTSTART") {
			return nil, fault.Invalid.Errorf("rrule: give only the rule (FREQ=…;…), without DTSTART or other lines")
		}
		opt, err := rrule.StrToROption(text)
		if err != nil {
			return nil, fault.Invalid.Errorf("rrule: %v", err)
		}
		opt.Dtstart = floating(dtstart.In(loc).Truncate(time.Minute))
		r, err := rrule.NewRRule(*opt)
		if err != nil {
			return nil, fault.Invalid.Errorf("rrule: %v", err)
		}
		s.rule = r
	case spec.Cron != "":
		if len(spec.Cron) > maxRuleBytes {
			return nil, fault.Invalid.Errorf("cron is longer than %d bytes", maxRuleBytes)
		}
		c, err := cronParser.Parse(strings.TrimSpace(spec.Cron))
		if err != nil {
			return nil, fault.Invalid.Errorf("cron: %v", err)
		}
		s.cron = c
	case spec.At.IsZero():
		return nil, fault.Invalid.Errorf("give exactly one of at, rrule and cron")
	}
	return s, nil
}

// A recurring schedule is read on the wall clock: its rule runs on "floating" times
// (the machine's wall-clock time written as UTC, which has no daylight saving), and
// each slot found is placed on the machine's clock by time.Date. So a time the
// clocks skip when they go forward runs when they show it again an hour on (02:30
// becomes 03:30), and a time they show twice when they go back runs once, the first
// time: RRULE and cron behave alike across DST.

// floating is t's wall-clock time in its location, written as UTC.
func floating(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, t.Hour(), t.Minute(), t.Second(), 0, time.UTC)
}

// placed is a floating time on the machine's clock. A wall-clock time the clocks
// show twice is the first; one they skip (time.Date then answers with the offset from before the jump, an hour early)
// moves on by the jump: 02:30 on the night clocks go from 02:00 to 03:00 is 03:30.
func (s *schedule) placed(f time.Time) time.Time {
	y, m, d := f.Date()
	r := time.Date(y, m, d, f.Hour(), f.Minute(), f.Second(), 0, s.loc)
	if floating(r).Equal(f) {
		// A time shown twice (clocks went back) is its first showing: time.Date
		// may answer either.
		_, earlier := r.Add(-6 * time.Hour).Zone()
		_, now := r.Zone()
		if first := r.Add(-time.Duration(earlier-now) * time.Second); earlier > now && floating(first).Equal(f) {
			return first
		}
		return r
	}
	_, before := r.Zone()
	_, after := r.Add(6 * time.Hour).Zone()
	if jump := time.Duration(after-before) * time.Second; jump > 0 {
		return r.Add(jump)
	}
	return r
}

// floatNext is the rule's first floating slot strictly after f; zero when none.
func (s *schedule) floatNext(f time.Time) time.Time {
	if s.rule != nil {
		return s.rule.After(f, false)
	}
	return s.cron.Next(f)
}

// next is the first slot strictly after t, never at a wall-clock time t shows: when
// clocks go back, an hour is lived twice, and a task set for a time in it runs once.
func (s *schedule) next(t time.Time) time.Time {
	if s.rule == nil && s.cron == nil {
		if s.spec.At.After(t) {
			return s.spec.At
		}
		return time.Time{}
	}
	local := t.In(s.loc)
	f := floating(local)
	for range 8 {
		c := s.floatNext(f)
		if c.IsZero() {
			return time.Time{}
		}
		if r := s.placed(c); r.After(t) && !sameWall(r.In(s.loc), local) {
			return r
		}
		f = c
	}
	return time.Time{}
}

func sameWall(a, b time.Time) bool {
	ay, am, ad := a.Date()
	by, bm, bd := b.Date()
	return ay == by && am == bm && ad == bd && a.Hour() == b.Hour() && a.Minute() == b.Minute() && a.Second() == b.Second()
}

// check refuses a schedule that never fires after now or fires more often than
// every minute, and returns its first slot.
func (s *schedule) check(now time.Time) (time.Time, error) {
	first := s.next(now)
	if first.IsZero() {
		if !s.spec.At.IsZero() {
			return time.Time{}, fault.Invalid.Errorf("at is in the past: give a time after now (%s)", now.In(s.loc).Format(time.RFC3339))
		}
		return time.Time{}, fault.Invalid.Errorf("the schedule never fires after now: nothing would run")
	}
	prev := first
	for range gapSample {
		n := s.next(prev)
		if n.IsZero() {
			break
		}
		if n.Sub(prev) < minGap {
			return time.Time{}, fault.Invalid.Errorf("the schedule fires more often than once a minute (%s then %s): "+
				"a task runs at most every minute", prev.In(s.loc).Format(time.RFC3339), n.In(s.loc).Format(time.RFC3339))
		}
		prev = n
	}
	return first, nil
}

// latestDue is the latest slot at or before now, starting from slot (itself due),
// and how many slots it passed over. The walk is bounded: a minutely task off for
// years stops at the bound and resumes from now.
func (s *schedule) latestDue(slot, now time.Time) time.Time {
	for range 100_000 {
		n := s.next(slot)
		if n.IsZero() || n.After(now) {
			return slot
		}
		slot = n
	}
	return slot
}

// words says the schedule for a person, in the machine's time zone.
func (s *schedule) words() string {
	switch {
	case s.rule != nil:
		return ruleWords(s.rule.OrigOptions, s.spec.RRule)
	case s.cron != nil:
		return "cron " + strings.TrimSpace(s.spec.Cron)
	}
	return "once, " + s.spec.At.In(s.loc).Format("Mon 2 Jan 2006 15:04")
}

// ruleWords says the common rules in words ("every weekday at 09:00") and the
// others as they were given.
func ruleWords(o rrule.ROption, raw string) string {
	if o.Interval > 1 || o.Count > 0 || !o.Until.IsZero() || len(o.Bymonthday) > 0 || len(o.Bymonth) > 0 ||
		len(o.Bysetpos) > 0 || len(o.Byyearday) > 0 || len(o.Byweekno) > 0 || len(o.Byhour) > 1 || len(o.Byminute) > 1 {
		return "RRULE " + strings.TrimSpace(raw)
	}
	at := ""
	if len(o.Byhour) == 1 {
		m := 0
		if len(o.Byminute) == 1 {
			m = o.Byminute[0]
		}
		at = fmt.Sprintf(" at %02d:%02d", o.Byhour[0], m)
	}
	switch o.Freq {
	case rrule.DAILY:
		if len(o.Byweekday) == 0 {
			return "every day" + at
		}
	case rrule.WEEKLY:
		if days := weekdays(o.Byweekday); days != "" {
			return "every " + days + at
		}
	case rrule.HOURLY:
		if len(o.Byweekday) == 0 && at == "" {
			return "every hour"
		}
	}
	return "RRULE " + strings.TrimSpace(raw)
}

func weekdays(days []rrule.Weekday) string {
	if len(days) == 0 {
		return "week"
	}
	names := map[int]string{0: "Monday", 1: "Tuesday", 2: "Wednesday", 3: "Thursday", 4: "Friday", 5: "Saturday", 6: "Sunday"}
	set := map[int]bool{}
	for _, d := range days {
		if d.N() != 0 {
			return ""
		}
		set[d.Day()] = true
	}
	if len(set) == 5 && !set[5] && !set[6] {
		return "weekday"
	}
	var out []string
	for i := range 7 {
		if set[i] {
			out = append(out, names[i])
		}
	}
	return strings.Join(out, ", ")
}
