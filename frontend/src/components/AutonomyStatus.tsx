import { useEffect } from 'react'
import type { ConfigSnapshot } from '../api'
import { describeAutonomy } from '../state/autonomy'
import { useStore } from '../state/store'
import { useApi, useWisp } from '../state/WispProvider'

/** The autonomy loop as it runs now, below its settings; reloaded whenever the settings change. */
export function AutonomyStatus({ snap }: { snap: ConfigSnapshot }) {
  const { autonomy: store } = useWisp()
  const api = useApi()
  const { value: autonomy, error } = useStore(store)
  useEffect(() => {
    void store.load()
  }, [store, api, snap])
  if (autonomy === null || error !== null) return null
  return (
    <p className="setting-wide hint autonomy-status" data-testid="autonomy-status">
      {describeAutonomy(autonomy, Date.now())}
    </p>
  )
}
