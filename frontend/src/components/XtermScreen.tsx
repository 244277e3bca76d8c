// The xterm.js view of the terminal panel (loaded lazily with it). It fits
// the panel (ResizeObserver, debounced) and hands the session a
// TerminalScreen; keystrokes and size changes go back through callbacks.

import { useEffect, useRef } from 'react'
import { Terminal } from '@xterm/xterm'
import { FitAddon } from '@xterm/addon-fit'
import '@xterm/xterm/css/xterm.css'
import type { TerminalScreen } from '../state/terminalSession'

export const RESIZE_DEBOUNCE_MS = 100

const FONT = "ui-monospace, 'SFMono-Regular', 'JetBrains Mono', Menlo, Consolas, 'DejaVu Sans Mono', monospace"

// Always dark, like most terminals, so program colours read the same in both UI themes.
const THEME = {
  background: '#0d1014',
  foreground: '#d7dde5',
  cursor: '#7aa2f7',
  cursorAccent: '#0d1014',
  selectionBackground: '#34405a',
  black: '#1d222a',
  red: '#e06c6c',
  green: '#4fc27a',
  yellow: '#e0b050',
  blue: '#7aa2f7',
  magenta: '#c58af0',
  cyan: '#6cb6e0',
  white: '#d7dde5',
  brightBlack: '#5c6673',
  brightRed: '#ff8787',
  brightGreen: '#7ee0a0',
  brightYellow: '#f5cf7a',
  brightBlue: '#a0bdff',
  brightMagenta: '#dcb0ff',
  brightCyan: '#9ad6f5',
  brightWhite: '#ffffff',
}

interface Props {
  onReady(screen: TerminalScreen | null): void
  onData(data: string): void
  onResize(cols: number, rows: number): void
}

export function XtermScreen(props: Props) {
  const host = useRef<HTMLDivElement>(null)
  const handlers = useRef(props)
  handlers.current = props

  useEffect(() => {
    const el = host.current
    if (el === null) return
    const term = new Terminal({
      convertEol: false,
      cursorBlink: true,
      fontFamily: FONT,
      fontSize: 13,
      scrollback: 5000,
      theme: THEME,
    })
    const fit = new FitAddon()
    term.loadAddon(fit)
    term.open(el)
    const refit = () => {
      try {
        fit.fit()
      } catch {
        // not laid out yet (hidden or zero size); the observer tries again
      }
    }
    refit()

    let timer: ReturnType<typeof setTimeout> | null = null
    const observer = new ResizeObserver(() => {
      if (timer !== null) clearTimeout(timer)
      timer = setTimeout(() => {
        timer = null
        refit()
      }, RESIZE_DEBOUNCE_MS)
    })
    observer.observe(el)

    const subs = [
      term.onData((data) => handlers.current.onData(data)),
      term.onResize(({ cols, rows }) => handlers.current.onResize(cols, rows)),
    ]
    const screen: TerminalScreen = {
      reset(captured) {
        // In order with earlier writes: term.reset() alone would let pending output of the last run through.
        // CAN ends an escape sequence the last run may have left open.
        term.write('\x18', () => {
          term.reset()
          term.options.convertEol = captured
        })
      },
      write(data) {
        term.write(data)
      },
      size() {
        refit()
        return { cols: term.cols, rows: term.rows }
      },
      focus() {
        term.focus()
      },
    }
    handlers.current.onReady(screen)

    return () => {
      handlers.current.onReady(null)
      observer.disconnect()
      if (timer !== null) clearTimeout(timer)
      for (const sub of subs) sub.dispose()
      term.dispose()
    }
  }, [])

  return <div className="terminal-screen" ref={host} role="region" aria-label="Terminal output" data-testid="terminal-screen" />
}
