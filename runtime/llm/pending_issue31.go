package llm

// The types below are the issue-31 contract's, declared here only so that app/chat
// builds before the llm helper's branch (h-llm) is merged: at merge this file is
// deleted in favour of h-llm's declarations, which have the same names and fields.

// ImageLimits are what a provider takes of an image: the longest edge, the shortest
// edge after the fit, the pixels and the bytes of one image, and its formats.
type ImageLimits struct {
	MaxEdge, MaxShortEdge, MaxPixels int
	MaxBytes                         int
	Formats                          []string
}

// Vision says whether a model sees images.
type Vision int

// The answers about a model's sight.
const (
	VisionUnknown Vision = iota
	VisionYes
	VisionNo
)
