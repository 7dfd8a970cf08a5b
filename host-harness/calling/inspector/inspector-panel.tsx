/**
 * The message inspector: every message both ways, in order, with its
 * validity, deprecation, faults and conformance findings; request ↔ reply
 * links; filters; clear. The same traffic as a ladder diagram (with the API
 * requests the host made); export as a traffic file (JSON) and import one
 * back, whose ladder is shown with no widget running.
 */
import { memo, useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react'
import { useCalling, type CallingState } from '../core/calling-store.ts'
import type { InspectorEntry } from '../core/calling-types.ts'
import { CallLogLine } from '../core/call-log.tsx'
import { initialConformance, openCalls, RULES, type Finding, type RuleId } from '../core/conformance.ts'
import { JsonTree } from './json-tree.tsx'
import { parseTrafficFile, stringifyTrafficFile, TRAFFIC_LIMITS, type TrafficFile } from '../../../shared/traffic/traffic-file.ts'
import { trafficFileOf } from '../core/traffic-export.ts'
import { formatChars, TRAFFIC_BOUNDS, truncationNote } from '../../../shared/traffic/bound.ts'
import { MAX_TRAFFIC } from '../core/traffic-keeper.ts'
import { LadderView } from './ladder-view.tsx'
import { plural } from '../../lib/format.ts'
import { buildLinkIndex, listIn } from '../core/links.ts'
import { callingRuntime } from '../core/runtime.ts'
import '../core/panel-controls.css'
import './inspector.css'

/**
 * Entries rendered at once (the newest); the rest behind "Show all". The drawer shows a dozen rows; after a
 * widget's flood, 400 rows (about 5,000 elements) made every later query of the page's accessibility tree
 * (a screen reader's, a test's) take a quarter of a second.
 */
const PAGE = 100

type DirectionFilter = 'all' | 'in' | 'out'
type View = 'list' | 'ladder'

/** Downloads `text` as a file. */
function download(text: string, type: string, name: string): void {
  const url = URL.createObjectURL(new Blob([text], { type }))
  const a = document.createElement('a')
  a.href = url
  a.download = name
  document.body.appendChild(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 0)
}

const stamp = () => new Date().toISOString().replace(/[:.]/g, '-')

function formatTime(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number, w = 2) => String(n).padStart(w, '0')
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}.${pad(d.getMilliseconds(), 3)}`
}

const directionLabel = (d: 'in' | 'out') => (d === 'in' ? 'widget → host' : 'host → widget')

function isProblem(entry: InspectorEntry, findings: readonly Finding[] | undefined): boolean {
  return (!entry.valid && entry.notSdk !== true) || entry.deprecation !== undefined || entry.fault !== undefined || entry.composed === 'invalid' || (findings?.length ?? 0) > 0
}

const NO_FINDINGS: readonly Finding[] = []

interface InspectorRowProps {
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
 * flood, and drawing all shown rows each time (up to PAGE) kept the page busy long after the flood; entries
 * and findings are kept by identity in the store, so comparing them by identity is enough.
 */
const sameRow = (a: InspectorRowProps, b: InspectorRowProps) =>
  a.entry === b.entry && a.open === b.open && a.highlighted === b.highlighted && sameItems(a.findings, b.findings) && sameItems(a.partners, b.partners)

const InspectorRow = memo(function InspectorRow({ entry, findings, partners, open: isOpen, highlighted, onToggle, onJump, register }: InspectorRowProps) {
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

/** What a hidden inspector reads of the store: nothing that changes with the traffic. */
const HIDDEN = {
  traffic: [] as CallingState['traffic'],
  links: [] as CallingState['links'],
  conformance: initialConformance(),
  foreignDropped: null as CallingState['foreignDropped'],
  call: null as CallingState['call'],
  requests: [] as CallingState['requests'],
  trafficDropped: 0,
}

export interface InspectorPanelProps {
  /**
   * Whether the panel is on screen (default true). A hidden panel keeps its filters, view and imported file but
   * follows no traffic and draws nothing: the store keeps recording, and a hidden inspector that drew every
   * message made a widget's flood cost the page twice and left hundreds of rows in its document.
   */
  visible?: boolean
}

export function InspectorPanel({ visible = true }: InspectorPanelProps) {
  const traffic = useCalling((s) => (visible ? s.traffic : HIDDEN.traffic))
  const links = useCalling((s) => (visible ? s.links : HIDDEN.links))
  const conformance = useCalling((s) => (visible ? s.conformance : HIDDEN.conformance))
  const foreignDropped = useCalling((s) => (visible ? s.foreignDropped : HIDDEN.foreignDropped))
  const call = useCalling((s) => (visible ? s.call : HIDDEN.call))
  const requests = useCalling((s) => (visible ? s.requests : HIDDEN.requests))
  const trafficDropped = useCalling((s) => (visible ? s.trafficDropped : HIDDEN.trafficDropped))
  const currentSrc = useCalling((s) => s.currentSrc)
  const [view, setView] = useState<View>('list')
  const [imported, setImported] = useState<{ name: string; file: TrafficFile } | null>(null)
  const [importError, setImportError] = useState<string | null>(null)
  const importInput = useRef<HTMLInputElement>(null)
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
    for (const f of conformance.findings) if (f.seq !== null) listIn(map, f.seq).push(f)
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

  // The rows' callbacks keep one identity (InspectorRow draws again only when what it shows changed).
  const jumpToLatest = useRef(jumpTo)
  jumpToLatest.current = jumpTo
  const jump = useCallback((seq: number) => jumpToLatest.current(seq), [])
  const toggle = useCallback(
    (seq: number) =>
      setExpanded((prev) => {
        const next = new Set(prev)
        if (next.has(seq)) next.delete(seq)
        else next.add(seq)
        return next
      }),
    [],
  )
  const register = useCallback((seq: number, element: HTMLElement | null) => {
    if (element) itemRefs.current.set(seq, element)
    else itemRefs.current.delete(seq)
  }, [])
  const partnersOf = (seq: number): InspectorEntry[] => {
    const partners: InspectorEntry[] = []
    for (const partnerSeq of linkIndex.get(seq) ?? []) {
      const partner = bySeq.get(partnerSeq)
      if (partner) partners.push(partner)
    }
    return partners
  }

  const liveFile = useMemo(
    () => (view === 'ladder' && imported === null ? trafficFileOf({ traffic, links, requests, conformance, currentSrc }) : null),
    [view, imported, traffic, links, requests, conformance, currentSrc],
  )

  const exportJson = () => {
    const file = trafficFileOf({ traffic, links, requests, conformance, currentSrc })
    download(stringifyTrafficFile(file), 'application/json', `ringside-traffic-${stamp()}.json`)
  }

  const importFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0]
    event.target.value = ''
    if (!chosen) return
    if (chosen.size > TRAFFIC_LIMITS.maxChars * 4) {
      setImportError(`Could not import ${chosen.name}: Not a usable Ringside traffic file: it has ${chosen.size} bytes, far more than a traffic file may hold.`)
      return
    }
    const result = parseTrafficFile(await chosen.text())
    if (!result.ok) {
      setImportError(`Could not import ${chosen.name}: ${result.error}`)
      return
    }
    setImportError(null)
    setImported({ name: chosen.name, file: result.file })
    setView('ladder')
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

  if (!visible) return null

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
        <button type="button" onClick={() => importInput.current?.click()}>
          Import…
        </button>
        <input ref={importInput} type="file" accept=".json,application/json" hidden aria-label="Import a traffic file" onChange={(e) => void importFile(e)} />
        <div className="inspector__views" role="group" aria-label="View">
          <button type="button" aria-pressed={view === 'list'} onClick={() => setView('list')} disabled={imported !== null}>
            List
          </button>
          <button type="button" aria-pressed={view === 'ladder'} onClick={() => setView('ladder')}>
            Ladder
          </button>
        </div>
      </div>

      {importError !== null ? (
        <div className="inspector__import-error" role="alert">
          <p>{importError}</p>
          <button type="button" onClick={() => setImportError(null)}>
            Dismiss
          </button>
        </div>
      ) : null}

      {imported !== null ? (
        <div className="inspector__imported" role="status">
          <p>
            Showing the imported file <strong>{imported.name}</strong>: {imported.file.messages.length} messages, {imported.file.requests.length} API requests
            {imported.file.exportedAt ? `, exported ${imported.file.exportedAt}` : ''}
            {imported.file.widgetUrl ? ` from the widget at ${imported.file.widgetUrl}` : ''}.
          </p>
          <button
            type="button"
            onClick={() => {
              setImported(null)
            }}
          >
            Back to live traffic
          </button>
        </div>
      ) : null}

      {imported !== null ? <LadderView file={imported.file} title={imported.name} /> : view === 'ladder' && liveFile ? <LadderView file={liveFile} title="live traffic" /> : null}

      {imported === null ? (
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
      ) : null}

      {view === 'list' && imported === null ? (
        <>
          <p className="inspector__count" aria-live="polite">
            {filtered.length === traffic.length ? `${traffic.length} messages` : `${filtered.length} of ${traffic.length} messages`}
            {trafficDropped > 0
              ? `; ${plural(trafficDropped, 'older message')} dropped (the log keeps the newest ${MAX_TRAFFIC} messages, ${formatChars(TRAFFIC_BOUNDS.totalChars)} in all)`
              : ''}
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
            {shown.map((entry) => (
              <InspectorRow
                key={entry.seq}
                entry={entry}
                findings={findingsBySeq.get(entry.seq) ?? NO_FINDINGS}
                partners={partnersOf(entry.seq)}
                open={expanded.has(entry.seq)}
                highlighted={highlighted === entry.seq}
                onToggle={toggle}
                onJump={jump}
                register={register}
              />
            ))}
          </ol>
        </>
      ) : null}
    </section>
  )
}
