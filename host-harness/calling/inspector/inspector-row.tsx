/**
 * One message in the inspector's list: its direction, type and verdict (valid, ignored, deviates, not the
 * SDK's), deprecation, fault, truncation and composer tags, the buttons to its request or replies, its
 * findings, and its payload as a JSON tree on demand.
 */
import { memo } from 'react'
import type { InspectorEntry } from '../core/calling-types.ts'
import { RULES, type Finding } from '../core/conformance.ts'
import { truncationNote } from '../../../shared/traffic/bound.ts'
import { JsonTree } from './json-tree.tsx'

function formatTime(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

const directionLabel = (d: 'in' | 'out') => (d === 'in' ? 'widget → host' : 'host → widget')

export function isProblem(entry: InspectorEntry, findings: readonly Finding[] | undefined): boolean {
  return (!entry.valid && entry.notSdk !== true) || entry.deprecation !== undefined || entry.fault !== undefined || entry.composed === 'invalid' || (findings?.length ?? 0) > 0
}

export const NO_FINDINGS: readonly Finding[] = []

export interface InspectorRowProps {
  entry: InspectorEntry
  findings: readonly Finding[]
  /** The entries linked to this one (its request, or its replies). */
  partners: readonly InspectorEntry[]
  open: boolean
  highlighted: boolean
  /** The three callbacks keep one identity for the panel's life (see `sameRow`). */
  onToggle: (seq: number) => void
  onJump: (seq: number) => void
  register: (seq: number, element: HTMLElement | null) => void
}

const sameItems = <T,>(a: readonly T[], b: readonly T[]) => a === b || (a.length === b.length && a.every((item, i) => item === b[i]))

/**
 * A row draws again only when what it shows changed. Traffic arrives once per animation frame during a
 * flood, and drawing all shown rows each time (up to the panel's PAGE) kept the page busy long after the flood; entries
 * and findings are kept by identity in the store, so comparing them by identity is enough.
 */
const sameRow = (a: InspectorRowProps, b: InspectorRowProps) =>
  a.entry === b.entry && a.open === b.open && a.highlighted === b.highlighted && sameItems(a.findings, b.findings) && sameItems(a.partners, b.partners)

export const InspectorRow = memo(function InspectorRow({ entry, findings, partners, open: isOpen, highlighted, onToggle, onJump, register }: InspectorRowProps) {
  // A call event CallingHost accepted but the call session told the host to ignore (no call to touch).
  const ignoredBy = entry.direction === 'in' ? findings.find((f) => f.hostIgnored) : undefined
  const detailsId = `inspector-entry-${entry.seq}`
  const name = entry.notSdk ? `not a calling-SDK message${entry.type !== null ? ` (${entry.type})` : ''}` : (entry.type ?? '(no type)')
  const label = `${name}, ${directionLabel(entry.direction)}, #${entry.seq}${entry.frame ? `, ${entry.frame} frame` : ''}`
  return (
    <li
      aria-label={label}
      aria-current={highlighted ? 'true' : undefined}
      tabIndex={-1}
      ref={(el) => register(entry.seq, el)}
      className={`inspector__entry inspector__entry--${entry.direction}${highlighted ? ' inspector__entry--highlighted' : ''}${
        isProblem(entry, findings) ? ' inspector__entry--problem' : ''
      }${entry.notSdk ? ' inspector__entry--not-sdk' : ''}`}
    >
      <div className="inspector__row">
        <button type="button" className="inspector__toggle" aria-expanded={isOpen} aria-controls={detailsId} onClick={() => onToggle(entry.seq)}>
          <span className="inspector__seq">#{entry.seq}</span>
          <time className="inspector__time" dateTime={new Date(entry.time).toISOString()}>
            {formatTime(entry.time)}
          </time>
          <span className="inspector__dir">{directionLabel(entry.direction)}</span>
          <span className="inspector__type">{entry.type ?? '(no type)'}</span>
          {entry.frame ? <span className="tag">{entry.frame} frame</span> : null}
        </button>
        <span className={`tag ${entry.notSdk ? 'tag--muted' : !entry.valid || ignoredBy ? 'tag--bad' : entry.deviations?.length ? 'tag--warn' : 'tag--ok'}`}>
          {entry.notSdk
            ? `${entry.reason ?? 'not a calling-SDK message'}: dropped, as the SDK drops it`
            : !entry.valid
            ? entry.direction === 'in'
              ? `ignored: ${entry.reason ?? 'unknown reason'}`
              : `invalid: ${entry.reason ?? 'unknown reason'}`
            : ignoredBy
              ? `ignored: ${ignoredBy.message}`
              : entry.deviations?.length
                ? 'acted on, deviates from the SDK types'
                : 'valid'}
        </span>
        {entry.deprecation ? <span className="tag tag--warn">deprecated: {entry.deprecation}</span> : null}
        {entry.beforeHandshake && entry.direction === 'out' ? <span className="tag">queued before handshake</span> : null}
        {entry.fault ? <span className="tag tag--fault">fault: {entry.fault}</span> : null}
        {entry.truncated ? <span className="tag tag--warn">{truncationNote(entry.truncated)}</span> : null}
        {entry.composed ? (
          <span className={`tag ${entry.composed === 'invalid' ? 'tag--bad' : 'tag--composed'}`}>
            {entry.composed === 'invalid' ? 'composed, sent invalid on purpose' : 'composed'}
          </span>
        ) : null}
        {partners.map((partner) => (
          <button key={partner.seq} type="button" className="inspector__link" onClick={() => onJump(partner.seq)}>
            {partner.seq > entry.seq ? 'Reply' : 'Request'}: {partner.type ?? '(no type)'} #{partner.seq}
          </button>
        ))}
      </div>
      {findings.length > 0 ? (
        <ul className="inspector__findings" aria-label={`Findings for #${entry.seq}`}>
          {findings.map((f) => (
            <li key={f.id} className={`finding finding--${f.severity}`}>
              {f.severity}: {RULES[f.rule].title}: {f.message}
            </li>
          ))}
        </ul>
      ) : null}
      <div id={detailsId} hidden={!isOpen} className="inspector__details">
        {isOpen && entry.truncated ? <p className="inspector__truncated">{truncationNote(entry.truncated)}: the host judged and acted on the whole message; the log keeps its first part.</p> : null}
        {isOpen ? <JsonTree value={entry.message} label={`Message #${entry.seq} ${entry.type ?? ''}`.trim()} rootLabel="message" /> : null}
      </div>
    </li>
  )
}, sameRow)
