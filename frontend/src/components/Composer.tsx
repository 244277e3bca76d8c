import './Composer.css'
import { afterNextFrame } from '../tasks'
import { useEffect, useLayoutEffect, useRef, useState, type ClipboardEvent, type FormEvent, type KeyboardEvent } from 'react'
import type { Attachment, VoiceConfig } from '../api'
import { hasRefused, readyAttachments, uploading, type AttachmentDraft } from '../state/attachmentDraft'
import { useStore } from '../state/store'
import { AttachButton } from './AttachButton'
import { AttachmentChips } from './AttachmentChips'
import { MicButton } from './MicButton'
import { VisionNotice } from './VisionNotice'
import type { Loaded } from '../state/loadStore'
import { Store } from '../state/store'
import type { Voice } from '../voice/voice'
import { IDLE_SPEECH } from '../voice/speech'

/** The server takes 1..32000 characters. */
export const MAX_MESSAGE_CHARS = 32_000
const MAX_HEIGHT_PX = 180

/**
 * Whether the engine sizes a textarea to its text itself (CSS field-sizing,
 * Composer.css); others (WebKitGTK in the desktop window) are measured here.
 */
const SIZES_ITSELF = typeof CSS !== 'undefined' && typeof CSS.supports === 'function' && CSS.supports('field-sizing', 'content')

interface Props {
  /** Nothing can be typed (the conversation is loading). */
  disabled: boolean
  /** A reply is streaming: the next message can be written but not sent, and Send becomes Stop. */
  replying: boolean
  /** Stop was pressed and the reply has not ended yet. */
  stopping: boolean
  /** The message's files (dropped on the chat, pasted, or attached with 📎). */
  draft: AttachmentDraft
  /** Returns false when the message could not be sent now (the text and files are then kept). */
  onSend(text: string, attachments: Attachment[]): boolean
  /** Stops the streaming reply and the speech (the Stop button, or Escape in the composer). */
  onStop(): void
  /** The page's voice: the speech playing (Stop stops it too) and the mic's transcripts. */
  voice?: Voice
}

const NO_SPEECH = new Store(IDLE_SPEECH)
const NO_VOICE_CONFIG = new Store<Loaded<VoiceConfig>>({ value: null, error: null, unauthorized: false, loading: false })

/** The draft with a transcript added: after what is typed, with a space between. */
export function withTranscript(draft: string, text: string): string {
  if (draft.trim() === '') return text
  return `${draft.replace(/\s+$/, '')} ${text}`
}

/** What is sent for a draft: leading blank lines and trailing whitespace dropped. */
export function messageText(draft: string): string {
  return draft.replace(/^(?:[ \t]*\r?\n)+/, '').trimEnd()
}

/** True for an Enter that should send: not with Shift, and not one that ends an IME composition. */
export function isSendKey(e: { key: string; shiftKey: boolean; isComposing: boolean; keyCode: number }, composing: boolean): boolean {
  // WebKit reports the Enter that confirms a composition with keyCode 229 and, sometimes, after compositionend.
  return e.key === 'Enter' && !e.shiftKey && !e.isComposing && !composing && e.keyCode !== 229
}

/** True for an Escape that should stop the reply: not one that cancels an IME composition. */
export function isStopKey(e: { key: string; isComposing: boolean; keyCode: number }, composing: boolean): boolean {
  return e.key === 'Escape' && !e.isComposing && !composing && e.keyCode !== 229
}

/** The files a paste carries (an image copied, files copied in a file manager); none for text. */
export function pastedFiles(data: Pick<DataTransfer, 'files'> | null): File[] {
  return data === null ? [] : [...data.files]
}

export function Composer({ disabled, replying, stopping, draft: files, onSend, onStop, voice }: Props) {
  const [draft, setDraft] = useState('')
  const speech = useStore(voice?.speech.state ?? NO_SPEECH)
  const autoSend = useStore(voice?.config ?? NO_VOICE_CONFIG, (c) => c.value?.autoSend === true)
  const speaking = speech.status !== 'idle'
  // The stop button and Esc stop the reply and what is being said.
  const stoppable = replying || speaking
  const [pickError, setPickError] = useState<string | null>(null)
  const chips = useStore(files)
  const area = useRef<HTMLTextAreaElement>(null)
  const composing = useRef(false)
  const text = messageText(draft)
  const tooLong = text.length > MAX_MESSAGE_CHARS
  const ready = readyAttachments(chips)
  const inFlight = uploading(chips)
  const refused = hasRefused(chips)
  const canSend = !disabled && !replying && (text !== '' || ready.length > 0) && !tooLong && !inFlight && !refused

  // Measuring (scrollHeight) forces a layout of the page in the middle of a
  // task; an empty draft (a message just sent) is one row and needs none.
  useLayoutEffect(() => {
    const el = area.current
    if (el === null || SIZES_ITSELF) return
    el.style.height = ''
    if (draft === '') return
    el.style.height = 'auto'
    el.style.height = `${Math.min(el.scrollHeight, MAX_HEIGHT_PX)}px`
  }, [draft])

  // Disabling the textarea, or the Stop button going away, drops the focus; give it
  // back when the composer can send again, unless the user has moved on meanwhile.
  // The same on mount (never autoFocus: a composer mounted as a conversation loads
  // must not take the focus from a dialog the user opened meanwhile, the search).
  // (It is always in view: scrolling to it would only force a layout.)
  // Focusing needs style and layout up to date: in the task that rendered a
  // whole reply (or a conversation) it would lay the page out on the spot, so
  // it waits for the next frame to have done that and runs in a task after it.
  const canWrite = !disabled && !replying
  useEffect(() => {
    if (!canWrite) return
    return afterNextFrame(() => {
      const focused = document.activeElement
      if (focused === null || focused === document.body) area.current?.focus({ preventScroll: true })
    })
  }, [canWrite])

  // What the user said: sent at once when auto-send is on (and a message can be sent), else added to the draft.
  const sendRef = useRef({ autoSend, replying, disabled, onSend })
  sendRef.current = { autoSend, replying, disabled, onSend }
  useEffect(() => {
    if (voice === undefined) return
    return voice.mic.transcripts.add((text) => {
      const now = sendRef.current
      if (now.autoSend && !now.replying && !now.disabled && now.onSend(text, [])) return
      setDraft((d) => withTranscript(d, text))
      area.current?.focus({ preventScroll: true })
    })
  }, [voice])

  const submit = () => {
    if (!canSend) return
    if (!onSend(text, ready)) return
    setDraft('')
    files.clear()
  }

  // Files in the clipboard are attached; a paste of text stays text.
  const onPaste = (e: ClipboardEvent<HTMLTextAreaElement>) => {
    const pasted = pastedFiles(e.clipboardData)
    if (pasted.length === 0 || disabled) return
    e.preventDefault()
    files.add(pasted)
  }

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    const native = e.nativeEvent
    if (stoppable && isStopKey({ key: e.key, isComposing: native.isComposing, keyCode: native.keyCode }, composing.current)) {
      e.preventDefault()
      if (!stopping || speaking) onStop()
      return
    }
    if (!isSendKey({ key: e.key, shiftKey: e.shiftKey, isComposing: native.isComposing, keyCode: native.keyCode }, composing.current)) return
    e.preventDefault()
    submit()
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault()
    submit()
  }

  return (
    <form
      className="composer"
      onSubmit={onSubmit}
      data-testid="composer-form"
      data-speech={speech.status}
      data-speech-index={speech.index ?? ''}
    >
      <AttachmentChips chips={chips} onRemove={(key) => files.remove(key)} />
      <VisionNotice chips={chips} />
      {pickError !== null ? (
        <p className="composer-note tone-error" role="alert" data-testid="attach-error">
          {pickError}
        </p>
      ) : null}
      <AttachButton
        disabled={disabled}
        onFiles={(picked) => {
          setPickError(null)
          files.add(picked)
        }}
        onUploaded={(attachments) => {
          setPickError(null)
          files.addUploaded(attachments)
        }}
        onError={setPickError}
      />
      {voice !== undefined ? <MicButton voice={voice} disabled={disabled} /> : null}
      <textarea
        ref={area}
        data-testid="composer"
        aria-label="Message"
        placeholder={
          replying ? 'Writing a reply… (Esc to stop)' : 'Message (Enter to send, Shift+Enter for a new line)'
        }
        rows={1}
        value={draft}
        disabled={disabled}
        onChange={(e) => setDraft(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={onPaste}
        onCompositionStart={() => {
          composing.current = true
        }}
        onCompositionEnd={() => {
          // Let the keydown of the confirming Enter (which may follow) see the composition as still open.
          setTimeout(() => {
            composing.current = false
          }, 0)
        }}
      />
      <div className="composer-side">
        {tooLong ? (
          <span className="too-long" role="alert">
            {text.length - MAX_MESSAGE_CHARS} characters too long
          </span>
        ) : null}
        {stoppable ? (
          <button
            key="stop"
            type="button"
            className="send stop"
            data-testid="stop"
            title={replying ? 'Stop the reply (Esc)' : 'Stop speaking (Esc)'}
            disabled={stopping && !speaking}
            onClick={onStop}
          >
            {stopping && !speaking ? 'Stopping…' : 'Stop'}
          </button>
        ) : (
          <button
            key="send"
            type="submit"
            className="send"
            data-testid="send"
            disabled={!canSend}
            title={inFlight ? 'Wait for the files to upload' : refused ? 'Remove the files that were refused' : undefined}
          >
            Send
          </button>
        )}
      </div>
    </form>
  )
}
