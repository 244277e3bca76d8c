// The chat controller of WispProvider: opens conversations (and keeps the
// URL hash and the socket's active-conversation in step), sends messages,
// drives their reply streams (chatRunner.ts), resumes a reply that was
// still running when the page loaded, stops the streaming reply (its run is
// cancelled on the server, and the stream then ends with an "interrupted"
// frame), retries failed or stopped replies, reloads the open conversation
// when /ws missed events, and renames or deletes conversations.
//
// The frames of a streaming reply go to the ReplyStore (one update per
// animation frame, read by the reply's bubble only); how the reply ends, and
// everything else, goes through the reducer.

import { useEffect, useLayoutEffect, useMemo, useRef } from 'react'
import { ApiError, type ApiClient, type ChatFrame, type ClientMessage } from '../api'
import { isReplying, retryable, streamingReply } from './chat'
import { errorMessage, runReply, type ReplyStart } from './chatRunner'
import { conversationFromHash, hashForConversation } from './hashRoute'
import { EMPTY_LIVE_REPLY, isLiveFrame, liveOf, type LiveReply } from './liveReply'
import type { Action, AppState } from './reducer'
import type { ReplyStore } from './replyStore'

export interface ChatActions {
  /** Opens a conversation, or a new chat for null. */
  open(conversationId: string | null): void
  /** Sends text in the open conversation (creating it first for a new chat); false when it cannot now. */
  send(text: string): boolean
  /** Sends the prompt of a failed last reply again (or picks up its run if it is still going). */
  retry(replyKey: string): void
  /** Stops the reply that is streaming: cancels its run, at once or as soon as the run is known. */
  stop(): void
  /**
   * Reloads the open conversation from the server as opening it does (its
   * messages and display messages), after /ws missed events. While this page
   * streams a reply, that reply goes on and only the display messages and
   * what Wisp said on its own are caught up.
   */
  reload(): void
  /** Renames; rejects with ApiError for the caller to show. */
  rename(conversationId: string, title: string): Promise<void>
  /** Deletes; rejects with ApiError for the caller to show. */
  remove(conversationId: string): Promise<void>
}

type Dispatch = (action: Action) => void

const ignoreFrame = (_frame: ChatFrame) => undefined

interface Current {
  session: number
  conversationId: string | null
}

function writeHash(id: string | null): void {
  if (conversationFromHash(location.hash) === id) return
  const url = id === null ? `${location.pathname}${location.search}` : hashForConversation(id)
  history.replaceState(history.state, '', url)
}

export function useChat(
  api: ApiClient | null,
  state: AppState,
  dispatch: Dispatch,
  sendWs: (msg: ClientMessage) => void,
  replies: ReplyStore,
  /** Sees every frame of every reply stream (the approvals take run_paused and run_resumed). */
  onFrame: (frame: ChatFrame) => void = ignoreFrame,
): ChatActions {
  const apiRef = useRef(api)
  const stateRef = useRef(state)
  const sendWsRef = useRef(sendWs)
  useLayoutEffect(() => {
    apiRef.current = api
    stateRef.current = state
    sendWsRef.current = sendWs
  })
  const current = useRef<Current>({ session: 0, conversationId: null })
  const controllers = useRef(new Set<AbortController>())
  const sending = useRef(false)
  /** Run ids of the replies this page drives, by bubble key (known before the state has them). */
  const runOf = useRef(new Map<string, string>())
  /** Replies whose Stop came before their run id: cancelled once it arrives. */
  const stopWhenKnown = useRef(new Set<string>())
  /** Runs whose resume was answered 204 (ended): a reload shows their saved message and does not pick them up again. */
  const endedRuns = useRef(new Set<string>())

  const actions = useMemo<ChatActions>(() => {
    let keyCounter = 0
    const localKey = () => `local-${Date.now().toString(36)}-${++keyCounter}`
    const isCurrent = (session: number) => current.current.session === session

    const announce = (id: string | null) => sendWsRef.current({ type: 'active-conversation', conversationId: id })

    /** Cancels a run; its stream then reports how it ended (stopped, or done if it won the race). */
    const cancel = async (session: number, key: string, runId: string) => {
      const client = apiRef.current
      try {
        if (client === null) throw new ApiError(0, 'not connected to the Wisp server')
        await client.cancelRun(runId)
      } catch (err) {
        // 409: the run ended meanwhile, and its stream says how.
        if ((err instanceof ApiError && err.status === 409) || !isCurrent(session)) return
        dispatch({ type: 'chat-stop-failed', session, key })
        dispatch({ type: 'error', message: `Could not stop the reply: ${errorMessage(err)}` })
      }
    }

    const learnRun = (session: number, key: string, runId: string) => {
      runOf.current.set(key, runId)
      if (stopWhenKnown.current.delete(key)) void cancel(session, key, runId)
    }

    /**
     * Streams a reply into the bubble `key`, starting from base: its frames go
     * to the ReplyStore, and its end (done, error, failure) to the reducer
     * together with what the store holds, so the bubble keeps what it showed.
     */
    const drive = async (session: number, key: string, start: ReplyStart, ctrl: AbortController, base: LiveReply) => {
      const client = apiRef.current
      if (client === null) return
      controllers.current.add(ctrl)
      replies.begin(key, base)
      if (start.kind === 'resume') learnRun(session, key, start.runId)
      let resynced = false
      const settled = () => {
        replies.flush()
        return replies.get(key)
      }
      try {
        await runReply({
          api: client,
          start,
          signal: ctrl.signal,
          findRunId: start.kind === 'send' ? () => activeRunOf(client, start.conversationId) : undefined,
          report: (r) => {
            if (ctrl.signal.aborted) return
            switch (r.type) {
              case 'run':
                dispatch({ type: 'chat-run', session, key, runId: r.runId })
                learnRun(session, key, r.runId)
                break
              case 'frame':
                // Seed 001: the run was cut short by a crash; once its stream has
                // ended, the conversation is read again as it was saved.
                if (r.frame.type === 'stream_resync') resynced = true
                onFrame(r.frame)
                if (isLiveFrame(r.frame)) replies.push(key, r.seq, r.frame)
                else dispatch({ type: 'chat-frame', session, key, seq: r.seq, frame: r.frame, live: settled() })
                break
              case 'failed':
                dispatch({ type: 'chat-failed', session, key, message: r.message, live: settled() })
                break
              case 'ended': {
                // 204: nothing more to stream. The saved message says how the run ended.
                settled()
                const runId = runOf.current.get(key)
                if (runId !== undefined) endedRuns.current.add(runId)
                const id = current.current.conversationId
                if (id !== null && isCurrent(session)) void load(session, id)
                break
              }
            }
          },
        })
      } finally {
        controllers.current.delete(ctrl)
        stopWhenKnown.current.delete(key)
        const id = current.current.conversationId
        if (resynced && id !== null && isCurrent(session) && !ctrl.signal.aborted) void load(session, id)
      }
    }

    /** Picks up a run still going; from its start (after 0) the bubble shows its saved text until the replay has some. */
    const resume = (session: number, key: string, runId: string, after: number, base: LiveReply) => {
      const fromStart = after === 0
      dispatch({ type: 'chat-resume', session, key, fromStart })
      const start = fromStart ? { ...EMPTY_LIVE_REPLY, text: base.text } : base
      void drive(session, key, { kind: 'resume', runId, after }, new AbortController(), start)
    }

    const fetchConversation = async (client: ApiClient, id: string) =>
      Promise.all([
        client.listMessages(id),
        client.listDisplayMessages(id).catch((err: unknown) => {
          console.warn('wisp chat: display messages unavailable', err)
          return []
        }),
      ])

    const load = async (session: number, id: string) => {
      const client = apiRef.current
      if (client === null) return
      try {
        const [messages, display] = await fetchConversation(client, id)
        if (!isCurrent(session)) return
        dispatch({ type: 'chat-loaded', session, messages, display })
        for (const m of messages) {
          // The page was reloaded while this reply was being written: pick it up.
          if (m.role !== 'assistant' || m.status !== 'active' || m.runId === undefined) continue
          if (endedRuns.current.has(m.runId)) continue
          resume(session, m.id, m.runId, 0, { ...EMPTY_LIVE_REPLY, text: m.text })
        }
      } catch (err) {
        if (!isCurrent(session)) return
        if (err instanceof ApiError && err.status === 404) {
          dispatch({ type: 'conversation-removed', id })
          open(null)
          return
        }
        dispatch({ type: 'chat-load-failed', session, message: errorMessage(err) })
      }
    }

    /** A reply of this page is streaming, or about to. */
    const streaming = () => sending.current || controllers.current.size > 0

    /** The display messages, and what Wisp said on its own, of the open conversation (a reply streams meanwhile). */
    const catchUp = async (session: number, id: string) => {
      const client = apiRef.current
      if (client === null) return
      try {
        const [messages, display] = await fetchConversation(client, id)
        if (isCurrent(session)) dispatch({ type: 'chat-caught-up', session, messages, display })
      } catch (err) {
        console.warn('wisp chat: cannot reload the open conversation:', errorMessage(err))
      }
    }

    const reload = () => {
      const { session, conversationId } = current.current
      if (conversationId === null) return
      if (streaming()) void catchUp(session, conversationId)
      else void load(session, conversationId)
    }

    const open = (id: string | null) => {
      for (const ctrl of controllers.current) ctrl.abort()
      controllers.current.clear()
      runOf.current.clear()
      stopWhenKnown.current.clear()
      endedRuns.current.clear()
      replies.clear()
      sending.current = false
      const session = current.current.session + 1
      current.current = { session, conversationId: id }
      dispatch({ type: 'chat-open', session, conversationId: id })
      writeHash(id)
      announce(id)
      if (id !== null) void load(session, id)
    }

    const sendNow = async (text: string) => {
      const client = apiRef.current
      const session = current.current.session
      const userKey = localKey()
      const replyKey = localKey()
      const ctrl = new AbortController()
      controllers.current.add(ctrl)
      sending.current = true
      dispatch({ type: 'chat-sent', session, userKey, replyKey, text, ts: Date.now() })
      try {
        if (client === null) throw new ApiError(0, 'not connected to the Wisp server yet')
        let conversationId = current.current.conversationId
        if (conversationId === null) {
          const conv = await client.createConversation()
          if (ctrl.signal.aborted || !isCurrent(session)) return
          dispatch({ type: 'conversation-upserted', conversation: conv })
          dispatch({ type: 'chat-assigned', session, conversationId: conv.id })
          current.current = { session, conversationId: conv.id }
          writeHash(conv.id)
          announce(conv.id)
          conversationId = conv.id
        }
        dispatch({ type: 'conversation-touched', id: conversationId, at: Date.now() })
        const start: ReplyStart = { kind: 'send', conversationId, request: { text, clientMessageId: userKey } }
        await drive(session, replyKey, start, ctrl, EMPTY_LIVE_REPLY)
      } catch (err) {
        if (!ctrl.signal.aborted) dispatch({ type: 'chat-failed', session, key: replyKey, message: errorMessage(err) })
      } finally {
        stopWhenKnown.current.delete(replyKey)
        controllers.current.delete(ctrl)
        if (isCurrent(session)) sending.current = false
      }
    }

    const send = (text: string) => {
      const chat = stateRef.current.chat
      // While a conversation loads, its arriving messages would replace the new ones.
      if (sending.current || chat.loading || isReplying(chat) || text.trim() === '') return false
      void sendNow(text)
      return true
    }

    const retry = async (key: string) => {
      const chat = stateRef.current.chat
      const bubble = chat.messages.find((m) => m.key === key)
      const client = apiRef.current
      if (bubble?.prompt === undefined || !retryable(chat, key) || client === null || sending.current) return
      const session = current.current.session
      const conversationId = current.current.conversationId
      sending.current = true
      try {
        if (bubble.runId !== undefined && conversationId !== null) {
          const run = await client.getRun(bubble.runId).catch(() => null)
          if (!isCurrent(session)) return
          if (run?.status === 'active') {
            resume(session, key, run.id, bubble.lastSeq, liveOf(bubble))
            return
          }
          // Replace the failed exchange rather than repeat it in the history.
          if (run?.userMessageId) {
            await client
              .truncateMessages(conversationId, run.userMessageId, true)
              .catch((err: unknown) => console.warn('wisp chat: could not remove the failed exchange', err))
          }
        }
      } finally {
        if (isCurrent(session)) sending.current = false
      }
      if (!isCurrent(session)) return
      dispatch({ type: 'chat-retry', session, key })
      void sendNow(bubble.prompt)
    }

    const stop = () => {
      const reply = streamingReply(stateRef.current.chat)
      if (reply === undefined || reply.stopping) return
      const session = current.current.session
      dispatch({ type: 'chat-stopping', session, key: reply.key })
      const runId = runOf.current.get(reply.key) ?? reply.runId
      if (runId === undefined) stopWhenKnown.current.add(reply.key)
      else void cancel(session, reply.key, runId)
    }

    const rename = async (id: string, title: string) => {
      const client = apiRef.current
      if (client === null) throw new ApiError(0, 'not connected to the Wisp server yet')
      dispatch({ type: 'conversation-upserted', conversation: await client.renameConversation(id, title) })
    }

    const remove = async (id: string) => {
      const client = apiRef.current
      if (client === null) throw new ApiError(0, 'not connected to the Wisp server yet')
      try {
        await client.deleteConversation(id)
      } catch (err) {
        if (!(err instanceof ApiError && err.status === 404)) throw err
      }
      dispatch({ type: 'conversation-removed', id })
      if (current.current.conversationId === id) open(null)
    }

    return { open, send, retry: (key) => void retry(key), stop, reload, rename, remove }
  }, [dispatch, replies, onFrame])

  useChatLoader(api, state.apiReady, dispatch, actions, current)
  useHashFollower(actions, current)
  useReannounce(state.connection === 'connected', sendWs, current)
  useEffect(() => {
    const all = controllers.current
    return () => {
      for (const ctrl of all) ctrl.abort()
    }
  }, [])
  return actions
}

/** The run of the conversation's reply in progress, from its "active" assistant message. */
async function activeRunOf(api: ApiClient, conversationId: string): Promise<string | null> {
  const messages = await api.listMessages(conversationId)
  const active = messages.findLast((m) => m.role === 'assistant' && m.status === 'active' && m.runId !== undefined)
  return active?.runId ?? null
}

/** Loads the sidebar's list (unless cancelled meanwhile); a failure is shown as the app's error. */
export async function loadConversations(api: ApiClient, dispatch: Dispatch, cancelled: () => boolean = () => false): Promise<void> {
  try {
    const conversations = await api.listConversations()
    if (!cancelled()) dispatch({ type: 'conversations-loaded', conversations })
  } catch (err) {
    if (!cancelled()) dispatch({ type: 'error', message: `cannot load conversations: ${errorMessage(err)}` })
  }
}

/** Loads the list and (re)opens the conversation whenever the API becomes usable. */
function useChatLoader(
  api: ApiClient | null,
  apiReady: boolean,
  dispatch: Dispatch,
  actions: ChatActions,
  current: { current: Current },
): void {
  const started = useRef(false)
  useEffect(() => {
    if (api === null || !apiReady) return
    let cancelled = false
    void loadConversations(api, dispatch, () => cancelled)
    const target = started.current ? current.current.conversationId : conversationFromHash(location.hash)
    started.current = true
    actions.open(target)
    return () => {
      cancelled = true
    }
  }, [api, apiReady, dispatch, actions, current])
}

/** Follows hand-edited hashes and back/forward between #/c/<id> URLs. */
function useHashFollower(actions: ChatActions, current: { current: Current }): void {
  useEffect(() => {
    const onHash = () => {
      const id = conversationFromHash(location.hash)
      if (id !== current.current.conversationId) actions.open(id)
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [actions, current])
}

/** A new /ws connection knows nothing of the open conversation: tell it again. */
function useReannounce(connected: boolean, sendWs: (msg: ClientMessage) => void, current: { current: Current }): void {
  useEffect(() => {
    if (connected) sendWs({ type: 'active-conversation', conversationId: current.current.conversationId })
  }, [connected, sendWs, current])
}
