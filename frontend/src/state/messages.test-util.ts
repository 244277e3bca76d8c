// Messages for tests: the tree fields a test does not care about, filled in as one branch.

import type { Message } from '../api'

type TreeFields = 'parentId' | 'siblingIds' | 'siblingIndex' | 'depth'

/** A message as a test writes it: its place in the tree optional. */
export type BareMessage = Omit<Message, TreeFields> & Partial<Pick<Message, TreeFields>>

/** The messages as one branch, each after the one before it, with no siblings. */
export function onBranch(list: readonly BareMessage[]): Message[] {
  return list.map((m, i) => ({
    parentId: i === 0 ? null : (list[i - 1]?.id ?? null),
    siblingIds: [m.id],
    siblingIndex: 0,
    depth: i,
    ...m,
  }))
}

/** One message, first of its branch. */
export function lone(m: BareMessage): Message {
  return { parentId: null, siblingIds: [m.id], siblingIndex: 0, depth: 0, ...m }
}
