/**
 * The inspector's ladder: the traffic as one picture (shared/traffic/ladder.ts), drawn windowed
 * (only the rows in view and a margin exist in the DOM, so 10,000 messages scroll smoothly).
 * Arrows are focusable (one tab stop; arrow keys, Home/End, Page Up/Down move), each labelled
 * with its text alternative; click or Enter opens its payload below, with links to its cause,
 * its requests and its replies. One call can be shown alone; Export SVG saves what is shown.
 */
import { useEffect, useId, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react'
import { buildLadder, drawnLabel, selectCall, type LadderArrow, type LadderFinding, type LadderModel } from '../../../shared/traffic/ladder.ts'
import {
  arrowClasses,
  badgeSeverity,
  clipText,
  DRAWN_FINDING_CHARS,
  DRAWN_LABEL_CHARS,
  findingText,
  gapText,
  LADDER_CLASS,
  LADDER_GEOMETRY as G,
  LADDER_STYLE,
  layoutLadder,
  offsetText,
  renderLadderSvg,
  rowAt,
  rowGeometry,
} from '../../../shared/traffic/ladder-svg.ts'
import type { TrafficFile } from '../../../shared/traffic/traffic-file.ts'
import { plural } from '../../lib/format.ts'
import { JsonTree } from './json-tree.tsx'

/** The scrolling window's height until it is measured (its CSS sets it: the inspector's drawer is 40% of the page), and the rows drawn beyond it on each side. */
const VIEW_HEIGHT = 460
const OVERSCAN_PX = 300

export interface LadderViewProps {
  file: TrafficFile
  /** Names the export, e.g. "Live traffic" or the imported file's name. */
  title: string
}

export function LadderView({ file, title }: LadderViewProps) {
  const [callKey, setCallKey] = useState<string | undefined>(undefined)
  const whole = useMemo(() => buildLadder(file), [file])
  const known = callKey !== undefined && whole.calls.some((c) => c.key === callKey) ? callKey : undefined
  const model = useMemo(() => (known === undefined ? whole : selectCall(whole, known)), [whole, known])
  const callId = useId()

  const exportSvg = () => {
    const svg = renderLadderSvg(model, { title: `Ringside ladder · ${title}`, ...(known !== undefined ? { callKey: known } : {}) })
    const url = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }))
    const a = document.createElement('a')
    a.href = url
    a.download = `ringside-ladder-${new Date().toISOString().replace(/[:.]/g, '-')}.svg`
    document.body.appendChild(a)
    a.click()
    a.remove()
    setTimeout(() => URL.revokeObjectURL(url), 0)
  }

  const { counts } = model
  return (
    <div className="ladder" role="region" aria-label="Ladder diagram">
      <div className="ladder__toolbar">
        <label htmlFor={callId}>Call</label>
        <select id={callId} value={known ?? ''} onChange={(e) => setCallKey(e.target.value === '' ? undefined : e.target.value)}>
          <option value="">All calls ({whole.calls.length})</option>
          {whole.calls.map((c) => (
            <option key={c.key} value={c.key}>
              {clipText(c.label, 90)}
            </option>
          ))}
        </select>
        <button type="button" onClick={exportSvg} disabled={model.rows.length === 0}>
          Export SVG
        </button>
        <span className="ladder__counts">
          {plural(model.rows.length, 'arrow')} · {plural(counts.messages, 'message')} · {plural(counts.requests, 'API request')} · {plural(counts.errors, 'error')},{' '}
          {plural(counts.warnings, 'warning')}
          {counts.missingReplies > 0 ? ` · ${counts.missingReplies} without a reply` : ''}
        </span>
      </div>
      {model.unpinned.length > 0 ? (
        <FindingList findings={model.unpinned} className="ladder__unpinned" label="Findings on no message" />
      ) : null}
      {model.notes.map((note) => (
        <p key={note} className="ladder__note">
          {note}
        </p>
      ))}
      {model.rows.length === 0 ? <p className="ladder__note">No traffic to draw yet.</p> : <LadderCanvas key={known ?? ''} model={model} />}
    </div>
  )
}

function LadderCanvas({ model }: { model: LadderModel }) {
  const layout = useMemo(() => layoutLadder(model), [model])
  const scroller = useRef<HTMLDivElement>(null)
  const arrowsRef = useRef(new Map<number, SVGGElement>())
  const [scrollTop, setScrollTop] = useState(0)
  const [viewHeight, setViewHeight] = useState(VIEW_HEIGHT)
  const [active, setActive] = useState(0)
  const [selected, setSelected] = useState<number | null>(null)
  const focusPending = useRef(false)
  const indexOf = useMemo(() => {
    const bySeq = new Map<number, number>()
    const byRequest = new Map<number, number>()
    model.rows.forEach((r, i) => {
      if (r.arrow.seq !== undefined) bySeq.set(r.arrow.seq, i)
      if (r.arrow.kind === 'request' && r.arrow.requestId !== undefined) byRequest.set(r.arrow.requestId, i)
    })
    return { bySeq, byRequest }
  }, [model])

  const current = Math.min(active, model.rows.length - 1)
  // The scroller's content starts at the first row (the lane titles stay above it).
  const viewTop = scrollTop + G.headerHeight
  const first = rowAt(layout, viewTop - OVERSCAN_PX)
  const last = rowAt(layout, viewTop + viewHeight + OVERSCAN_PX)
  const top = layout.tops[first] ?? G.headerHeight
  const bottom = last + 1 < layout.tops.length ? layout.tops[last + 1]! : layout.height
  const visible: number[] = []
  for (let i = first; i <= last; i++) visible.push(i)
  // The tab stop stays in the DOM wherever it is.
  if (current < first || current > last) visible.push(current)

  /** Scrolls row `index` into view and moves the tab stop (and focus, when asked) to it. */
  const moveTo = (index: number, focus: boolean) => {
    const target = Math.max(0, Math.min(model.rows.length - 1, index))
    const el = scroller.current
    if (el) {
      const rowTop = layout.tops[target]! - G.headerHeight
      const rowBottom = rowTop + G.rowHeight + G.gapHeight
      if (rowTop < el.scrollTop) el.scrollTop = Math.max(0, rowTop)
      else if (rowBottom > el.scrollTop + el.clientHeight) el.scrollTop = rowBottom - el.clientHeight
      setScrollTop(el.scrollTop)
    }
    setActive(target)
    focusPending.current = focus
  }

  useLayoutEffect(() => {
    if (!focusPending.current) return
    focusPending.current = false
    arrowsRef.current.get(current)?.focus({ preventScroll: true })
  })

  useEffect(() => {
    const el = scroller.current
    if (!el) return
    const onScroll = () => setScrollTop(el.scrollTop)
    const measure = () => {
      if (el.clientHeight > 0) setViewHeight(el.clientHeight)
    }
    measure()
    el.addEventListener('scroll', onScroll, { passive: true })
    const resized = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null
    resized?.observe(el)
    return () => {
      el.removeEventListener('scroll', onScroll)
      resized?.disconnect()
    }
  }, [])

  const perPage = Math.max(1, Math.floor(viewHeight / G.rowHeight) - 1)
  const onKeyDown = (event: KeyboardEvent<SVGGElement>, index: number) => {
    const moves: Record<string, number> = { ArrowDown: index + 1, ArrowUp: index - 1, PageDown: index + perPage, PageUp: index - perPage, Home: 0, End: model.rows.length - 1 }
    const to = moves[event.key]
    if (to !== undefined) {
      event.preventDefault()
      moveTo(to, true)
    } else if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault()
      setSelected(index)
    }
  }

  const jump = (index: number | undefined) => {
    if (index === undefined) return
    moveTo(index, true)
    setSelected(index)
  }

  const chosen = selected === null ? undefined : model.rows[selected]?.arrow
  return (
    <>
      <div className="ladder__lanes" aria-hidden="true">
        <svg className={LADDER_CLASS} width={G.width} height={28} viewBox={`0 ${G.headerHeight - 30} ${G.width} 28`}>
          {model.lanes.map((lane) => (
            <text key={lane.id} className="lane-title" x={G.laneX[lane.id]} y={G.headerHeight - 12}>
              {lane.label}
            </text>
          ))}
          <text className="lane-title" x={G.findingsX + 70} y={G.headerHeight - 12}>
            Findings
          </text>
        </svg>
      </div>
      <div className="ladder__scroller" ref={scroller} style={{ maxHeight: layout.height - G.headerHeight + 2 }}>
        <div className="ladder__canvas" style={{ height: layout.height - G.headerHeight, width: G.width }}>
          <svg
            className={LADDER_CLASS}
            width={G.width}
            height={bottom - top}
            viewBox={`0 ${top} ${G.width} ${bottom - top}`}
            style={{ position: 'absolute', top: top - G.headerHeight, left: 0 }}
            role="list"
            aria-label={`Arrows, rows ${first + 1} to ${last + 1} of ${model.rows.length} drawn`}
          >
            <style>{LADDER_STYLE}</style>
            {model.lanes.map((lane) => (
              <line key={lane.id} className="lifeline" x1={G.laneX[lane.id]} y1={top} x2={G.laneX[lane.id]} y2={bottom} />
            ))}
            {visible.map((index) => (
              <ArrowRow
                key={model.rows[index]!.arrow.id}
                model={model}
                layout={layout}
                index={index}
                tabStop={index === current}
                selected={index === selected}
                register={(el) => {
                  if (el) arrowsRef.current.set(index, el)
                  else arrowsRef.current.delete(index)
                }}
                onKeyDown={(e) => onKeyDown(e, index)}
                onSelect={() => {
                  setActive(index)
                  setSelected(index)
                }}
              />
            ))}
          </svg>
        </div>
      </div>
      {chosen ? <ArrowDetails arrow={chosen} model={model} indexOf={indexOf} onJump={jump} onClose={() => setSelected(null)} /> : null}
    </>
  )
}

interface ArrowRowProps {
  model: LadderModel
  layout: ReturnType<typeof layoutLadder>
  index: number
  tabStop: boolean
  selected: boolean
  register(el: SVGGElement | null): void
  onKeyDown(event: KeyboardEvent<SVGGElement>): void
  onSelect(): void
}

function ArrowRow({ model, layout, index, tabStop, selected, register, onKeyDown, onSelect }: ArrowRowProps) {
  const row = model.rows[index]!
  const a = row.arrow
  const geo = rowGeometry(layout, model, index)
  const gap = gapText(row)
  const finding = findingText(a)
  const severity = badgeSeverity(a)
  const dir = geo.x2 > geo.x1 ? 1 : -1
  return (
    <g
      ref={register}
      className={`${arrowClasses(a)}${selected ? ' arrow--selected' : ''}`}
      role="listitem"
      tabIndex={tabStop ? 0 : -1}
      aria-label={a.description}
      aria-current={selected ? 'true' : undefined}
      data-arrow={a.id}
      onClick={onSelect}
      onKeyDown={onKeyDown}
    >
      <rect className="hit" x={0} y={geo.arrowTop} width={G.width} height={G.rowHeight} />
      {gap !== undefined && geo.gapY !== undefined ? (
        <>
          <line className="gap" x1={G.timeRight + 6} y1={geo.gapY - 4} x2={G.width - 10} y2={geo.gapY - 4} />
          <text className="gap-label" x={G.laneX.widget + 8} y={geo.gapY}>
            ⋯ {gap}
          </text>
        </>
      ) : null}
      <text className="time" x={G.timeRight} y={geo.y + 4}>
        {offsetText(row)}
      </text>
      <line className="shaft" x1={geo.x1} y1={geo.y} x2={geo.x2 - dir * 8} y2={geo.y} />
      <path className="head" d={`M${geo.x2} ${geo.y} l${-dir * 9} -4.5 v9 z`} />
      <text className="label" x={geo.labelX} y={geo.labelY}>
        {clipText(drawnLabel(a), DRAWN_LABEL_CHARS)}
      </text>
      {finding !== undefined ? (
        <>
          <circle className={`badge badge--${severity}`} cx={G.findingsX - 10} cy={geo.y - 4} r={5} />
          <text className={`finding finding--${severity}`} x={G.findingsX} y={geo.y}>
            {clipText(finding, DRAWN_FINDING_CHARS)}
          </text>
        </>
      ) : null}
    </g>
  )
}

function FindingList({ findings, className, label }: { findings: readonly LadderFinding[]; className: string; label: string }) {
  return (
    <ul className={className} aria-label={label}>
      {findings.map((f, i) => (
        <li key={i} className={`finding finding--${f.severity}`}>
          {f.severity}: {f.title ? `${f.title}: ` : ''}
          {f.message}
        </li>
      ))}
    </ul>
  )
}

interface ArrowDetailsProps {
  arrow: LadderArrow
  model: LadderModel
  indexOf: { bySeq: ReadonlyMap<number, number>; byRequest: ReadonlyMap<number, number> }
  onJump(index: number | undefined): void
  onClose(): void
}

function ArrowDetails({ arrow, model, indexOf, onJump, onClose }: ArrowDetailsProps) {
  const labelOf = (index: number | undefined) => (index === undefined ? undefined : model.rows[index]?.arrow.label)
  const title = arrow.kind === 'message' ? `#${arrow.seq} ${arrow.label}` : arrow.label
  return (
    <section className="ladder__details" aria-label={`Details of ${title}`}>
      <div className="ladder__details-head">
        <strong>{title}</strong>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p className="ladder__description">{arrow.description}</p>
      {arrow.truncated !== undefined ? <p className="ladder__truncated">{arrow.truncated}</p> : null}
      {arrow.findings.length > 0 ? (
        <FindingList findings={arrow.findings} className="inspector__findings" label={`Findings for ${title}`} />
      ) : null}
      <div className="ladder__links">
        {arrow.causeSeq !== undefined && indexOf.bySeq.has(arrow.causeSeq) ? (
          <button type="button" className="inspector__link" onClick={() => onJump(indexOf.bySeq.get(arrow.causeSeq!))}>
            Cause: #{arrow.causeSeq} {labelOf(indexOf.bySeq.get(arrow.causeSeq))}
          </button>
        ) : null}
        {arrow.requests.map((id) =>
          indexOf.byRequest.has(id) ? (
            <button key={`q${id}`} type="button" className="inspector__link" onClick={() => onJump(indexOf.byRequest.get(id))}>
              Request: {labelOf(indexOf.byRequest.get(id))}
            </button>
          ) : null,
        )}
        {arrow.linked.map((seq) =>
          indexOf.bySeq.has(seq) ? (
            <button key={`m${seq}`} type="button" className="inspector__link" onClick={() => onJump(indexOf.bySeq.get(seq))}>
              {seq > (arrow.seq ?? 0) ? 'Reply' : 'Request'}: #{seq} {labelOf(indexOf.bySeq.get(seq))}
            </button>
          ) : null,
        )}
      </div>
      <JsonTree value={arrow.payload} label={`Payload of ${title}`} rootLabel={arrow.kind === 'message' ? 'message' : 'request'} initialDepth={2} />
    </section>
  )
}
