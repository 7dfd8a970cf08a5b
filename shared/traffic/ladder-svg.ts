/**
 * The ladder drawn: the geometry (lanes, rows, gaps) that every drawing of a LadderModel uses
 * (this module's standalone SVG, the harness inspector's windowed view), and
 * `renderLadderSvg`, a self-contained SVG document: no scripts, no external references, every
 * piece of text escaped (message content is untrusted), a `<title>` and `<desc>` on each
 * arrow as its text alternative.
 */
import { drawnLabel, formatDuration, selectCall, type LadderArrow, type LadderModel, type LadderRow, type LaneId, type Severity } from './ladder.ts'

export const LADDER_GEOMETRY = {
  width: 1060,
  /** Lane titles. */
  headerHeight: 56,
  rowHeight: 30,
  /** Extra height above a row that follows a pause (or whose clock went back). */
  gapHeight: 22,
  /** The time column's right edge. */
  timeRight: 78,
  laneX: { widget: 170, host: 470, api: 740 } as Readonly<Record<LaneId, number>>,
  /** Where the findings column starts. */
  findingsX: 790,
  bottomPadding: 24,
} as const

/** Characters of a label drawn on an arrow, and of a finding in the findings column (the full text is in the title and description). */
export const DRAWN_LABEL_CHARS = 46
export const DRAWN_FINDING_CHARS = 42

export interface LadderLayout {
  /** Top of each row's box (its gap band included). */
  tops: Float64Array
  height: number
  width: number
}

const hasBand = (row: LadderRow) => row.gapMs !== undefined || row.clockBack === true

/** Where each row of the model goes. */
export function layoutLadder(model: Pick<LadderModel, 'rows'>): LadderLayout {
  const g = LADDER_GEOMETRY
  const tops = new Float64Array(model.rows.length)
  let y = g.headerHeight
  for (let i = 0; i < model.rows.length; i++) {
    tops[i] = y
    y += g.rowHeight + (hasBand(model.rows[i]!) ? g.gapHeight : 0)
  }
  return { tops, height: y + g.bottomPadding, width: g.width }
}

/** The index of the row at height `y` (clamped to the rows). */
export function rowAt(layout: LadderLayout, y: number): number {
  let lo = 0
  let hi = layout.tops.length - 1
  if (hi < 0) return 0
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1
    if (layout.tops[mid]! <= y) lo = mid
    else hi = mid - 1
  }
  return lo
}

export interface RowGeometry {
  /** Top of the row's box (gap band included) and of its arrow part. */
  top: number
  arrowTop: number
  /** The arrow's line. */
  x1: number
  x2: number
  y: number
  /** Where the label is centred. */
  labelX: number
  labelY: number
  /** The middle of the gap band, if any. */
  gapY?: number
}

export function rowGeometry(layout: LadderLayout, model: Pick<LadderModel, 'rows'>, index: number): RowGeometry {
  const g = LADDER_GEOMETRY
  const row = model.rows[index]!
  const top = layout.tops[index]!
  const band = hasBand(row) ? g.gapHeight : 0
  const arrowTop = top + band
  const x1 = g.laneX[row.arrow.from]
  const x2 = g.laneX[row.arrow.to]
  const y = arrowTop + g.rowHeight - 8
  const out: RowGeometry = { top, arrowTop, x1, x2, y, labelX: (x1 + x2) / 2, labelY: y - 6 }
  if (band > 0) out.gapY = top + band / 2 + 4
  return out
}

/** The gap band's text, e.g. `4.2 s ringing`, or the clock note. */
export function gapText(row: LadderRow): string | undefined {
  if (row.clockBack) return 'timestamp earlier than the previous one'
  if (row.gapMs === undefined) return undefined
  return `${formatDuration(row.gapMs)}${row.gapPhase ? ` ${row.gapPhase}` : ''}`
}

/** The findings column's text for an arrow: its most severe finding (and how many more), a missing reply, its note, or its truncation. */
export function findingText(arrow: LadderArrow): string | undefined {
  const first = arrow.findings[0]
  if (first) {
    const more = arrow.findings.length > 1 ? ` (+${arrow.findings.length - 1})` : ''
    return `${first.severity}: ${first.title ?? first.message}${more}`
  }
  if (arrow.missingReply) return 'no reply'
  if (arrow.state === 'ignored') return `ignored${arrow.note ? `: ${arrow.note}` : ''}`
  if (arrow.state === 'unknown-type') return 'unknown type'
  if (arrow.state === 'not-sdk') return 'not a calling-SDK message'
  if (arrow.state === 'no-answer') return `no answer${arrow.note ? `: ${arrow.note}` : ''}`
  return arrow.truncated
}

/** Cut to `max` characters with an ellipsis. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** `+1.2 s` offsets for the time column. */
export const offsetText = (row: LadderRow) => `+${formatDuration(row.offsetMs)}`

/** The colour of an arrow's findings badge: its most severe finding's, else error for a failure, else a note. */
export function badgeSeverity(arrow: LadderArrow): Severity | 'note' {
  return arrow.severity ?? (arrow.missingReply || (arrow.state !== 'ok' && arrow.state !== 'not-sdk') ? 'error' : 'note')
}

/** The arrow's CSS classes (shared with the inspector's view). */
export function arrowClasses(arrow: LadderArrow): string {
  const out = ['arrow', `arrow--${arrow.kind}`, `arrow--${arrow.state}`]
  if (arrow.severity) out.push(`arrow--${arrow.severity}`)
  if (arrow.missingReply) out.push('arrow--no-reply')
  return out.join(' ')
}

// --- the standalone SVG document -----------------------------------------------------------

// Characters XML 1.0 does not allow (most C0 controls, lone surrogates, U+FFFE/U+FFFF) become U+FFFD.
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu

/** Text as XML character data or attribute value: markup characters escaped, characters XML forbids replaced. */
export function escapeXml(text: string): string {
  return text.replace(NOT_XML, '\uFFFD').replace(/[&<>"']/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : c === '"' ? '&quot;' : '&#39;'))
}

/** The class on every drawing's `<svg>`: the style below applies under it only (an inline SVG's style is page-wide). */
export const LADDER_CLASS = 'ringside-ladder'

/**
 * The drawing's look, for the standalone document and the inspector's view alike. A standalone
 * document cannot read the page's design tokens, so the colours are written here, with the
 * tokens' values (shared/ui/tokens.css).
 */
export const LADDER_STYLE = [
  'svg.R{font-family:system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;font-size:12px}',
  '.R .title{font-size:15px;font-weight:600;fill:#213343}',
  '.R .lane-title{font-size:13px;font-weight:600;fill:#213343;text-anchor:middle}',
  '.R .lifeline{stroke:#7c98b6;stroke-width:1;stroke-dasharray:4 4}',
  '.R .time{fill:#516f90;font-size:11px;text-anchor:end;font-variant-numeric:tabular-nums}',
  '.R .gap{stroke:#cbd6e2;stroke-width:1;stroke-dasharray:2 3}',
  '.R .gap-label{fill:#516f90;font-size:11px;font-style:italic}',
  '.R .shaft{stroke:#33475b;stroke-width:1.5}',
  '.R .head{fill:#33475b}',
  '.R .label{fill:#213343;text-anchor:middle}',
  '.R .hit{fill:transparent}',
  '.R .arrow--request .shaft,.R .arrow--response .shaft{stroke:#0b7a8a}',
  '.R .arrow--request .head,.R .arrow--response .head{fill:#0b7a8a}',
  '.R .arrow--response .shaft{stroke-dasharray:5 3}',
  '.R .arrow--failed .shaft,.R .arrow--no-answer .shaft,.R .arrow--ignored .shaft,.R .arrow--invalid .shaft{stroke:#b3093a}',
  '.R .arrow--failed .head,.R .arrow--no-answer .head,.R .arrow--ignored .head,.R .arrow--invalid .head{fill:#b3093a}',
  '.R .arrow--unknown-type .shaft{stroke:#5c2c99;stroke-dasharray:6 3}',
  '.R .arrow--unknown-type .head{fill:#5c2c99}',
  '.R .arrow--not-sdk .shaft{stroke:#7c98b6;stroke-dasharray:2 3}',
  '.R .arrow--not-sdk .head{fill:#7c98b6}',
  '.R .arrow--not-sdk .label{fill:#516f90}',
  '.R .badge--error{fill:#b3093a}',
  '.R .badge--warning{fill:#8a5a00}',
  '.R .badge--note{fill:#7c98b6}',
  '.R .finding{font-size:11px;fill:#33475b}',
  '.R .finding--error{fill:#b3093a}',
  '.R .finding--warning{fill:#6b4d00}',
  '.R .arrow:focus{outline:none}',
  '.R .arrow:focus .hit,.R .arrow:hover .hit{fill:#e3f4f6}',
  '.R .arrow:focus-visible .hit{stroke:#0091ae;stroke-width:2}',
  '.R .arrow--selected .hit{fill:#fef8f0}',
  '.R .arrow--selected .shaft{stroke-width:3}',
]
  .join('\n')
  .replaceAll('.R', `.${LADDER_CLASS}`)

export interface SvgOptions {
  /** Draw one call alone (its externalCallId). */
  callKey?: string
  /** The document's title (default: "Ringside ladder"). */
  title?: string
}

function rowSvg(model: LadderModel, layout: LadderLayout, index: number): string {
  const row = model.rows[index]!
  const a = row.arrow
  const geo = rowGeometry(layout, model, index)
  const g = LADDER_GEOMETRY
  const parts: string[] = []
  // The <title> names the arrow and the <desc> describes it (SVG's own text alternatives).
  parts.push(`<g class="${arrowClasses(a)}" id="arrow-${a.id}" role="listitem">`)
  parts.push(`<title>${escapeXml(a.label)}</title><desc>${escapeXml(a.description)}</desc>`)
  parts.push(`<rect class="hit" x="0" y="${geo.arrowTop}" width="${g.width}" height="${g.rowHeight}"/>`)
  const gap = gapText(row)
  if (gap !== undefined && geo.gapY !== undefined) {
    parts.push(`<line class="gap" x1="${g.timeRight + 6}" y1="${geo.gapY - 4}" x2="${g.width - 10}" y2="${geo.gapY - 4}"/>`)
    parts.push(`<text class="gap-label" x="${g.laneX.widget + 8}" y="${geo.gapY}">${escapeXml(`⋯ ${gap}`)}</text>`)
  }
  parts.push(`<text class="time" x="${g.timeRight}" y="${geo.y + 4}">${escapeXml(offsetText(row))}</text>`)
  const dir = geo.x2 > geo.x1 ? 1 : -1
  parts.push(`<line class="shaft" x1="${geo.x1}" y1="${geo.y}" x2="${geo.x2 - dir * 8}" y2="${geo.y}"/>`)
  parts.push(`<path class="head" d="M${geo.x2} ${geo.y} l${-dir * 9} -4.5 v9 z"/>`)
  parts.push(`<text class="label" x="${geo.labelX}" y="${geo.labelY}">${escapeXml(clipText(drawnLabel(a), DRAWN_LABEL_CHARS))}</text>`)
  const finding = findingText(a)
  if (finding !== undefined) {
    const severity = badgeSeverity(a)
    parts.push(`<circle class="badge badge--${severity}" cx="${g.findingsX - 10}" cy="${geo.y - 4}" r="5"/>`)
    parts.push(`<text class="finding finding--${severity}" x="${g.findingsX}" y="${geo.y}">${escapeXml(clipText(finding, DRAWN_FINDING_CHARS))}</text>`)
  }
  parts.push('</g>')
  return parts.join('')
}

/**
 * A standalone SVG document of the ladder (the whole traffic, or one call with `callKey`).
 * Safe to open from anywhere: it has no script, no link, no external reference, and every
 * text from the traffic is escaped.
 */
export function renderLadderSvg(model: LadderModel, options: SvgOptions = {}): string {
  const shown = options.callKey === undefined || options.callKey === model.callKey ? model : selectCall(model, options.callKey)
  const layout = layoutLadder(shown)
  const g = LADDER_GEOMETRY
  const call = shown.callKey === undefined ? undefined : shown.calls.find((c) => c.key === shown.callKey)
  const title = options.title ?? 'Ringside ladder'
  const summary =
    `${shown.rows.length} arrows: ${shown.counts.messages} SDK messages and ${shown.counts.requests} API requests in the traffic; ` +
    `${shown.counts.errors} errors, ${shown.counts.warnings} warnings` +
    (call ? `; ${call.label}` : shown.calls.length > 0 ? `; ${shown.calls.length} ${shown.calls.length === 1 ? 'call' : 'calls'}` : '')
  const out: string[] = []
  out.push(
    `<svg xmlns="http://www.w3.org/2000/svg" class="${LADDER_CLASS}" width="${layout.width}" height="${layout.height}" viewBox="0 0 ${layout.width} ${layout.height}" role="img" aria-labelledby="ladder-title ladder-desc">`,
  )
  out.push(`<title id="ladder-title">${escapeXml(title)}</title><desc id="ladder-desc">${escapeXml(summary)}</desc>`)
  out.push(`<style>${LADDER_STYLE}</style>`)
  out.push(`<rect width="100%" height="100%" fill="#fff"/>`)
  out.push(`<text class="title" x="12" y="20">${escapeXml(clipText(call ? `${title} · ${call.label}` : title, 140))}</text>`)
  for (const lane of shown.lanes) {
    const x = g.laneX[lane.id]
    out.push(`<text class="lane-title" x="${x}" y="${g.headerHeight - 12}">${escapeXml(lane.label)}</text>`)
    out.push(`<line class="lifeline" x1="${x}" y1="${g.headerHeight - 4}" x2="${x}" y2="${layout.height - 8}"/>`)
  }
  out.push(`<text class="lane-title" x="${g.findingsX + 70}" y="${g.headerHeight - 12}">Findings</text>`)
  out.push('<g role="list">')
  for (let i = 0; i < shown.rows.length; i++) out.push(rowSvg(shown, layout, i))
  out.push('</g>')
  if (shown.unpinned.length > 0) {
    out.push(`<desc>${escapeXml(`Findings on no message: ${shown.unpinned.map((f) => `${f.severity}: ${f.message}`).join('; ')}`)}</desc>`)
  }
  out.push('</svg>')
  return out.join('\n')
}
