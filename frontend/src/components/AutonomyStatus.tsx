import { useEffect, useState } from 'react'
import type { AutonomyState, ConfigSnapshot } from '../api'
import { describeAutonomy } from '../state/autonomy'
import { useWisp } from '../state/WispProvider'

/** The autonomy loop as it runs now, below its settings; reloaded whenever the settings change. */
export function AutonomyStatus({ snap }: { snap: ConfigSnapshot }) {
  const { api } = useWisp()
  const [autonomy, setAutonomy] = useState<AutonomyState | null>(null)
  useEffect(() => {
    if (api === null) return
    let cancelled = false
    api.getAutonomy().then(
      (next) => {
        if (!cancelled) setAutonomy(next)
      },
      (err: unknown) => {
        if (!cancelled) setAutonomy(null)
        console.warn('wisp: autonomy state unavailable', err)
      },
    )
    return () => {
      cancelled = true
    }
  }, [api, snap])
  if (autonomy === null) return null
  return (
    <p className="setting-wide hint autonomy-status" data-testid="autonomy-status">
      {describeAutonomy(autonomy, Date.now())}
    </p>
  )
}
