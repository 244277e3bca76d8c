package llm

import (
	"encoding/json"

	"github.com/anthropics/anthropic-sdk-go"
)

// Anthropic request limits.
const (
	defaultAnthropicMaxTokens = 4096
	minThinkingBudget         = 1024 // the API's minimum; smaller budgets disable thinking
)

// anthropicParams maps req onto a Messages request. With thinking on, temperature is
// left out (the API only allows 1) and max_tokens is raised above the budget if needed.
// Images stand in the params as the markers of images (see imageSlots).
func anthropicParams(req Request, images *imageSlots) (anthropic.MessageNewParams, error) {
	tools, err := anthropicTools(req.Tools)
	if err != nil {
		return anthropic.MessageNewParams{}, err
	}
	msgs, err := anthropicMessages(req.Messages, images)
	if err != nil {
		return anthropic.MessageNewParams{}, err
	}
	params := anthropic.MessageNewParams{
		Model:    req.Model,
		Messages: msgs,
		Tools:    tools,
	}
	if req.System != "" {
		params.System = []anthropic.TextBlockParam{{Text: req.System}}
	}
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = defaultAnthropicMaxTokens
	}
	if req.ThinkingBudget >= minThinkingBudget {
		params.Thinking = anthropic.ThinkingConfigParamUnion{
			OfEnabled: &anthropic.ThinkingConfigEnabledParam{BudgetTokens: int64(req.ThinkingBudget)},
		}
		if maxTokens <= req.ThinkingBudget {
			maxTokens = req.ThinkingBudget + defaultAnthropicMaxTokens
		}
	} else if req.Temperature != nil {
		params.Temperature = anthropic.Float(*req.Temperature)
	}
	params.MaxTokens = int64(maxTokens)
	return params, nil
}

// anthropicMessages maps the conversation. Tool results become tool_result blocks of a
// user message, and consecutive user-side messages are merged into one, since the API
// wants roles to alternate and all results of a turn's calls in the next message.
// A user message's images come first, as base64 image blocks, then its text.
func anthropicMessages(msgs []Message, images *imageSlots) ([]anthropic.MessageParam, error) {
	var out []anthropic.MessageParam
	for _, m := range msgs {
		role := anthropic.MessageParamRoleUser
		var blocks []anthropic.ContentBlockParamUnion
		switch m.Role {
		case RoleAssistant:
			role = anthropic.MessageParamRoleAssistant
			blocks = assistantBlocks(m)
		case RoleTool:
			blocks = []anthropic.ContentBlockParamUnion{toolResultBlock(m)}
		default:
			for _, img := range m.Images {
				marker, err := images.add(img)
				if err != nil {
					return nil, err
				}
				blocks = append(blocks, anthropic.NewImageBlockBase64(img.MIME, marker))
			}
			if m.Text != "" { // the API rejects empty text blocks
				blocks = append(blocks, anthropic.NewTextBlock(m.Text))
			}
		}
		if len(blocks) == 0 {
			continue
		}
		if n := len(out); n > 0 && out[n-1].Role == role {
			out[n-1].Content = append(out[n-1].Content, blocks...)
			continue
		}
		out = append(out, anthropic.MessageParam{Role: role, Content: blocks})
	}
	return out, nil
}

// assistantBlocks echoes thinking first, then text, then tool calls, as the API
// produced them. Thinking without a signature (from another provider) is dropped:
// the API would reject it.
func assistantBlocks(m Message) []anthropic.ContentBlockParamUnion {
	var blocks []anthropic.ContentBlockParamUnion
	for _, t := range m.Thinking {
		switch {
		case t.Redacted != "":
			blocks = append(blocks, anthropic.NewRedactedThinkingBlock(t.Redacted))
		case t.Signature != "":
			blocks = append(blocks, anthropic.NewThinkingBlock(t.Signature, t.Text))
		}
	}
	if m.Text != "" {
		blocks = append(blocks, anthropic.NewTextBlock(m.Text))
	}
	for _, c := range m.ToolCalls {
		blocks = append(blocks, anthropic.NewToolUseBlock(c.ID, json.RawMessage(toolArguments(string(c.Arguments))), c.Name))
	}
	return blocks
}

func toolResultBlock(m Message) anthropic.ContentBlockParamUnion {
	result := anthropic.ToolResultBlockParam{ToolUseID: m.ToolCallID}
	if m.Text != "" {
		result.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: m.Text}}}
	}
	if m.IsError {
		result.IsError = anthropic.Bool(true)
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: &result}
}

// anthropicTools declares tools with their input schemas.
func anthropicTools(tools []Tool) ([]anthropic.ToolUnionParam, error) {
	var out []anthropic.ToolUnionParam
	for _, t := range tools {
		schema, err := schemaObject(t)
		if err != nil {
			return nil, err
		}
		input := anthropic.ToolInputSchemaParam{Properties: schema["properties"]}
		if req, ok := schema["required"].([]any); ok {
			for _, r := range req {
				if name, ok := r.(string); ok {
					input.Required = append(input.Required, name)
				}
			}
		}
		for k, v := range schema {
			if k != "type" && k != "properties" && k != "required" {
				if input.ExtraFields == nil {
					input.ExtraFields = map[string]any{}
				}
				input.ExtraFields[k] = v
			}
		}
		tool := anthropic.ToolParam{Name: t.Name, InputSchema: input}
		if t.Description != "" {
			tool.Description = anthropic.String(t.Description)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: &tool})
	}
	return out, nil
}
