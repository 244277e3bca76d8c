// What the avatar stage gets from WispProvider: the page's emote frames,
// without holding the socket itself (subscriptions outlive a replaced socket).

import type { EmoteMessage, Unsubscribe } from '../api'

export interface EmoteBridge {
  onEmote(fn: (msg: EmoteMessage) => void): Unsubscribe
}
