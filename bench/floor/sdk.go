//go:build sdk

package main

import (
	"github.com/anthropics/anthropic-sdk-go"
	aoption "github.com/anthropics/anthropic-sdk-go/option"
	"github.com/openai/openai-go/v3"
	ooption "github.com/openai/openai-go/v3/option"
)

// sdkCalls keeps the streaming calls Wisp makes in the binary; linkSDKs builds
// the two clients the way Wisp's providers do, so the floor+SDK binary pays
// for the same package initialisation and linked code.
var sdkCalls []any

func linkSDKs() {
	a := anthropic.NewClient(aoption.WithoutEnvironmentDefaults(), aoption.WithBaseURL("http://127.0.0.1:1/"), aoption.WithMaxRetries(0))
	o := openai.NewClient(ooption.WithBaseURL("http://127.0.0.1:1/v1"), ooption.WithAPIKey("floor"), ooption.WithMaxRetries(0))
	sdkCalls = append(sdkCalls, a.Messages.NewStreaming, o.Chat.Completions.NewStreaming)
}
