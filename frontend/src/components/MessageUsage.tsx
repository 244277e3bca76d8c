import './MessageUsage.css'
import type { MessageUsage as Usage } from '../api'
import { usageLine } from '../state/usageFormat'

/** "1,204 in · 312 out · $0.003": what a saved reply took, discreetly; the model in its tooltip. */
export function MessageUsage({ usage }: { usage: Usage }) {
  return (
    <div className="message-usage" data-testid="message-usage" title={usage.model === '' ? undefined : `Model: ${usage.model}`}>
      {usageLine(usage)}
    </div>
  )
}
