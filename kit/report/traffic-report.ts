/**
 * `ringside report <traffic-file>`: the ladders of a saved traffic file (the
 * harness inspector's Export JSON, or the traffic.json a check-widget run
 * keeps for each journey), drawn into the same self-contained HTML report as
 * check-widget's, with no widget and no browser running: the whole traffic,
 * then each call alone with its findings.
 */
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { basename, dirname, extname, join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { buildLadder, formatDuration, selectCall, type LadderModel, type LadderRow } from '../../shared/traffic/ladder.ts'
import { renderLadderSvg } from '../../shared/traffic/ladder-svg.ts'
import { parseTrafficFile, type TrafficFile } from '../../shared/traffic/traffic-file.ts'
import { renderReportHtml, type ReportModel, type ReportSection, type Verdict } from './html-report.ts'
import { openInBrowser } from '../browser/open-in-browser.ts'

export interface ReportOptions {
  /** Where to write the report (default: the traffic file's name with .html, beside it). */
  html?: string
  open?: boolean
}

/** `calls.json` → `calls.html`, beside it. */
export const defaultReportPath = (trafficPath: string) => join(dirname(trafficPath), `${basename(trafficPath, extname(trafficPath))}.html`)

const plural = (n: number, word: string) => `${n.toLocaleString('en-US')} ${word}${n === 1 ? '' : 's'}`

function verdictOf(counts: { errors: number; warnings: number }): { kind: Verdict; text: string } {
  const text = `${plural(counts.errors, 'error')}, ${plural(counts.warnings, 'warning')}`
  return { kind: counts.errors > 0 ? 'not-ready' : counts.warnings > 0 ? 'incomplete' : 'ready', text }
}

/** Each finding of the rows shown, with the arrow it is pinned on. */
function findingsOf(rows: readonly LadderRow[]): string[] {
  return rows.flatMap((row) => row.arrow.findings.map((f) => `${f.severity}: ${row.arrow.label}${row.arrow.seq !== undefined ? ` (#${row.arrow.seq})` : ''}: ${f.title ? `${f.title}: ` : ''}${f.message}`))
}

/** The report of a traffic file, one section for all of it and one per call. */
export function trafficReportModel(file: TrafficFile, name: string, generator: string, generatedAt = new Date()): ReportModel {
  const model: LadderModel = buildLadder(file)
  const whole: ReportSection = {
    title: model.calls.length === 1 ? 'All traffic (one call)' : `All traffic (${plural(model.calls.length, 'call')})`,
    verdict: verdictOf(model.counts),
    meta: [
      ['Messages', String(model.counts.messages)],
      ['CRM API requests', String(model.counts.requests)],
      ['Replies missing', String(model.counts.missingReplies)],
    ],
    ladders: [{ title: `${name}: all traffic`, svg: renderLadderSvg(model, { title: `${name}: all traffic` }) }],
    findings: [...findingsOf(model.rows), ...model.unpinned.map((f) => `${f.severity}: (on no message): ${f.title ? `${f.title}: ` : ''}${f.message}`)],
    ...(model.notes.length > 0 && { notes: model.notes }),
  }
  const calls: ReportSection[] = model.calls.map((call) => {
    const shown = selectCall(model, call.key)
    const meta: Array<[string, string]> = [['externalCallId', call.externalCallId]]
    if (call.direction) meta.push(['Direction', call.direction])
    if (call.engagementId !== undefined) meta.push(['Engagement', String(call.engagementId)])
    if (call.ringMs !== undefined) meta.push(['Ring time', formatDuration(call.ringMs)])
    if (call.talkMs !== undefined) meta.push(['Talk time', formatDuration(call.talkMs)])
    return {
      title: call.label,
      verdict: verdictOf(call),
      meta,
      ladders: [{ title: call.label, svg: renderLadderSvg(shown, { title: name }) }],
      findings: findingsOf(shown.rows),
    }
  })
  const source = [file.source, file.widgetUrl ? `widget ${file.widgetUrl}` : null, `exported ${file.exportedAt}`].filter(Boolean).join(' · ')
  return {
    title: `Traffic: ${name}`,
    subtitle: source,
    verdict: verdictOf(model.counts),
    sections: [whole, ...calls],
    generator,
    generatedAt,
  }
}

function problem(message: string): 2 {
  process.stderr.write(`ringside report: ${message}\n`)
  return 2
}

/** Runs the command; resolves to the exit code (0 written, 2 the file cannot be read or is no traffic file). */
export async function runReport(trafficPath: string, options: ReportOptions, generator: string): Promise<0 | 2> {
  let text: string
  try {
    text = readFileSync(trafficPath, 'utf8')
  } catch (error) {
    return problem(`cannot read ${trafficPath}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const parsed = parseTrafficFile(text)
  if (!parsed.ok) return problem(`${trafficPath}: ${parsed.error}. Nothing was written.`)
  const out = resolve(options.html ?? defaultReportPath(trafficPath))
  let html: string
  try {
    html = renderReportHtml(trafficReportModel(parsed.file, basename(trafficPath), generator))
  } catch (error) {
    return problem(`${trafficPath} could not be drawn (${error instanceof Error ? error.message : String(error)}). Nothing was written.`)
  }
  try {
    await mkdir(dirname(out), { recursive: true })
    await writeFile(out, html)
  } catch (error) {
    return problem(`cannot write ${out}: ${error instanceof Error ? error.message : String(error)}`)
  }
  const url = pathToFileURL(out).href
  process.stdout.write(`HTML report: ${url}\n`)
  if (options.open) {
    const result = await openInBrowser(out)
    process.stdout.write(result.opened ? `Opened it in your browser.\n` : `Not opening it here (${result.reason}); open ${url} in a browser.\n`)
  }
  return 0
}
