import { memo } from 'react'
import { snippetParts, type SearchResult } from '../api'
import { formatTimestamp } from '../format'

interface Props {
  result: SearchResult
  index: number
  active: boolean
  agentName: string
  onPoint(index: number): void
  onChoose(index: number): void
}

/** The DOM id of a result row (the input's aria-activedescendant). */
export const resultId = (index: number) => `search-result-${index}`

/**
 * One search result: its conversation, who wrote it and when, and the snippet
 * with its matches in <mark>. The snippet is message text, so it is only ever
 * rendered as text nodes.
 */
export const SearchResultItem = memo(function SearchResultItem({ result, index, active, agentName, onPoint, onChoose }: Props) {
  const who = result.role === 'user' ? 'You' : agentName
  return (
    <li
      id={resultId(index)}
      role="option"
      aria-selected={active}
      className={`search-result${active ? ' active' : ''}`}
      data-testid="search-result"
      data-message-id={result.messageId}
      data-conversation-id={result.conversationId}
      onMouseMove={() => onPoint(index)}
      onClick={() => onChoose(index)}
    >
      <div className="search-result-head">
        <span className="search-result-title">{result.conversationTitle}</span>
        <span className="search-result-meta">
          {who} · {formatTimestamp(result.createdAt)}
        </span>
      </div>
      <p className="search-snippet" data-testid="search-snippet">
        {snippetParts(result).map((part, i) => (part.mark ? <mark key={i}>{part.text}</mark> : <span key={i}>{part.text}</span>))}
      </p>
    </li>
  )
})
