import './ContextMeter.css'
import { useStore } from '../state/store'
import { conversationCost, meterView } from '../state/usageFormat'
import { useWisp } from '../state/wispContext'

/**
 * The open conversation's context meter: the tokens the next turn sends of
 * the model's window, a bar with a mark where the next summary is made (the
 * tooltip says when, and where the window's size comes from), and what the
 * conversation has cost.
 */
export function ContextMeter() {
  const { meter } = useWisp()
  const context = useStore(meter, (s) => s.context)
  const usage = useStore(meter, (s) => s.usage)
  if (context === null) return null
  const view = meterView(context)
  return (
    <div
      className="context-meter"
      data-testid="context-meter"
      data-used={context.used}
      data-window={context.window}
      data-near={context.used >= context.summaryAt}
      title={view.title}
    >
      <span data-testid="context-meter-label">{view.label}</span>
      <span
        className="context-meter-bar"
        role="meter"
        aria-label="Context used"
        aria-valuemin={0}
        aria-valuemax={context.budget}
        aria-valuenow={Math.min(context.used, context.budget)}
        aria-valuetext={view.label}
      >
        <span className="context-meter-fill" style={{ width: `${view.percent}%` }} />
        <span className="context-meter-mark" aria-hidden="true" style={{ left: `${view.mark}%` }} />
      </span>
      {usage === null ? null : (
        <span className="context-meter-cost" data-testid="conversation-cost" title={`${usage.calls} model calls`}>
          {conversationCost(usage)}
        </span>
      )}
    </div>
  )
}
