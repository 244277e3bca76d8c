package archive

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/wispapp/wisp/app/store"
	"github.com/wispapp/wisp/internal/mdquote"
)

// mdTime is how Markdown shows a time: to the minute, in UTC.
func mdTime(t time.Time) string { return t.UTC().Format("2006-01-02 15:04 UTC") }

// writeMarkdown writes the export to read: a title per conversation, each message
// under its author and time, the tool calls of a reply listed after it, and a reply
// that failed or was cut says so.
func (e *Export) writeMarkdown(ctx context.Context, w *bufio.Writer) error {
	level := 1
	if e.all {
		level = 2
		fmt.Fprintf(w, "# Wisp conversations\n\nExported %s.\n", mdTime(e.at))
	}
	err := e.each(ctx, func(i int, r records) error {
		if i > 0 || e.all {
			w.WriteString("\n---\n\n")
		}
		e.s.markdownConversation(w, r, level, e.at, !e.all)
		return nil
	})
	if err != nil {
		return err
	}
	if e.all && len(e.convs) == 0 {
		w.WriteString("\nThere are no conversations.\n")
	}
	return nil
}

func (s *Service) markdownConversation(w *bufio.Writer, r records, level int, at time.Time, exported bool) {
	h := strings.Repeat("#", level)
	fmt.Fprintf(w, "%s %s\n\n", h, oneLine(r.conv.Title))
	fmt.Fprintf(w, "Started %s, last updated %s", mdTime(r.conv.CreatedAt), mdTime(r.conv.UpdatedAt))
	if exported {
		fmt.Fprintf(w, ", exported %s", mdTime(at))
	}
	fmt.Fprintf(w, ". Conversation %s.\n", code(r.conv.ID))
	if r.offBranch > 0 {
		fmt.Fprintf(w, "\nThe branch last shown: the other branches (%s) are in the JSON export only.\n",
			count(r.offBranch, "message"))
	}
	if len(r.messages) == 0 {
		w.WriteString("\nNo messages.\n")
		return
	}
	runs := make(map[string]store.Run, len(r.runs))
	for _, run := range r.runs {
		runs[run.ID] = run
	}
	calls := toolCallsByRun(r.display)
	for _, m := range r.messages {
		w.WriteString("\n")
		fmt.Fprintf(w, "%s# %s · %s\n\n", h, s.author(m), mdTime(m.CreatedAt))
		text := strings.TrimSpace(m.Text)
		if text == "" && len(r.files[m.ID]) == 0 {
			text = "*(no text)*"
		}
		if text != "" {
			w.WriteString(text + "\n")
		}
		if files := r.files[m.ID]; len(files) > 0 {
			if text != "" {
				w.WriteString("\n")
			}
			for _, a := range files {
				fmt.Fprintf(w, "📎 %s (%s)\n", oneLine(a.Name), humanSize(a.Blob.Size))
			}
		}
		if m.Role != "assistant" || m.RunID == "" {
			continue
		}
		if list := calls[m.RunID]; len(list) > 0 {
			w.WriteString("\nTool calls:\n\n")
			for _, c := range list {
				w.WriteString("- " + c + "\n")
			}
		}
		if note := runNote(runs[m.RunID]); note != "" {
			w.WriteString("\n" + note + "\n")
		}
	}
}

// humanSize is a size as people read it: 820 B, 14.2 KB, 3.1 MB.
func humanSize(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1e6)
}

// author names who wrote a message, and where a message Wisp sent on its own came from.
func (s *Service) author(m store.Message) string {
	if m.Role == "user" {
		return "You"
	}
	name := oneLine(s.agentName())
	switch m.Source {
	case "", "chat":
		return name
	case "chatgpt":
		return "ChatGPT"
	}
	return name + " (" + oneLine(m.Source) + ")"
}

// runNote says how a reply's run ended, when it did not end well.
func runNote(run store.Run) string {
	switch run.Status {
	case store.RunFailed:
		return "*The reply failed: " + oneLine(run.Error) + "*"
	case store.RunInterrupted:
		return "*The reply was interrupted: " + oneLine(run.Error) + "*"
	}
	return ""
}

// toolCallsByRun summarises the tool_call rows of each run: the tool's name, its
// status and the last line it showed.
func toolCallsByRun(rows []store.DisplayMessage) map[string][]string {
	out := map[string][]string{}
	for _, d := range rows {
		if d.ContentType != "tool_call" || d.RunID == "" {
			continue
		}
		var c struct {
			Name        string `json:"name"`
			DisplayText string `json:"displayText"`
			Error       string `json:"error"`
		}
		_ = json.Unmarshal(d.Content, &c)
		line := code(orDefault(c.Name, "tool"))
		if d.Status != "" {
			line += " — " + d.Status
		}
		if detail := orDefault(c.Error, c.DisplayText); detail != "" {
			line += ": " + oneLine(detail)
		}
		out[d.RunID] = append(out[d.RunID], line)
	}
	return out
}

// code quotes s as inline code, whatever backticks it holds.
func code(s string) string {
	s = oneLine(s)
	if !strings.Contains(s, "`") {
		return "`" + s + "`"
	}
	return mdquote.Inline(s)
}

// oneLine folds text onto one line (titles, headings, list items).
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// count says n of a noun: "1 message", "3 messages".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func orDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}
