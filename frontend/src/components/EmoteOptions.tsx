// The picker's options grouped under category headings. Options are not in
// the tab order: the filter keeps focus and points at the active one
// (aria-activedescendant).

import { useEffect, useRef } from 'react'
import type { Emote } from '../api'
import type { EmoteGroup } from '../state/emotePicker'

interface Props {
  groups: EmoteGroup[]
  options: Emote[]
  active: number
  disabled: boolean
  onHover(emote: Emote): void
  onPick(emote: Emote): void
}

/** The DOM id of the option at index (aria-activedescendant). */
export function optionDomId(index: number): string {
  return `emote-opt-${index}`
}

export function EmoteOptions({ groups, options, active, disabled, onHover, onPick }: Props) {
  const list = useRef<HTMLDivElement>(null)
  useEffect(() => {
    list.current?.querySelector(`#${optionDomId(active)}`)?.scrollIntoView({ block: 'nearest' })
  }, [active])

  const indexOf = new Map(options.map((e, i) => [e.id, i]))
  return (
    <div className="picker-list" id="emote-options" role="listbox" aria-label="Emotes" ref={list}>
      {groups.map((group, g) => (
        <div key={group.category} role="group" aria-labelledby={`emote-group-${g}`}>
          <h3 className="picker-group" id={`emote-group-${g}`}>
            {group.label}
          </h3>
          {group.emotes.map((emote) => {
            const index = indexOf.get(emote.id) ?? -1
            return (
              <button
                key={emote.id}
                type="button"
                role="option"
                id={optionDomId(index)}
                tabIndex={-1}
                aria-selected={index === active}
                className={`emote-option${index === active ? ' active' : ''}`}
                data-testid={`emote-option-${emote.id}`}
                disabled={disabled}
                onMouseMove={() => index !== active && onHover(emote)}
                onClick={() => onPick(emote)}
              >
                <span className="emote-name">{emote.name}</span>
                <span className="emote-meta">
                  {emote.source === 'user' ? <span className="emote-badge">pack</span> : null}
                  {emote.loop ? 'loops' : `${formatSeconds(emote.duration)}`}
                </span>
                {emote.description !== '' ? <span className="emote-description">{emote.description}</span> : null}
              </button>
            )
          })}
        </div>
      ))}
    </div>
  )
}

function formatSeconds(s: number): string {
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`
}
