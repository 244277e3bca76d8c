package llm

// ImageLimits are what a provider accepts of an image: the long edge, the short edge
// and the pixel count it fits images into (0: no bound), the largest encoded image in
// bytes, and the formats it reads ("png", "jpeg", "gif", "webp"; none: any).
//
// Declared here by the attachments branch until the llm helper's lands: replaced by
// the llm helper's at merge.
type ImageLimits struct {
	MaxEdge, MaxShortEdge, MaxPixels int
	MaxBytes                         int
	Formats                          []string
}
