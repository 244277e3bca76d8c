// Reading the ReplyStore from components: a selector reads one reply, so a
// component re-renders only when the entry it selects changes.

import { useCallback } from 'react'
import type { LiveReply } from './liveReply'
import type { LiveReplies } from './replyStore'
import { useStore } from './store'
import { useWisp } from './wispContext'

/** The live state of the reply with this bubble key (undefined for null: a bubble that is not streaming). */
export function useLiveReply(key: string | null): LiveReply | undefined {
  const { replies } = useWisp()
  const select = useCallback((all: LiveReplies) => (key === null ? undefined : all.get(key)), [key])
  return useStore(replies, select)
}
