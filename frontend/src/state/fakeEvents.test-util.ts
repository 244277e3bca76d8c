// User input for app tests on the fake document: a native event delivered to
// the root container, where React listens for every event it handles (the
// fake document does not bubble, so it is dispatched there directly, with
// the element it happened on as its target).

import { FakeElement } from './fakeDom.test-util'

function nativeEvent(type: string, target: FakeElement, extra: Record<string, unknown> = {}) {
  let prevented = false
  return {
    type,
    target,
    bubbles: true,
    cancelable: true,
    timeStamp: Date.now(),
    button: 0,
    get defaultPrevented() {
      return prevented
    },
    preventDefault() {
      prevented = true
    },
    stopPropagation() {},
    ...extra,
  }
}

/** A click on target (React skips it when target is a disabled button, as a browser would). */
export function click(root: FakeElement, target: FakeElement): void {
  root.dispatchEvent(nativeEvent('click', target))
}

/** Replaces an input's value, as typing does, and fires its input event. */
export function typeInto(root: FakeElement, input: FakeElement, text: string): void {
  // The prototype's setter, as a browser's typing: React's value tracker then sees a change.
  Object.getOwnPropertyDescriptor(FakeElement.prototype, 'value')?.set?.call(input, text)
  root.dispatchEvent(nativeEvent('input', input))
}

/** A key pressed in target (Enter with keyCode 13). */
export function keyDown(root: FakeElement, target: FakeElement, key: string): void {
  const keyCode = key === 'Enter' ? 13 : key === 'Escape' ? 27 : 0
  root.dispatchEvent(nativeEvent('keydown', target, { key, keyCode, which: keyCode, shiftKey: false, isComposing: false }))
}

/** Picks an option of a select, as the user does, and fires its change event. */
export function selectOption(root: FakeElement, select: FakeElement, value: string): void {
  Object.getOwnPropertyDescriptor(FakeElement.prototype, 'value')?.set?.call(select, value)
  root.dispatchEvent(nativeEvent('change', select))
}
