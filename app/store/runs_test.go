package store

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"testing"
	"time"
)

func mustCreateRun(t *testing.T, s *Store, r Run) {
	t.Helper()
	if err := s.CreateRun(context.Background(), r); err != nil {
		t.Fatal(err)
	}
}

func TestRunRoundTrip(t *testing.T) {
	tests := []struct {
		name      string
		in, want  Run
		wantNulls int // of conversation_id, user_message_id, error, ended_at
	}{
		{"status defaults to active",
			Run{ID: "r1", ConversationID: "c", UserMessageID: "m", StartedAt: at(10)},
			Run{ID: "r1", ConversationID: "c", UserMessageID: "m", Status: RunActive, StartedAt: at(10)}, 2},
		{"ephemeral run has no conversation",
			Run{ID: "r2", Status: RunPaused, StartedAt: at(10)},
			Run{ID: "r2", Status: RunPaused, StartedAt: at(10)}, 4},
		{"finished",
			Run{ID: "r3", ConversationID: "c", Status: RunFailed, Error: "boom", StartedAt: at(10), EndedAt: at(20)},
			Run{ID: "r3", ConversationID: "c", Status: RunFailed, Error: "boom", StartedAt: at(10), EndedAt: at(20)}, 1},
	}
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			mustCreateRun(t, s, tt.in)
			got, err := s.Run(ctx, tt.in.ID)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("got %+v\nwant %+v", got, tt.want)
			}
			var nulls int
			if err := s.db.QueryRow(`SELECT (conversation_id IS NULL) + (user_message_id IS NULL) + (error IS NULL)
				+ (ended_at IS NULL) FROM runs WHERE id = ?`, tt.in.ID).Scan(&nulls); err != nil || nulls != tt.wantNulls {
				t.Fatalf("NULL columns = %d, %v; want %d", nulls, err, tt.wantNulls)
			}
		})
	}
}

func TestCreateRunRejects(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	mustCreateRun(t, s, Run{ID: "r", ConversationID: "c", StartedAt: at(1)})
	if err := s.CreateRun(ctx, Run{ID: "x", ConversationID: "missing", StartedAt: at(1)}); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown conversation: err = %v, want ErrNotFound", err)
	}
	if err := s.CreateRun(ctx, Run{ID: "r", ConversationID: "c", StartedAt: at(1)}); err == nil || errors.Is(err, ErrNotFound) {
		t.Errorf("duplicate id: err = %v", err)
	}
	if err := s.CreateRun(ctx, Run{ID: "y", ConversationID: "c", Status: "running", StartedAt: at(1)}); err == nil {
		t.Errorf("unknown status accepted")
	}
	if err := s.CreateRun(ctx, Run{ID: "z", ConversationID: "c"}); err == nil {
		t.Errorf("run without a start time accepted")
	}
	if _, err := s.Run(ctx, "missing"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Run(missing): err = %v, want ErrNotFound", err)
	}
}

func TestActiveRuns(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	if got, err := s.ActiveRuns(ctx); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("no runs: %v, %v", got, err)
	}
	mustCreateConversation(t, s, "c", 1)
	for _, r := range []Run{
		{ID: "late", ConversationID: "c", StartedAt: at(30)},
		{ID: "paused", Status: RunPaused, StartedAt: at(20)},
		{ID: "ended", ConversationID: "c", Status: RunEnded, StartedAt: at(5), EndedAt: at(6)},
		{ID: "early", ConversationID: "c", StartedAt: at(10)},
		{ID: "failed", Status: RunFailed, StartedAt: at(1)},
	} {
		mustCreateRun(t, s, r)
	}
	got, err := s.ActiveRuns(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, r := range got {
		ids = append(ids, r.ID)
	}
	if want := []string{"early", "paused", "late"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("active runs %v, want %v", ids, want)
	}
	if err := s.EndRun(ctx, "early", RunInterrupted, "restart", at(40), nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.ActiveRuns(ctx); len(got) != 2 {
		t.Fatalf("after ending one: %v", got)
	}
}

func TestEndRun(t *testing.T) {
	reply := func(id string) *Message {
		return &Message{ID: id, Text: "the answer", Segments: json.RawMessage(`[]`), CallbackHistory: []string{"cb"}, CreatedAt: at(50)}
	}
	tests := []struct {
		name      string
		start     Run
		ephemeral bool // the run has no conversation
		status    string
		reply     *Message
		wantErr   error // nil: success; errAny: some error
		wantReply bool
	}{
		{"active ends with a reply", Run{Status: RunActive}, false, RunEnded, reply("a"), nil, true},
		{"paused fails without a reply", Run{Status: RunPaused}, false, RunFailed, nil, nil, false},
		{"interrupted with a reply", Run{Status: RunActive}, false, RunInterrupted, reply("a"), nil, true},
		{"reply time defaults to the end time", Run{Status: RunActive}, false, RunEnded, &Message{ID: "a", Text: "x"}, nil, true},
		{"already ended", Run{Status: RunEnded, EndedAt: at(2)}, false, RunEnded, reply("a"), ErrRunFinished, false},
		{"already failed", Run{Status: RunFailed, EndedAt: at(2)}, false, RunInterrupted, nil, ErrRunFinished, false},
		{"not a final status", Run{Status: RunActive}, false, RunPaused, reply("a"), errAny, false},
		{"reply that cannot be saved leaves the run live", Run{Status: RunActive}, false, RunEnded,
			&Message{ID: "a", Role: "tool", Text: "x", CreatedAt: at(50)}, errAny, false},
		{"ephemeral run cannot save a reply", Run{Status: RunActive}, true, RunEnded, reply("a"), ErrNotFound, false},
		{"ephemeral run ends", Run{Status: RunActive}, true, RunEnded, nil, nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := openTemp(t)
			ctx := context.Background()
			mustCreateConversation(t, s, "c", 1)
			r := tt.start
			r.ID, r.StartedAt = "r", at(1)
			if !tt.ephemeral {
				r.ConversationID = "c"
			}
			mustCreateRun(t, s, r)
			before, _ := s.Run(ctx, "r")

			err := s.EndRun(ctx, "r", tt.status, "why", at(50), tt.reply)
			switch {
			case tt.wantErr == nil && err != nil:
				t.Fatalf("err = %v", err)
			case tt.wantErr != nil && err == nil:
				t.Fatalf("no error, want %v", tt.wantErr)
			case tt.wantErr != nil && tt.wantErr != errAny && !errors.Is(err, tt.wantErr):
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}

			after, _ := s.Run(ctx, "r")
			if tt.wantErr != nil {
				if !reflect.DeepEqual(after, before) {
					t.Errorf("failed EndRun changed the run: %+v -> %+v", before, after)
				}
			} else if after.Status != tt.status || after.Error != "why" || !after.EndedAt.Equal(at(50)) {
				t.Errorf("run after EndRun = %+v", after)
			}

			msgs, _ := s.Messages(ctx, "c", 0)
			if got := len(msgs) == 1; got != tt.wantReply {
				t.Fatalf("reply saved = %v, want %v (%+v)", got, tt.wantReply, msgs)
			}
			c, _ := s.Conversation(ctx, "c")
			if tt.wantReply {
				want := *tt.reply
				want.Role, want.ConversationID, want.RunID, want.CreatedAt = "assistant", "c", "r", at(50)
				if !reflect.DeepEqual(msgs[0], want) {
					t.Errorf("reply %+v\nwant %+v", msgs[0], want)
				}
				if !c.UpdatedAt.Equal(at(50)) {
					t.Errorf("conversation updated_at = %v, want the reply's time", c.UpdatedAt)
				}
			} else if !c.UpdatedAt.Equal(at(1)) {
				t.Errorf("conversation updated_at = %v, want unchanged", c.UpdatedAt)
			}
		})
	}
}

// errAny stands for "some error" in table tests.
var errAny = errors.New("any error")

func TestEndRunTwice(t *testing.T) {
	s, _ := openTemp(t)
	ctx := context.Background()
	mustCreateConversation(t, s, "c", 1)
	mustCreateRun(t, s, Run{ID: "r", ConversationID: "c", StartedAt: at(1)})
	if err := s.EndRun(ctx, "r", RunEnded, "", at(2), &Message{ID: "a1", Text: "one", CreatedAt: at(2)}); err != nil {
		t.Fatal(err)
	}
	if err := s.EndRun(ctx, "r", RunFailed, "late", at(3), &Message{ID: "a2", Text: "two", CreatedAt: at(3)}); !errors.Is(err, ErrRunFinished) {
		t.Fatalf("second EndRun: err = %v, want ErrRunFinished", err)
	}
	if n, _ := s.MessageCount(ctx, "c"); n != 1 {
		t.Errorf("%d messages, want only the first reply", n)
	}
	if r, _ := s.Run(ctx, "r"); r.Status != RunEnded || r.Error != "" || !r.EndedAt.Equal(at(2)) {
		t.Errorf("run = %+v, want the first end kept", r)
	}
	mustCreateRun(t, s, Run{ID: "live", ConversationID: "c", StartedAt: at(1)})
	if err := s.EndRun(ctx, "live", RunEnded, "", time.Time{}, nil); err == nil {
		t.Error("EndRun without an end time accepted")
	}
	if err := s.EndRun(ctx, "missing", RunEnded, "", at(3), nil); !errors.Is(err, ErrNotFound) {
		t.Errorf("unknown run: err = %v, want ErrNotFound", err)
	}
}
