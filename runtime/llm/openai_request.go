package llm

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/shared"
)

// params maps req onto a Chat Completions request; its images stand in it as the
// markers of images (see imageSlots).
func (p *OpenAI) params(req Request, images *imageSlots) (openai.ChatCompletionNewParams, error) {
	tools, err := openAITools(req.Tools)
	if err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	msgs, err := openAIMessages(req, images)
	if err != nil {
		return openai.ChatCompletionNewParams{}, err
	}
	params := openai.ChatCompletionNewParams{
		Model:         req.Model,
		Messages:      msgs,
		Tools:         tools,
		StreamOptions: openai.ChatCompletionStreamOptionsParam{IncludeUsage: openai.Bool(true)},
	}
	if req.Temperature != nil {
		params.Temperature = openai.Float(*req.Temperature)
	}
	if req.MaxTokens > 0 {
		if p.maxCompletionTokens {
			params.MaxCompletionTokens = openai.Int(int64(req.MaxTokens))
		} else {
			params.MaxTokens = openai.Int(int64(req.MaxTokens))
		}
	}
	return params, nil
}

// openAIMessages puts the system prompt first, then the conversation. Thinking is not
// sent back: no OpenAI-compatible server wants it, and DeepSeek rejects it.
func openAIMessages(req Request, images *imageSlots) ([]openai.ChatCompletionMessageParamUnion, error) {
	msgs := make([]openai.ChatCompletionMessageParamUnion, 0, len(req.Messages)+1)
	if req.System != "" {
		msgs = append(msgs, openai.SystemMessage(req.System))
	}
	for _, m := range req.Messages {
		switch m.Role {
		case RoleAssistant:
			msgs = append(msgs, openAIAssistant(m))
		case RoleTool:
			msgs = append(msgs, openai.ToolMessage(m.Text, m.ToolCallID))
		default:
			user, err := openAIUser(m, images)
			if err != nil {
				return nil, err
			}
			msgs = append(msgs, user)
		}
	}
	return msgs, nil
}

// openAIUser is a user message: its text as a plain string, or, when it shows
// images, an image_url part per image (a data URL) followed by a text part.
func openAIUser(m Message, images *imageSlots) (openai.ChatCompletionMessageParamUnion, error) {
	if len(m.Images) == 0 {
		return openai.UserMessage(m.Text), nil
	}
	parts := make([]openai.ChatCompletionContentPartUnionParam, 0, len(m.Images)+1)
	for _, img := range m.Images {
		marker, err := images.add(img)
		if err != nil {
			return openai.ChatCompletionMessageParamUnion{}, err
		}
		parts = append(parts, openai.ImageContentPart(openai.ChatCompletionContentPartImageImageURLParam{URL: marker}))
	}
	if m.Text != "" {
		parts = append(parts, openai.TextContentPart(m.Text))
	}
	return openai.UserMessage(parts), nil
}

// openAIAssistant is an assistant message with its tool calls; its content is left
// out (null) when it has tool calls and no text, as OpenAI does itself.
func openAIAssistant(m Message) openai.ChatCompletionMessageParamUnion {
	var a openai.ChatCompletionAssistantMessageParam
	if m.Text != "" || len(m.ToolCalls) == 0 {
		a.Content.OfString = openai.String(m.Text)
	}
	for _, c := range m.ToolCalls {
		args := string(c.Arguments)
		if args == "" {
			args = "{}"
		}
		a.ToolCalls = append(a.ToolCalls, openai.ChatCompletionMessageToolCallUnionParam{
			OfFunction: &openai.ChatCompletionMessageFunctionToolCallParam{
				ID:       c.ID,
				Function: openai.ChatCompletionMessageFunctionToolCallFunctionParam{Name: c.Name, Arguments: args},
			},
		})
	}
	return openai.ChatCompletionMessageParamUnion{OfAssistant: &a}
}

// openAITools declares tools as functions with their JSON Schema parameters.
func openAITools(tools []Tool) ([]openai.ChatCompletionToolUnionParam, error) {
	var out []openai.ChatCompletionToolUnionParam
	for _, t := range tools {
		schema, err := schemaObject(t)
		if err != nil {
			return nil, err
		}
		def := shared.FunctionDefinitionParam{Name: t.Name, Parameters: schema}
		if t.Description != "" {
			def.Description = openai.String(t.Description)
		}
		out = append(out, openai.ChatCompletionFunctionTool(def))
	}
	return out, nil
}

// schemaObject decodes a tool's parameter schema; a tool without one takes no arguments.
func schemaObject(t Tool) (map[string]any, error) {
	if len(t.Parameters) == 0 {
		return map[string]any{"type": "object", "properties": map[string]any{}}, nil
	}
	var schema map[string]any
	if err := json.Unmarshal(t.Parameters, &schema); err != nil {
		return nil, fmt.Errorf("tool %s: parameters are not a JSON object: %w", t.Name, err)
	}
	return schema, nil
}
