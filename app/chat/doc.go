// Package chat owns conversations and the runs that answer them: it starts a run per
// user message, records every run event in the run log (group commits to SQLite,
// published to subscribers only once on disk), folds the events into the visible reply,
// saves display messages, publishes heartbeats and titles conversations.
//
// It knows SQLite (app/store) and the agent (runtime) but not HTTP or WebSocket: the
// API reads runs through Subscriptions and events for /ws leave through the Hub
// interface.
package chat
