import './ToolCard.css'
import { memo } from 'react'

/** The model's reasoning, collapsed unless the user opens it. (A streaming bubble redraws it only when it changed.) */
export const ThinkingBlock = memo(function ThinkingBlock({ text, active }: { text: string; active: boolean }) {
  return (
    <details className={`thinking${active ? ' active' : ''}`} data-testid="thinking">
      <summary>{active ? 'Thinking…' : 'Thought process'}</summary>
      <div className="thinking-text">{text}</div>
    </details>
  )
})
