// Package chat owns conversations and the runs that answer them: it starts a run per
// user message, records every run event in the run log (group commits to SQLite,
// published to subscribers only once on disk), folds the events into the visible reply,
// saves display messages, publishes heartbeats and titles conversations.
//
// It knows SQLite (app/store), the agent (runtime) and the frame catalog (app/wire),
// but not HTTP or the hub: the API reads runs through Subscriptions, each encoding the
// run's events with the dialect encoder (app/dialect) the API picked, frames for /ws
// leave through the one wire.Events sink, and failures are fault kinds.
package chat
