package wire

// The approvals of the agent's hands on the web and on files (docs/web.md,
// docs/files.md): a page to fetch (kind web, base its site, "example.com"), a file
// to read (kind file_read) or to change (kind file_edit, with the unified diff the
// change makes), each with the folder of files.roots it is under as its base, and
// a task the agent would schedule (kind task: always asked, never granted).
const (
	KindWeb      ApprovalKind = "web"
	KindFileRead ApprovalKind = "file_read"
	KindFileEdit ApprovalKind = "file_edit"
	KindTask     ApprovalKind = "task"
)

func exampleWebApproval() Approval {
	return Approval{ID: "ap_4", RunID: exRun, ConversationID: exConv, MessageID: "m1", CallID: "call_4", ToolName: "FETCH_URL",
		Bases: []string{"example.com"}, Grantable: []string{"example.com"}, AlwaysAsk: []string{}, Kind: KindWeb,
		URL: "https://docs.example.com/guide?page=2", Reason: "Read the guide you linked", Arguments: []byte("null"),
		Status: ApprovalPending, CreatedAt: exISO}
}

func exampleFileEditApproval() Approval {
	return Approval{ID: "ap_5", RunID: exRun, ConversationID: exConv, MessageID: "m1", CallID: "call_5", ToolName: "EDIT_FILE",
		Bases: []string{"/home/ada/project"}, Grantable: []string{"/home/ada/project"}, AlwaysAsk: []string{}, Kind: KindFileEdit,
		Path: "/home/ada/project/notes.md", Root: "/home/ada/project", Reason: "Fix the typo",
		Diff:      "--- a/notes.md\n+++ b/notes.md\n@@ -1,2 +1,2 @@\n # Notes\n-Helo\n+Hello\n",
		Arguments: []byte("null"), Status: ApprovalPending, CreatedAt: exISO}
}

func exampleTaskApproval() Approval {
	return Approval{ID: "ap_6", RunID: exRun, ConversationID: exConv, MessageID: "m1", CallID: "call_6", ToolName: "SCHEDULE_TASK",
		Bases: []string{}, Grantable: []string{}, AlwaysAsk: []string{}, Kind: KindTask,
		Text: "Check my inbox folder and summarise", Schedule: "every weekday at 09:00", Arguments: []byte("null"),
		Status: ApprovalPending, CreatedAt: exISO}
}
