// Package speech turns a reply's text, as it streams, into the clauses Wisp speaks
// (Splitter), and guesses a reply's feeling from its words (Tone). It is pure: no
// I/O, no goroutines, nothing of Wisp. The text is the model's and untrusted: every
// step is linear in the input and every buffer is bounded (MaxClause).
package speech
