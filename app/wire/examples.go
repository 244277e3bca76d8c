package wire

import "encoding/json"

// Examples of every frame and shape, with every field used somewhere. They are the
// golden wire file the frontend's decoders are tested against (app's
// TestWireGolden writes them to frontend/src/api/testdata/wire.golden.json), so a
// field added here that the frontend does not read fails its tests.

const (
	exConv   = "7b0c9c4e-2f1a-4d8e-9a55-0c1d2e3f4a5b"
	exRun    = "0e9d8c7b-6a59-4837-a625-1403f2e1d0c9"
	exMsg    = "5a4b3c2d-1e0f-4a9b-8c7d-6e5f4a3b2c1d"
	exTime   = int64(1763715600000) // 2025-11-21T09:00:00Z
	exISO    = "2025-11-21T09:00:00.000Z"
	exCallID = "call_1"
)

func exampleStatus(restart bool) Status {
	s := Status{
		State: StateRunning, AgentName: "Wisp", Model: "llama3.2", Provider: "ollama", CanRespond: false,
		CanRespondReason: "Wisp is restarting", StartedAt: exTime, Uptime: 61000,
		ConfigError: "config file wisp.json is not valid JSON", AutonomyEnabled: true, Confinement: ConfinementPartial,
		ConfinementReason: "Agent commands and MCP servers are confined by Landlock, but this kernel's Landlock (ABI 3) " +
			"cannot restrict network connections (Linux 6.7 or later can), so they can connect to Wisp's port.",
	}
	if restart {
		s.RestartState = NewRestartState([]string{"Shell access enabled", "Server port changed: 2138 → 3000"})
	}
	return s
}

func exampleConversation() Conversation {
	return Conversation{ID: exConv, Title: "Stretching", RoomID: "3c2b1a09-8f7e-4d6c-b5a4-9382716f5e4d",
		CreatedAt: exISO, UpdatedAt: "2025-11-21T09:05:00.000Z", Metadata: json.RawMessage(`{"pinned":true}`), Unread: true}
}

func exampleDisplayMessage() DisplayMessage {
	return DisplayMessage{ID: "d1", ConversationID: exConv, RunID: exRun, MessageType: "assistant", ContentType: "tool_call",
		Content: json.RawMessage(`{"callId":"call_1","name":"PLAY_EMOTE","arguments":{"emoteId":"wave"},"displayText":"Waving 👋"}`),
		Status:  "executing", ToolCallID: exCallID, CreatedAt: exTime, UpdatedAt: exTime + 40}
}

func exampleReminders() []Reminder {
	conv := exConv
	return []Reminder{
		{ID: "r1", ConversationID: &conv, Text: "stretch", At: "2025-11-21T09:20:00.000Z", CreatedAt: exISO, Status: "pending"},
		{ID: "r2", Text: "tea", At: exISO, CreatedAt: exISO, Status: "delivered", DeliveredAt: "2025-11-21T10:00:00.000Z",
			Late: true, MessageID: exMsg},
	}
}

func terminalExamples() []Frame {
	start := NewTerminalOutput("run-1763715600000-a1b2c3", "tab-1", 1, TerminalStart)
	start.Command, start.MaxDurationMs = "make test", 300000
	out := NewTerminalOutput("run-1763715600000-a1b2c3", "tab-1", 2, TerminalStdout)
	out.Data = "ok\r\n\x1b[32mPASS\x1b[0m\r\n"
	errOut := NewTerminalOutput("run-1763715600000-a1b2c3", "tab-1", 3, TerminalStderr)
	errOut.Data = "warning\r\n"
	timeout := NewTerminalOutput("run-1763715600000-a1b2c3", "tab-1", 4, TerminalTimeout)
	timeout.MaxDurationMs = 300000
	exit := NewTerminalOutput("run-1763715600000-a1b2c3", "tab-1", 5, TerminalExit)
	exit.Code = 124
	failed := NewTerminalOutput("run-1763715600001-d4e5f6", "", 1, TerminalError)
	failed.Data = "the shell could not be started"
	return []Frame{start, out, errOut, timeout, exit, failed}
}

func envelopeExamples() []Frame {
	seq := int64(3)
	agent := NewRunEvent("auto-7", seq, StreamAutonomy, AutonomyPayload{Kind: "decision", Decision: "silent", Reason: "nothing new"})
	agent.SessionKey, agent.AgentID, agent.RoomID = "session-1", "wisp", "room-1"
	beat := NewTurnHeartbeat(TurnHeartbeat{TS: exTime, Status: "replying", To: "chat", Preview: "Hello", DurationMs: 420,
		ConversationID: exConv, RunID: exRun})
	training := NewEnvelope(TypeTrainingEvent, StreamSystem, json.RawMessage(`{"note":"any JSON object"}`))
	out := []Frame{agent, beat, training}
	for i, f := range out {
		e := f.(Envelope)
		e.Version, e.EventID, e.TS = 1, FormatEventID(int64(41+i)), exTime+int64(i)
		out[i] = e
	}
	return out
}

// Examples are frames of every catalog type (several where fields depend on the
// case), as the server and clients send them.
func Examples() []Frame {
	late := true
	frames := []Frame{
		NewStatus(exampleStatus(true)), NewStatus(exampleStatus(false)),
		NewPong(), NewAuthOK(), NewSocketError("unknown message type: nope"),
		NewConversationUpdated(exampleConversation()),
		NewConversationBranch(exConv, "m5"),
		NewDisplayMessageSaved(exampleDisplayMessage()), NewDisplayMessageUpdated(exampleDisplayMessage()),
		NewEmote("wave", "/emotes/wave.glb", 2.5, false),
		NewRestartRequired([]string{"Shell access enabled"}),
		NewConfigError("config file wisp.json is not valid JSON"),
		NewConfigChanged([]string{"model.temperature", "character.name"}),
		NewProactive(exConv, ProactiveMessage{ID: exMsg, Role: "assistant", Text: "Reminder: stretch", Timestamp: exTime,
			Source: "reminder", ReminderID: "r1", Late: &late}),
		NewProactive(exConv, ProactiveMessage{ID: exMsg, Role: "assistant", Text: "Your build finished.", Timestamp: exTime, Source: "terminal"}),
		NewReminderUpdated(exampleReminders()[0]), NewReminderUpdated(exampleReminders()[1]),
		NewReminderDeleted("r1"),
		NewReplayTruncated("evt-12", "evt-2183"),

		NewToken("lo", "Hello", false), NewToken("Hello\n\nWaving 👋", "Hello\n\nWaving 👋", true),
		NewThinking("The user greets me.", false), NewThinking("", true),
		NewToolStart(exCallID, "PLAY_EMOTE", json.RawMessage(`{"emoteId":"wave"}`)),
		NewToolEnd(exCallID, "PLAY_EMOTE", `Your avatar is playing "wave".`, ""),
		NewToolEnd("call_2", "SCHEDULE_REMINDER", "", "at is in the past"),
		NewDone("Hello\n\nWaving 👋", "Wisp", exRun, exMsg, []string{"Waving 👋"}, UsageOf(812, 36)),
		NewChatError("the model sent nothing for 2m0s", true, false),
		NewChatError("The reply was interrupted: stopped by the user", false, true),

		NewTokenDelta("lo", 0, false), NewTokenDelta(" again", 2, false), NewTokenDelta("Waving 👋", 1, true),
		NewReply([]string{"Hello", "Waving 👋", ""}, "Hello\n\nWaving 👋"),

		Auth{Head{TypeAuth}, "a-long-secret-token"}, Ping{Head{TypePing}},
		ActiveConversation{Head{TypeActiveConversation}, json.RawMessage(`"` + exConv + `"`)},
		ActiveConversation{Head{TypeActiveConversation}, json.RawMessage(`null`)},
		TerminalInput{Head{TypeTerminalInput}, "run-1763715600000-a1b2c3", "y\r", "terminal-secret"},
		TerminalResize{Head{TypeTerminalResize}, "run-1763715600000-a1b2c3", 120, 40},
	}
	frames = append(frames, envelopeExamples()...)
	frames = append(frames, approvalExamples()...)
	frames = append(frames, NewMCPServers(exampleMCPServers()), NewMemoryUpdated(exampleMemory()))
	frames = append(frames, stateExamples()...)
	frames = append(frames, summaryFrameExamples()...)
	frames = append(frames, voiceExamples()...)
	frames = append(frames, taskExamples()...)
	return append(frames, terminalExamples()...)
}

// ShapeExamples are the shapes the chat, reminder and status routes answer with and
// the envelope payloads, by name.
func ShapeExamples() map[string][]any {
	conv := exampleConversation()
	conv2 := conv
	conv2.Metadata, conv2.Unread = nil, false
	reminders := exampleReminders()
	shapes := map[string][]any{
		"Approval": {exampleApproval(false), exampleApproval(true), exampleMCPApproval(), exampleMemoryApproval(),
			exampleWebApproval(), exampleFileEditApproval(), exampleTaskApproval()},
		"Task":          {exampleTasks()[0], exampleTasks()[1], exampleTasks()[2]},
		"FileEdit":      {exampleFileEdits()[0], exampleFileEdits()[1]},
		"Memory":        {exampleMemory(), Memory{MaxBytes: 16384, Character: "Wisp"}},
		"MemoryHistory": {exampleMemoryHistory(), MemoryHistory{Versions: []MemoryVersion{}}},
		"MCPServer":     {exampleMCPServers()[0], exampleMCPServers()[1]},
		"ImportResult":  {exampleImportResult()},
		"RunState":      {exampleRunState()},
		"SecretStore": {
			SecretStore{Where: SecretsInKeyring, Service: "wisp:/home/ada/.local/state/wisp/wisp.json", Unread: []string{}},
			SecretStore{Where: SecretsInFile, Service: "wisp:/home/ada/.local/state/wisp/wisp.json",
				Reason: "no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is not set)", Unread: []string{"model.apiKey"}},
		},
		"Grant":        {Grant{ID: "gr_1", Kind: KindShell, Base: "git", CreatedAt: exISO}, Grant{ID: "gr_2", Kind: KindMCP, Base: "github.create_issue", CreatedAt: exISO}},
		"Conversation": {conv, conv2},
		"Message": {
			Message{ID: "m1", Role: "user", Text: "remind me to stretch in 20 minutes", Timestamp: exTime,
				SiblingIDs: []string{"m1"}, Attachments: exampleAttachments()},
			Message{ID: exMsg, Role: "assistant", Text: "🔍 Looking up track...\n\nNow playing: **Song**", Timestamp: exTime + 900,
				Source: "chat", RunID: exRun, Status: "ended", ActionCallbackHistory: []string{"🔍 Looking up track...", "Now playing: **Song**"},
				ParentID: ptr("m1"), SiblingIDs: []string{"m0", exMsg}, SiblingIndex: 1, Depth: 1, Usage: exampleMessageUsage(true)},
			Message{ID: "m3", Role: "assistant", Text: "Reminder (late: it was due Fri 21 Nov 09:20): stretch", Timestamp: exTime,
				Source: "reminder", ReminderID: "r1", Late: true, ParentID: ptr(exMsg), SiblingIDs: []string{"m3"}, Depth: 2},
			Message{ID: "m4", Role: "assistant", Text: "Partial", Timestamp: exTime, Source: "chat", RunID: exRun, Status: "failed",
				Error: "the model refused the key", ParentID: ptr("m3"), SiblingIDs: []string{"m4"}, Depth: 3, Usage: exampleMessageUsage(false)},
		},
		"DisplayMessage": {exampleDisplayMessage()},
		"RunInfo": {
			RunInfo{ID: exRun, ConversationID: exConv, UserMessageID: "m1", Status: "failed", Error: "the model refused the key",
				StartedAt: exTime, EndedAt: exTime + 1500},
			RunInfo{ID: exRun, Status: "active", StartedAt: exTime},
		},
		"Snapshot": {
			Snapshot{Messages: []Message{{ID: "m1", Role: "user", Text: "clean the build", Timestamp: exTime, SiblingIDs: []string{"m1"},
				Attachments: exampleAttachments()},
				{ID: exMsg, Role: "assistant", Text: "Let me look.", Timestamp: exTime, Source: "chat", RunID: exRun, Status: "active",
					ParentID: ptr("m1"), SiblingIDs: []string{exMsg}, Depth: 1}},
				ActiveRun:      &RunInfo{ID: exRun, ConversationID: exConv, UserMessageID: "m1", Status: "paused", StartedAt: exTime},
				StreamSequence: 42, Status: "paused"},
			Snapshot{Messages: []Message{
				{ID: "m3", Role: "assistant", Text: "Reminder: stretch", Timestamp: exTime, Source: "reminder", ReminderID: "r1", Late: true,
					ParentID: ptr("m2"), SiblingIDs: []string{"m3"}, Depth: 8},
				{ID: "m4", Role: "assistant", Text: "Partial", Timestamp: exTime, Source: "chat", RunID: exRun, Status: "failed",
					Error: "the model refused the key", ActionCallbackHistory: []string{"🔍 Looking up track..."},
					ParentID: ptr("m3"), SiblingIDs: []string{"m4"}, Depth: 9, Usage: exampleMessageUsage(true)}},
				Status: "failed"},
			Snapshot{Messages: []Message{}, ActiveRun: &RunInfo{ID: exRun, Status: "failed", Error: "x", StartedAt: exTime, EndedAt: exTime + 1},
				Status: "ended"},
		},
		"SendResult": {SendResult{Text: "Hello", AgentName: "Wisp", RunID: exRun, MessageID: exMsg,
			Usage: UsageOf(10, 2), ActionCallbackHistory: []string{"Waving 👋"}, Status: "ended"},
			SendResult{Text: "", AgentName: "Wisp", RunID: exRun, MessageID: exMsg, ActionCallbackHistory: []string{},
				Status: "interrupted", Error: "stopped by the user"}},
		"Reminder": {reminders[0], reminders[1]},
		"AutonomyState": {
			AutonomyState{Enabled: true, IntervalMs: 30000, MaxPerHour: 4, CooldownMs: 120000, SentLastHour: 1,
				LastTickAt: exTime, NextTickAt: exTime + 30000},
			AutonomyState{IntervalMs: 30000, MaxPerHour: 4, CooldownMs: 120000},
		},
		"Status": {exampleStatus(true)},
		"TurnHeartbeat": {TurnHeartbeat{TS: exTime, Status: "sent", To: "chat", Preview: "Hello", DurationMs: 900,
			ConversationID: exConv, RunID: exRun}},
		"AutonomyPayload": {
			AutonomyPayload{Kind: "tick", Tick: 7}, AutonomyPayload{Kind: "thought", Text: "Nothing new."},
			AutonomyPayload{Kind: "decision", Decision: "speak"},
			AutonomyPayload{Kind: "decision", Decision: "silent", Reason: "nothing new"},
			AutonomyPayload{Kind: "skipped", Reason: "cooldown"}, AutonomyPayload{Kind: "error", Message: "no model"},
		},
		"AssistantPayload": {AssistantPayload{Text: "Your build failed.", Source: "autonomy"}},
		"SearchResults":    exampleSearchResults(),
		"ContextInfo":      exampleContext(),
		"Summary":          {exampleSummary(SummaryDone), exampleSummary(SummaryFailed)},
	}
	for name, examples := range usageExamples() {
		shapes[name] = examples
	}
	return shapes
}

func ptr(s string) *string { return &s }

func exampleAttachments() []Attachment {
	return []Attachment{
		{ID: "att_1", Name: "screenshot.png", MIME: "image/png", Size: 48213, Kind: AttachmentImage,
			SHA256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08", Width: 1280, Height: 720},
		{ID: "att_2", Name: "report.pdf", MIME: "application/pdf", Size: 913114, Kind: AttachmentPDF,
			SHA256: "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752", Pages: 12},
	}
}

func voiceExamples() []Frame {
	return []Frame{
		NewSpeech(0, "Hello!", 0, 0, 6, false),
		NewSpeech(1, "Here is how: a code block.", 0, 7, 58, true),
		NewExpression(ExpressionHappy, 0.8, 3000, "agent"),
		NewAvatarChanged(Avatar{Kind: AvatarVRM, URL: "/avatar/user.vrm?v=3f2a9c1e", Name: "Alicia.vrm", Size: 10482000,
			VRMVersion: "1"}),
		NewAvatarChanged(Avatar{Kind: AvatarBuiltin, URL: "/avatar/wisp.glb"}),
	}
}
