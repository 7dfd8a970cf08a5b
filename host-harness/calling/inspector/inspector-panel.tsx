/**
 * The message inspector: every message both ways, in order, with its
 * validity, deprecation, faults and conformance findings; request ↔ reply
 * links; filters; clear; export as JSON.
 */
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { useCalling, type InspectorEntry } from '../core/calling-store.ts'
import { CallLogLine } from '../core/call-log.tsx'
import { openCalls, RULES, type Finding, type RuleId } from '../core/conformance.ts'
import { JsonTree } from './json-tree.tsx'
import { safeJson } from '../../../shared/traffic/safe-json.ts'
import { buildLinkIndex } from './links.ts'
import { callingRuntime } from '../core/runtime.ts'
import '../core/panel-controls.css'
import './inspector.css'

/** Entries rendered at once (the newest); the rest behind "Show all". */
const PAGE = 400

type DirectionFilter = 'all' | 'in' | 'out'

function formatTime(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

const directionLabel = (d: 'in' | 'out') => (d === 'in' ? 'widget → host' : 'host → widget')

function isProblem(entry: InspectorEntry, findings: readonly Finding[] | undefined): boolean {
  return !entry.valid || entry.deprecation !== undefined || entry.fault !== undefined || entry.composed === 'invalid' || (findings?.length ?? 0) > 0
}

export function InspectorPanel() {
  const traffic = useCalling((s) => s.traffic)
  const links = useCalling((s) => s.links)
  const conformance = useCalling((s) => s.conformance)
  const foreignDropped = useCalling((s) => s.foreignDropped)
  const call = useCalling((s) => s.call)
  const [text, setText] = useState('')
  const [direction, setDirection] = useState<DirectionFilter>('all')
  const [onlyProblems, setOnlyProblems] = useState(false)
  const [showAll, setShowAll] = useState(false)
  const [expanded, setExpanded] = useState<ReadonlySet<number>>(new Set())
  const [highlighted, setHighlighted] = useState<number | null>(null)
  const itemRefs = useRef(new Map<number, HTMLElement>())
  const pendingFocus = useRef<number | null>(null)
  const filterId = useId()
  const directionId = useId()

  const findingsBySeq = useMemo(() => {
    const map = new Map<number, Finding[]>()
    for (const f of conformance.findings) if (f.seq !== null) map.set(f.seq, [...(map.get(f.seq) ?? []), f])
    return map
  }, [conformance.findings])
  const linkIndex = useMemo(() => buildLinkIndex(traffic, links), [traffic, links])
  const bySeq = useMemo(() => new Map(traffic.map((e) => [e.seq, e])), [traffic])

  const needle = text.trim().toLowerCase()
  const filtered = traffic.filter(
    (e) =>
      (direction === 'all' || e.direction === direction) &&
      (needle === '' || (e.type ?? '(no type)').toLowerCase().includes(needle)) &&
      (!onlyProblems || isProblem(e, findingsBySeq.get(e.seq))),
  )
  const shown = showAll ? filtered : filtered.slice(-PAGE)

  useEffect(() => {
    const seq = pendingFocus.current
    if (seq === null) return
    const element = itemRefs.current.get(seq)
    if (!element) return
    pendingFocus.current = null
    element.focus()
    if (typeof element.scrollIntoView === 'function') element.scrollIntoView({ block: 'nearest' })
  })

  const jumpTo = (seq: number) => {
    const target = bySeq.get(seq)
    if (!target) return
    // Make sure the partner is visible: drop filters that would hide it.
    if (!filtered.includes(target)) {
      setText('')
      setDirection('all')
      setOnlyProblems(false)
    }
    if (!shown.includes(target)) setShowAll(true)
    setHighlighted(seq)
    pendingFocus.current = seq
  }

  const toggle = (seq: number) =>
    setExpanded((prev) => {
      const next = new Set(prev)
      if (next.has(seq)) next.delete(seq)
      else next.add(seq)
      return next
    })

  const exportJson = () => {
    const body = {
      exportedAt: new Date().toISOString(),
      widgetUrl: callingRuntime.store.getState().currentSrc,
      entries: traffic.map((e) => ({
        seq: e.seq,
        time: new Date(e.time).toISOString(),
        direction: e.direction,
        type: e.type,
        valid: e.valid,
        ...(e.reason !== undefined ? { reason: e.reason } : {}),
        ...(e.deprecation !== undefined ? { deprecation: e.deprecation } : {}),
        ...(e.deviations !== undefined ? { deviations: e.deviations } : {}),
        ...(e.beforeHandshake ? { beforeHandshake: true } : {}),
        ...(e.fault !== undefined ? { fault: e.fault } : {}),
        ...(e.composed !== undefined ? { composed: e.composed } : {}),
        linkedTo: linkIndex.get(e.seq) ?? [],
        message: e.message,
      })),
      findings: conformance.findings,
      openCalls: openCalls(conformance),
    }
    const blob = new Blob([safeJson(body)], { type: 'application/json' })
    const url = URL.createObjectURL(blob)
    const a = document.createElement('a')
    a.href = url
    a.download = `ringside-messages-${new Date().toISOString().replace(/[:.]/g, '-')}.json`
    document.body.appendChild(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }

  const open = openCalls(conformance)
  const counts = new Map<string, { rule: RuleId; severity: Finding['severity']; count: number }>()
  for (const f of conformance.findings) {
    const key = `${f.rule}:${f.severity}`
    const row = counts.get(key) ?? { rule: f.rule, severity: f.severity, count: 0 }
    row.count += 1
    counts.set(key, row)
  }
  const errors = conformance.findings.filter((f) => f.severity === 'error').length
  const warnings = conformance.findings.length - errors

  return (
    <section className="inspector" aria-label="Message inspector">
      <div className="inspector__toolbar">
        <label htmlFor={filterId}>Filter by type</label>
        <input id={filterId} type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="e.g. CALL_" />
        <label htmlFor={directionId}>Direction</label>
        <select id={directionId} value={direction} onChange={(e) => setDirection(e.target.value as DirectionFilter)}>
          <option value="all">Both ways</option>
          <option value="in">widget → host</option>
          <option value="out">host → widget</option>
        </select>
        <label className="inspector__check">
          <input type="checkbox" checked={onlyProblems} onChange={(e) => setOnlyProblems(e.target.checked)} /> Only problems
        </label>
        <button type="button" onClick={() => callingRuntime.store.getState().clearInspector()}>
          Clear
        </button>
        <button type="button" onClick={exportJson} disabled={traffic.length === 0}>
          Export JSON
        </button>
      </div>

      <div className="inspector__summary" role="region" aria-label="Conformance summary">
        {conformance.findings.length === 0 ? (
          <span className="inspector__ok">No conformance findings.</span>
        ) : (
          <>
            <p className="inspector__totals">
              {plural(errors, 'error')}, {plural(warnings, 'warning')}
            </p>
            <ul className="inspector__rules">
              {[...counts.values()]
                .sort((a, b) => (a.severity === b.severity ? 0 : a.severity === 'error' ? -1 : 1))
                .map((row) => (
                  <li key={`${row.rule}:${row.severity}`} className={`finding finding--${row.severity}`}>
                    {row.severity}: {RULES[row.rule].title}: {row.count}
                  </li>
                ))}
            </ul>
          </>
        )}
        {call ? <CallLogLine call={call} className="inspector__call-log" /> : null}
        {foreignDropped ? (
          <p className="finding finding--warning">
            Ignored {foreignDropped.count} {foreignDropped.count === 1 ? 'message' : 'messages'} from other windows (not the widget's
            iframe; last from {foreignDropped.lastOrigin || 'an opaque origin'}).
          </p>
        ) : null}
        {open.length > 0 ? (
          <p className="inspector__open">
            Open calls (not completed yet):{' '}
            {open.map((c) => `${c.externalCallId}${c.state === 'ghost' ? ' (ghost)' : ''}${c.createEngagement ? '' : ' (app-owned)'}`).join(', ')}
          </p>
        ) : null}
        {conformance.findings
          .filter((f) => f.seq === null)
          .map((f) => (
            <p key={f.id} className={`finding finding--${f.severity}`}>
              {f.severity}: {RULES[f.rule].title}: {f.message}
            </p>
          ))}
      </div>

      <p className="inspector__count" aria-live="polite">
        {filtered.length === traffic.length ? `${traffic.length} messages` : `${filtered.length} of ${traffic.length} messages`}
        {shown.length < filtered.length ? (
          <>
            {' '}
            (showing the newest {shown.length}){' '}
            <button type="button" onClick={() => setShowAll(true)}>
              Show all
            </button>
          </>
        ) : null}
      </p>

      <ol className="inspector__list" aria-label="Messages">
        {shown.map((entry) => {
          const findings = findingsBySeq.get(entry.seq) ?? []
          // A call event CallingHost accepted but the call session told the host to ignore (no call to touch).
          const ignoredBy = entry.direction === 'in' ? findings.find((f) => f.hostIgnored) : undefined
          const partners = linkIndex.get(entry.seq) ?? []
          const isOpen = expanded.has(entry.seq)
          const detailsId = `inspector-entry-${entry.seq}`
          const label = `${entry.type ?? '(no type)'}, ${directionLabel(entry.direction)}, #${entry.seq}`
          return (
            <li
              key={entry.seq}
              aria-label={label}
              aria-current={highlighted === entry.seq ? 'true' : undefined}
              tabIndex={-1}
              ref={(el) => {
                if (el) itemRefs.current.set(entry.seq, el)
                else itemRefs.current.delete(entry.seq)
              }}
              className={`inspector__entry inspector__entry--${entry.direction}${highlighted === entry.seq ? ' inspector__entry--highlighted' : ''}${
                isProblem(entry, findings) ? ' inspector__entry--problem' : ''
              }`}
            >
              <div className="inspector__row">
                <button type="button" className="inspector__toggle" aria-expanded={isOpen} aria-controls={detailsId} onClick={() => toggle(entry.seq)}>
                  <span className="inspector__seq">#{entry.seq}</span>
                  <time className="inspector__time" dateTime={new Date(entry.time).toISOString()}>
                    {formatTime(entry.time)}
                  </time>
                  <span className="inspector__dir">{directionLabel(entry.direction)}</span>
                  <span className="inspector__type">{entry.type ?? '(no type)'}</span>
                </button>
                <span className={`tag ${!entry.valid || ignoredBy ? 'tag--bad' : entry.deviations?.length ? 'tag--warn' : 'tag--ok'}`}>
                  {!entry.valid
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
                {entry.composed ? (
                  <span className={`tag ${entry.composed === 'invalid' ? 'tag--bad' : 'tag--composed'}`}>
                    {entry.composed === 'invalid' ? 'composed, sent invalid on purpose' : 'composed'}
                  </span>
                ) : null}
                {partners.map((seq) => {
                  const partner = bySeq.get(seq)
                  if (!partner) return null
                  const role = partner.seq > entry.seq ? 'Reply' : 'Request'
                  return (
                    <button key={seq} type="button" className="inspector__link" onClick={() => jumpTo(seq)}>
                      {role}: {partner.type ?? '(no type)'} #{seq}
                    </button>
                  )
                })}
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
                {isOpen ? <JsonTree value={entry.message} label={`Message #${entry.seq} ${entry.type ?? ''}`.trim()} rootLabel="message" /> : null}
              </div>
            </li>
          )
        })}
      </ol>
    </section>
  )
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
