// The Reminders panel's controller: loads GET /api/reminders once the API is
// usable and again after every (re)connect of /ws (frames sent while it was
// down are not replayed), and creates and deletes reminders. The
// reminder-updated/-deleted frames themselves go to the reducer from
// WispProvider's socket.

import { useEffect, useMemo } from 'react'
import { ApiError, type ApiClient, type NewReminder } from '../api'
import { errorMessage } from './chatRunner'
import type { Action } from './reducer'

/** Loads the Reminders panel's list (unless cancelled meanwhile). */
export async function loadReminders(api: ApiClient, dispatch: Dispatch, cancelled: () => boolean = () => false): Promise<void> {
  try {
    const reminders = await api.listReminders()
    if (!cancelled()) dispatch({ type: 'reminders-loaded', reminders })
  } catch (err) {
    if (!cancelled()) console.warn('wisp: cannot load reminders:', errorMessage(err))
  }
}

export interface ReminderActions {
  /** Schedules a reminder; rejects with ApiError (the server's message) for the form to show. */
  create(req: NewReminder): Promise<void>
  /** Deletes a reminder; one already gone counts as deleted. Rejects with ApiError otherwise. */
  remove(id: string): Promise<void>
}

type Dispatch = (action: Action) => void

export function useReminders(api: ApiClient | null, apiReady: boolean, connected: boolean, dispatch: Dispatch): ReminderActions {
  useEffect(() => {
    if (api === null || !apiReady || !connected) return
    let cancelled = false
    void loadReminders(api, dispatch, () => cancelled)
    return () => {
      cancelled = true
    }
  }, [api, apiReady, connected, dispatch])

  return useMemo<ReminderActions>(() => {
    const client = () => {
      if (api === null) throw new ApiError(0, 'not connected to the Wisp server yet')
      return api
    }
    return {
      create: async (req) => {
        const reminder = await client().createReminder(req)
        dispatch({ type: 'reminder-upserted', reminder })
      },
      remove: async (id) => {
        try {
          await client().deleteReminder(id)
        } catch (err) {
          if (!(err instanceof ApiError && err.status === 404)) throw err
        }
        dispatch({ type: 'reminder-removed', id })
      },
    }
  }, [api, dispatch])
}
