// Package runtime is Wisp's agent: a character from config, a registry of actions with
// progressive callbacks, and the turn loop that streams the model, runs the actions it
// asks for, feeds their results back and repeats until the model stops calling tools or
// the step limit is reached. Everything a turn produces is reported as an Event.
//
// It talks to models only through runtime/llm and never imports app/: whoever runs a
// turn decides where its events go (the run log, a stream, a test).
package runtime
