/**
 * The message inspector: every message both ways, in order, with its
 * validity, deprecation, faults and conformance findings; request ↔ reply
 * links; filters; clear. The same traffic as a ladder diagram (with the API
 * requests the host made); export as a traffic file (JSON) and import one
 * back, whose ladder is shown with no widget running. A message's row is
 * inspector-row.tsx, the conformance summary conformance-summary.tsx.
 */
import { useCallback, useEffect, useId, useMemo, useRef, useState, type ChangeEvent } from 'react'
import { useCalling, type CallingState } from '../core/calling-store.ts'
import type { InspectorEntry } from '../core/calling-types.ts'
import { initialConformance, type Finding } from '../core/conformance.ts'
import { InspectorRow, isProblem, NO_FINDINGS } from './inspector-row.tsx'
import { ConformanceSummary } from './conformance-summary.tsx'
import { parseTrafficFile, stringifyTrafficFile, TRAFFIC_LIMITS, type TrafficFile } from '../../../shared/traffic/traffic-file.ts'
import { trafficFileOf } from '../core/traffic-export.ts'
import { formatChars, TRAFFIC_BOUNDS } from '../../../shared/traffic/bound.ts'
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

      {imported === null ? <ConformanceSummary conformance={conformance} call={call} foreignDropped={foreignDropped} /> : null}

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
