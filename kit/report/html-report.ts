/**
 * The self-contained HTML report: one file that opens offline, from disk,
 * with no server and nothing loaded from the network. check-widget writes one
 * per run (a section per journey and placement) and `ringside report` one per
 * saved traffic file (a section per call).
 *
 * - Everything is inline: the styles (shared/ui/tokens.css, then report.css),
 *   the screenshots as data: URIs, the ladders as SVG. There is no script,
 *   and a Content-Security-Policy meta tag forbids scripts and every load but
 *   data: images.
 * - Every text that came from elsewhere (widget names and URLs, message
 *   fields, API bodies, console output, findings) is escaped here. A ladder
 *   is inlined only if it is plain SVG markup (no script, no event handler,
 *   no outside link); otherwise it goes in as an image, where SVG runs nothing.
 * - Sizes are bounded: each list, each line, each ladder and the screenshots
 *   as a whole (a screenshot past the budget is left out, and the report says so).
 */
import { readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'

export type Verdict = 'ready' | 'incomplete' | 'not-ready'
export type RowStatus = 'passed' | 'failed' | 'skipped' | 'blocked'

export interface ReportImage {
  contentType: 'image/jpeg' | 'image/png'
  data: Uint8Array
}

export interface ReportCheck {
  title: string
  status: 'passed' | 'failed' | 'skipped'
  /** Why it failed (failed), or why it did not run (skipped). */
  details?: string[]
  warnings?: string[]
}

/** A step of a journey, with the widget as it looked when the step ended. */
export interface ReportStep {
  name: string
  status: RowStatus
  detail?: string
  screenshot?: ReportImage | null
}

export interface ReportLadder {
  title: string
  /** Standalone SVG markup, from the shared ladder renderer. */
  svg: string
}

export interface ReportSection {
  title: string
  verdict?: { kind: Verdict; text: string }
  /** Label and value pairs shown under the title (URL, driver, …). */
  meta?: Array<[string, string]>
  /** One sentence saying why this section failed: which check, why, at which step. */
  why?: string | null
  notes?: string[]
  checks?: ReportCheck[]
  steps?: ReportStep[]
  ladders?: ReportLadder[]
  findings?: string[]
  /** The widget's console messages. */
  console?: string[]
  /** The widget's uncaught errors, console.error calls and failed loads. */
  errors?: string[]
}

export interface ReportModel {
  title: string
  subtitle?: string
  verdict?: { kind: Verdict; text: string }
  why?: string | null
  notes?: string[]
  sections: ReportSection[]
  /** What made the report ("ringside check-widget 0.1.0") and when. */
  generator: string
  generatedAt: Date
}

export interface ReportLimits {
  /** All screenshots together, in bytes (before base64). */
  imageBudgetBytes: number
  /** One screenshot, in bytes. */
  maxImageBytes: number
  /** One ladder's SVG, in characters. */
  maxSvgChars: number
  /** Items of one list (checks, findings, console lines, …). */
  maxListItems: number
  /** Characters of one item. */
  maxItemChars: number
  /** Sections of one report. */
  maxSections: number
}

export const REPORT_LIMITS: ReportLimits = {
  imageBudgetBytes: 6_000_000,
  maxImageBytes: 400_000,
  maxSvgChars: 4_000_000,
  maxListItems: 300,
  maxItemChars: 2_000,
  maxSections: 200,
}

/** The Content-Security-Policy of the report: no script, no load but data: images, no form, no base. */
export const REPORT_CSP = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** Text for HTML content and quoted attribute values. */
export function escapeHtml(text: unknown): string {
  return String(text).replace(/[&<>"']/g, (c) => ESCAPES[c]!)
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}… (${text.length.toLocaleString('en-US')} characters)` : text)

let stylesCache: string | null = null

/**
 * The report's styles: the design tokens, then report.css. Found next to this
 * module in the source tree, or next to the built package's lib/ (the build
 * copies both files there).
 */
export function reportStyles(): string {
  if (stylesCache !== null) return stylesCache
  const here = import.meta.dirname
  const candidates = [
    [join(here, 'tokens.css'), join(here, 'report.css')],
    [resolve(here, '../../shared/ui/tokens.css'), join(here, 'report.css')],
  ]
  for (const [tokens, report] of candidates) {
    try {
      // The tokens go in where report.css imports them: a report loads nothing.
      stylesCache = `${readFileSync(tokens!, 'utf8')}\n${readFileSync(report!, 'utf8').replace(/^@import [^;\n]*;$/gm, '')}`
      return stylesCache
    } catch {
      // not this layout
    }
  }
  throw new Error(`The report's stylesheets (tokens.css, report.css) are missing next to ${here}; rebuild the package (npm run build).`)
}

// ---------------------------------------------------------------------------------------------------------
// Ladders: inline only plain SVG markup.

const SVG_ELEMENTS = new Set(['svg', 'g', 'defs', 'marker', 'title', 'desc', 'line', 'polyline', 'polygon', 'path', 'rect', 'circle', 'ellipse', 'text', 'tspan', 'style', 'symbol', 'use', 'clippath', 'lineargradient', 'stop'])
/** The attributes whose value may name something to load (a url(), in styles and paint servers); text attributes (aria-label, …) may hold any text. */
const REFERENCING = new Set(['style', 'fill', 'stroke', 'marker-start', 'marker-mid', 'marker-end', 'clip-path', 'mask', 'filter', 'cursor'])
const TAG = /<(\/?)([a-zA-Z][\w:-]*)((?:\s+[^\s=>/"']+(?:\s*=\s*(?:"[^"]*"|'[^']*'|[^\s"'=<>`]+))?)*)\s*(\/?)>/y
const ATTRIBUTE = /([^\s=>/"']+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

/**
 * True when `svg` is one <svg> element of plain drawing markup: known SVG
 * elements only, no event handler attribute, links only to fragments of the
 * same document, and no markup declaration, comment or processing
 * instruction but a leading XML declaration. Anything else is not inlined.
 */
export function isPlainSvg(svg: string): boolean {
  const text = svg.replace(/^\s*<\?xml[^<>]*\?>/, '').trim()
  if (!/^<svg[\s>]/.test(text) || !text.endsWith('</svg>')) return false
  let at = text.indexOf('<')
  let budget = 2_000_000
  while (at !== -1) {
    if (--budget < 0) return false
    TAG.lastIndex = at
    const tag = TAG.exec(text)
    if (tag === null) return false
    const [, , name = '', attributes = ''] = tag
    if (!SVG_ELEMENTS.has(name.toLowerCase())) return false
    for (const [, attribute = '', double, single, bare] of attributes.matchAll(ATTRIBUTE)) {
      const key = attribute.toLowerCase()
      const value = (double ?? single ?? bare ?? '').trim()
      if (key.startsWith('on')) return false
      if ((key === 'href' || key === 'xlink:href' || key === 'src') && !value.startsWith('#')) return false
      if (REFERENCING.has(key) && (/url\s*\(\s*['"]?(?!#)/i.test(value) || /javascript:|@import|expression\s*\(/i.test(value))) return false
    }
    at = text.indexOf('<', TAG.lastIndex)
  }
  // A <style>'s text may not reach outside the document either.
  const styles = [...text.matchAll(/<style[^<>]*>([^<]*)<\/style>/gi)].map((m) => m[1]).join('\n')
  return !/@import|url\s*\(\s*['"]?(?!#)|javascript:|expression\s*\(/i.test(styles)
}

const base64 = (data: Uint8Array) => Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')

/**
 * The SVG with its ids made unique in the report (`<prefix>-<id>`), and every
 * reference to them (aria-labelledby, aria-describedby, href="#…", url(#…)):
 * a report holds several ladders, and an id must name one element.
 */
export function prefixSvgIds(svg: string, prefix: string): string {
  const ids = new Set([...svg.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1]!))
  if (ids.size === 0) return svg
  const renamed = (id: string) => (ids.has(id) ? `${prefix}-${id}` : id)
  return svg
    .replace(/(\sid=")([^"]+)"/g, (_, head: string, id: string) => `${head}${renamed(id)}"`)
    .replace(/(\saria-(?:labelledby|describedby)=")([^"]*)"/g, (_, head: string, list: string) => `${head}${list.split(/\s+/).map(renamed).join(' ')}"`)
    .replace(/(\s(?:xlink:)?href="#)([^"]+)"/g, (_, head: string, id: string) => `${head}${renamed(id)}"`)
    .replace(/url\(#([^)\s]+)\)/g, (_, id: string) => `url(#${renamed(id)})`)
}

function ladderHtml(ladder: ReportLadder, limits: ReportLimits, heading: string, index: string): string {
  if (ladder.svg.length > limits.maxSvgChars) {
    return `${heading}<p class="note">This ladder is ${ladder.svg.length.toLocaleString('en-US')} characters of SVG, more than the report holds (${limits.maxSvgChars.toLocaleString('en-US')}); open the traffic in the harness's inspector to see it.</p>`
  }
  if (isPlainSvg(ladder.svg)) return `${heading}<div class="ladder" role="figure" aria-label="${escapeHtml(ladder.title)}">${prefixSvgIds(ladder.svg, `ladder${index}`)}</div>`
  const uri = `data:image/svg+xml;base64,${Buffer.from(ladder.svg, 'utf8').toString('base64')}`
  // eslint-disable-next-line ringside/url-sink -- a data: URI made just above from the ladder's SVG; the report's CSP allows data: images only, and an <img> runs no script
  return `${heading}<div class="ladder"><img alt="${escapeHtml(ladder.title)}" src="${uri}"></div>`
}

// ---------------------------------------------------------------------------------------------------------
// Screenshots: data: URIs within a budget.

const MAGIC: Record<ReportImage['contentType'], number[]> = { 'image/jpeg': [0xff, 0xd8, 0xff], 'image/png': [0x89, 0x50, 0x4e, 0x47] }

class ImageBudget {
  #left: number
  constructor(readonly limits: ReportLimits) {
    this.#left = limits.imageBudgetBytes
  }

  /** An <img>, or the sentence saying why the screenshot is not in the report. */
  html(image: ReportImage, alt: string): string {
    const magic = MAGIC[image.contentType]
    if (magic === undefined || !magic.every((byte, i) => image.data[i] === byte)) return `<div class="no-shot">not a ${escapeHtml(String(image.contentType))} image: left out</div>`
    if (image.data.byteLength > this.limits.maxImageBytes) return `<div class="no-shot">screenshot of ${kb(image.data.byteLength)} left out (over ${kb(this.limits.maxImageBytes)})</div>`
    if (image.data.byteLength > this.#left) return `<div class="no-shot">screenshot left out: the report's ${kb(this.limits.imageBudgetBytes)} for screenshots is spent</div>`
    this.#left -= image.data.byteLength
    return `<img alt="${escapeHtml(alt)}" src="data:${image.contentType};base64,${base64(image.data)}">`
  }
}

const kb = (bytes: number) => `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`

// ---------------------------------------------------------------------------------------------------------
// Sections.

const MARK: Record<RowStatus, string> = { passed: '✔', failed: '✖', skipped: '○', blocked: '·' }

function lines(items: readonly string[], limits: ReportLimits, className = ''): string {
  const shown = items.slice(0, limits.maxListItems)
  const more = items.length - shown.length
  return `<ul class="lines${className ? ` ${className}` : ''}">${shown.map((item) => `<li><pre>${escapeHtml(clip(item, limits.maxItemChars))}</pre></li>`).join('')}${more > 0 ? `<li class="muted">… and ${more.toLocaleString('en-US')} more, not shown</li>` : ''}</ul>`
}

function verdictHtml(verdict: { kind: Verdict; text: string }): string {
  return `<span class="verdict ${verdict.kind}">${escapeHtml(verdict.text)}</span>`
}

function checksHtml(checks: readonly ReportCheck[], limits: ReportLimits): string {
  const rows = checks.slice(0, limits.maxListItems).map((check) => {
    const details = (check.details ?? []).slice(0, limits.maxListItems).map((d) => `<div class="${check.status === 'failed' ? 'problem' : 'muted'}">${escapeHtml(clip(d, limits.maxItemChars))}</div>`)
    const warnings = (check.warnings ?? []).slice(0, limits.maxListItems).map((w) => `<div class="warning">⚠ warning: ${escapeHtml(clip(w, limits.maxItemChars))}</div>`)
    return `<tr class="${check.status}"><td class="mark" aria-label="${check.status}">${MARK[check.status]}</td><td>${escapeHtml(clip(check.title, limits.maxItemChars))}${details.join('')}${warnings.join('')}</td><td class="muted">${check.status}</td></tr>`
  })
  return `<h3>Checks</h3><table><thead><tr><th></th><th>Check</th><th>Verdict</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
}

function stepsHtml(steps: readonly ReportStep[], images: ImageBudget, limits: ReportLimits): string {
  const figures = steps.slice(0, limits.maxListItems).map((step, i) => {
    const alt = `The widget after step ${i + 1}, ${step.name} (${step.status})`
    const shot = step.screenshot ? images.html(step.screenshot, alt) : '<div class="no-shot">no screenshot</div>'
    const detail = step.detail ? `<br><span class="${step.status === 'failed' ? 'problem' : 'muted'}">${escapeHtml(clip(step.detail, limits.maxItemChars))}</span>` : ''
    return `<figure class="${step.status}">${shot}<figcaption>${MARK[step.status]} <strong>${i + 1}. ${escapeHtml(step.name)}</strong> <span class="muted">${step.status}</span>${detail}</figcaption></figure>`
  })
  return `<h3>Steps</h3><div class="steps">${figures.join('')}</div>`
}

function sectionHtml(section: ReportSection, index: number, images: ImageBudget, limits: ReportLimits): string {
  const parts: string[] = []
  parts.push(`<div class="section-head"><h2>${escapeHtml(clip(section.title, limits.maxItemChars))}</h2>${section.verdict ? verdictHtml(section.verdict) : ''}</div>`)
  for (const [label, value] of (section.meta ?? []).slice(0, limits.maxListItems)) parts.push(`<div class="sub">${escapeHtml(label)}: <span class="mono">${escapeHtml(clip(value, limits.maxItemChars))}</span></div>`)
  if (section.why) parts.push(`<div class="why"><strong>Why:</strong> ${escapeHtml(clip(section.why, limits.maxItemChars))}</div>`)
  for (const note of (section.notes ?? []).slice(0, limits.maxListItems)) parts.push(`<p class="note">${escapeHtml(clip(note, limits.maxItemChars))}</p>`)
  if (section.checks?.length) parts.push(checksHtml(section.checks, limits))
  if (section.steps?.length) parts.push(stepsHtml(section.steps, images, limits))
  const ladders = section.ladders ?? []
  // One ladder: one heading; several: each under its own.
  const ladderId = (i: number) => `${index + 1}-${i + 1}`
  if (ladders.length === 1) parts.push(ladderHtml(ladders[0]!, limits, `<h3>Ladder: ${escapeHtml(ladders[0]!.title)}</h3>`, ladderId(0)))
  if (ladders.length > 1) parts.push(`<h3>Ladders</h3>`, ...ladders.slice(0, limits.maxListItems).map((ladder, i) => ladderHtml(ladder, limits, `<h4>${escapeHtml(ladder.title)}</h4>`, ladderId(i))))
  if (section.findings !== undefined) parts.push(`<h3>Findings (${section.findings.length})</h3>`, section.findings.length > 0 ? lines(section.findings, limits) : '<p class="muted">No findings.</p>')
  if (section.errors !== undefined) parts.push(`<h3>The widget's errors (${section.errors.length})</h3>`, section.errors.length > 0 ? lines(section.errors, limits, 'problem') : '<p class="muted">None.</p>')
  if (section.console !== undefined) {
    parts.push(
      section.console.length > 0
        ? `<details><summary>The widget's console (${section.console.length})</summary>${lines(section.console, limits)}</details>`
        : `<h3>The widget's console</h3><p class="muted">Nothing logged.</p>`,
    )
  }
  return `<section class="card" id="section-${index + 1}" aria-label="${escapeHtml(clip(section.title, 200))}">${parts.join('\n')}</section>`
}

/** The report as one HTML document. */
export function renderReportHtml(model: ReportModel, limits: ReportLimits = REPORT_LIMITS, styles: string = reportStyles()): string {
  const images = new ImageBudget(limits)
  const sections = model.sections.slice(0, limits.maxSections)
  const left = model.sections.length - sections.length
  const head = [
    `<h1>${escapeHtml(clip(model.title, limits.maxItemChars))}</h1>`,
    model.subtitle ? `<div class="sub">${escapeHtml(clip(model.subtitle, limits.maxItemChars))}</div>` : '',
    model.verdict ? `<p>${verdictHtml(model.verdict)}</p>` : '',
    model.why ? `<div class="why"><strong>Why:</strong> ${escapeHtml(clip(model.why, limits.maxItemChars))}</div>` : '',
    ...(model.notes ?? []).slice(0, limits.maxListItems).map((note) => `<p class="note">${escapeHtml(clip(note, limits.maxItemChars))}</p>`),
    sections.length > 1
      ? `<ol class="toc">${sections.map((s, i) => `<li><a href="#section-${i + 1}">${escapeHtml(clip(s.title, 300))}</a>${s.verdict ? ` ${verdictHtml(s.verdict)}` : ''}</li>`).join('')}</ol>`
      : '',
    left > 0 ? `<p class="note">${left.toLocaleString('en-US')} more sections are not in this report (it holds ${limits.maxSections}).</p>` : '',
  ]
  const body = sections.map((section, i) => sectionHtml(section, i, images, limits))
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(clip(model.title, 300))}</title>`,
    `<style>${styles.replace(/<\/style/gi, '<\\/style')}</style>`,
    '</head>',
    '<body><main>',
    `<header class="card">${head.join('\n')}</header>`,
    ...body,
    `<footer>${escapeHtml(model.generator)} · ${escapeHtml(model.generatedAt.toISOString())} · a self-contained file: it loads nothing from the network.</footer>`,
    '</main></body>',
    '</html>',
    '',
  ].join('\n')
}
