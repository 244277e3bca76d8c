package mcp

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
)

// MaxActionLen is the longest tool name the model APIs take (OpenAI and Anthropic:
// 64 characters of letters, digits, _ and -).
const MaxActionLen = 64

// ActionName is the agent's name for a server's tool: server__tool, with every
// character the model APIs refuse replaced by _, and cut to MaxActionLen with a hash
// of the real names when longer (two tools never share a name: see names).
func ActionName(server, tool string) string {
	name := clean(server) + "__" + clean(tool)
	if len(name) <= MaxActionLen {
		return name
	}
	return name[:MaxActionLen-9] + "_" + digest(server, tool)
}

// names gives each (server, tool) its action name, unique among them: a name two
// tools would share (cleaning made them equal) gets the hash of the real names.
func names(server string, tools []string) []string {
	out := make([]string, len(tools))
	count := map[string]int{}
	for i, t := range tools {
		out[i] = ActionName(server, t)
		count[out[i]]++
	}
	for i, t := range tools {
		if count[out[i]] > 1 {
			n := ActionName(server, t)
			out[i] = n[:min(len(n), MaxActionLen-9)] + "_" + digest(server, t)
		}
	}
	return out
}

func digest(server, tool string) string {
	sum := sha256.Sum256([]byte(server + "\x00" + tool))
	return hex.EncodeToString(sum[:4])
}

func clean(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "_"
	}
	return b.String()
}
