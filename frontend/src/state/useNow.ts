import { useEffect, useState } from 'react'

/** The time now (epoch ms), refreshed every periodMs so relative times stay true. */
export function useNow(periodMs: number): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    setNow(Date.now())
    const timer = setInterval(() => setNow(Date.now()), periodMs)
    return () => clearInterval(timer)
  }, [periodMs])
  return now
}
