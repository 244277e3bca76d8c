// Any JSON object, before a decoder has checked it. A leaf: it imports nothing.
export type JsonObject = { [key: string]: unknown }
