package wire

// The voice and the face (docs/voice.md, docs/emotes.md): the spoken clauses of a
// reply, the avatar's expressions and the user's own character.

// TypeSpeech is the chat SSE frame (both dialects) of one spoken clause of the reply.
const TypeSpeech = "speech"

// Speech is one clause of the reply as it is spoken: the run cuts the reply's text
// into clauses while it streams (when voice.speakReplies is on) and sends each once it
// is whole, in order, so a window speaks the first clause while the model writes the
// rest. Text is what is said (markdown gone; a code block, a table or a link named,
// not read); Segment is the reply segment it was cut from and Start/End its bounds in
// that segment's text, in UTF-16 code units (JavaScript string indexes). Index numbers
// a run's clauses from 0. Final is set on the run's last clause.
type Speech struct {
	Head
	Index   int    `json:"index"`
	Text    string `json:"text"`
	Segment int    `json:"segment"`
	Start   int    `json:"start"`
	End     int    `json:"end"`
	Final   bool   `json:"final,omitempty"`
}

// NewSpeech is a speech frame.
func NewSpeech(index int, text string, segment, start, end int, final bool) Speech {
	return Speech{Head{TypeSpeech}, index, text, segment, start, end, final}
}

// ExpressionName is a feeling the avatar's face shows (the VRM 1.0 presets).
type ExpressionName string

// The expressions.
const (
	ExpressionNeutral   ExpressionName = "neutral"
	ExpressionHappy     ExpressionName = "happy"
	ExpressionSad       ExpressionName = "sad"
	ExpressionAngry     ExpressionName = "angry"
	ExpressionSurprised ExpressionName = "surprised"
	ExpressionRelaxed   ExpressionName = "relaxed"
)

// ExpressionNames are every ExpressionName.
var ExpressionNames = []ExpressionName{ExpressionNeutral, ExpressionHappy, ExpressionSad, ExpressionAngry,
	ExpressionSurprised, ExpressionRelaxed}

// TypeExpression is the /ws frame that sets the avatar's expression in every window.
const TypeExpression = "expression"

// Expression blends the avatar's face into a feeling at Intensity (0–1) and back to
// neutral after DurationMs (0: the face's own default, a few seconds). Neutral clears
// any expression at once. Source says who chose it: "agent" (an action), "tone" (the
// reply's tone) or "api".
type Expression struct {
	Head
	Expression ExpressionName `json:"expression"`
	Intensity  float64        `json:"intensity"`
	DurationMs int            `json:"durationMs"`
	Source     string         `json:"source"`
}

// NewExpression is an expression frame.
func NewExpression(name ExpressionName, intensity float64, durationMs int, source string) Expression {
	return Expression{Head{TypeExpression}, name, intensity, durationMs, source}
}

// AvatarKind is what the avatar model is.
type AvatarKind string

// The avatar kinds.
const (
	AvatarBuiltin AvatarKind = "builtin" // Wisp's own glTF character
	AvatarVRM     AvatarKind = "vrm"     // the user's VRM character
)

// AvatarKinds are every AvatarKind.
var AvatarKinds = []AvatarKind{AvatarBuiltin, AvatarVRM}

// Avatar is the character the stage shows (GET /api/avatar; POST /api/avatar answers
// it with 201, DELETE /api/avatar with the built-in one). URL loads the model; it
// changes when the model does. Name, Size and VRMVersion ("0" or "1") describe a VRM.
type Avatar struct {
	Kind       AvatarKind `json:"kind"`
	URL        string     `json:"url"`
	Name       string     `json:"name,omitempty"`
	Size       int64      `json:"size,omitempty"`
	VRMVersion string     `json:"vrmVersion,omitempty"`
}

// TypeAvatarChanged is the /ws frame sent when the user changes the character.
const TypeAvatarChanged = "avatar-changed"

// AvatarChanged tells every window to load another character.
type AvatarChanged struct {
	Head
	Avatar Avatar `json:"avatar"`
}

// NewAvatarChanged is an avatar-changed frame.
func NewAvatarChanged(a Avatar) AvatarChanged { return AvatarChanged{Head{TypeAvatarChanged}, a} }

// SpeechBody is POST /api/speech's body: the text to say, in the configured voice
// unless Voice names another. The answer is the audio (audio/wav), streamed.
type SpeechBody struct {
	Text  string `json:"text"`
	Voice string `json:"voice,omitempty"`
}

// ExpressionBody is POST /api/expression's body (→ OK and the expression frame).
type ExpressionBody struct {
	Expression ExpressionName `json:"expression"`
	Intensity  float64        `json:"intensity,omitempty"` // 0: 1
	DurationMs int            `json:"durationMs,omitempty"`
}

// Transcription answers POST /api/transcriptions: what the audio said.
type Transcription struct {
	Text string `json:"text"`
}

// VoiceStatus answers GET /api/voice: whether speech out (a speech server is set)
// and speech in (a transcription server is set) are set up.
type VoiceStatus struct {
	CanSpeak  bool `json:"canSpeak"`
	CanListen bool `json:"canListen"`
}
