package approval

import "github.com/wispapp/wisp/app/wire"

// Page is a web page the agent would fetch (FETCH_URL): its base is its site.
type Page struct {
	URL, Reason string
}

func (Page) Kind() string     { return string(wire.KindWeb) }
func (Page) Noun() string     { return "a web page to be fetched" }
func (Page) Declined() string { return "to fetch this page" }

func (p Page) fill(r *request) { r.URL, r.Reason = p.URL, p.Reason }

// FileRead is a file or folder of files.roots the agent would read, list or search:
// its base is the root.
type FileRead struct {
	Path, Root, Reason string
}

func (FileRead) Kind() string     { return string(wire.KindFileRead) }
func (FileRead) Noun() string     { return "files to be read" }
func (FileRead) Declined() string { return "to read there" }

func (f FileRead) fill(r *request) { r.Path, r.Root, r.Reason = f.Path, f.Root, f.Reason }

// FileEdit is a change the agent would make to a file (EDIT_FILE, WRITE_FILE): the
// unified diff the user checks; its base is the root.
type FileEdit struct {
	Path, Root, Diff, Reason string
}

func (FileEdit) Kind() string     { return string(wire.KindFileEdit) }
func (FileEdit) Noun() string     { return "a change to a file" }
func (FileEdit) Declined() string { return "this change to the file" }

func (f FileEdit) fill(r *request) {
	r.Path, r.Root, r.Diff, r.Reason = f.Path, f.Root, f.Diff, f.Reason
}

// ScheduledTask is a task the agent would schedule (SCHEDULE_TASK): always asked,
// since it acts later on its own.
type ScheduledTask struct {
	Prompt, Schedule string
}

func (ScheduledTask) Kind() string     { return string(wire.KindTask) }
func (ScheduledTask) Noun() string     { return "a task to be scheduled" }
func (ScheduledTask) Declined() string { return "to schedule this task" }

func (t ScheduledTask) fill(r *request) { r.Text, r.Schedule = t.Prompt, t.Schedule }
