// The app's state (reducer.ts) as a Store: the reducer stays pure and is
// tested without React; dispatch folds an action into the store, and
// components select the slice they show (useAppState), so a status frame
// re-renders only the components that select status.

import { initialState, reducer, type Action, type AppState } from './reducer'
import { Store } from './store'

export class AppStore extends Store<AppState> {
  constructor(initial: AppState = initialState) {
    super(initial)
  }

  readonly dispatch = (action: Action): void => {
    this.set((s) => reducer(s, action))
  }
}
