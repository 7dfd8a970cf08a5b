/**
 * Playwright reporter that prints the conformance suite as a marketplace
 * readiness check: per widget, one line per check (✔ passed, ✖ failed,
 * ○ skipped with its reason) with its warnings (⚠, annotation `warnings`),
 * the widget frame's console and uncaught errors (annotation `widget-errors`),
 * then a verdict that names the skipped checks and why. Tests without a
 * `conformance-check` annotation are summed up in one line.
 *
 * Groups are per widget, journey (outbound, inbound) and placement (the
 * project, e.g. "window placement"). While the run goes on, each journey's
 * start and each check's outcome are printed to stderr as they finish, so a
 * long check shows where it is.
 *
 * Options: `{ outputFile?: string }` also writes the report as plain text;
 * `{ htmlFile?: string }` also writes the self-contained HTML report
 * (report/check-report.ts), which reads each journey's record from the file
 * its checks name (annotation `ringside-journey`).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { pathToFileURL } from 'node:url'
import type { FullConfig, FullResult, Reporter, Suite, TestCase, TestError, TestResult } from '@playwright/test/reporter'
import { JOURNEY_ANNOTATION, writeCheckReport } from './report/check-report.ts'
import type { Verdict } from './report/html-report.ts'
import { NOTHING_RAN } from './report/nothing-ran.ts'
import { plainText } from './error-text.ts'
import { JOURNEYS } from './journey-kinds.ts'

export interface Row {
  status: 'passed' | 'failed' | 'skipped'
  title: string
  detail: string
  warnings: string[]
}

export interface Group {
  name: string
  widget: string
  driver: string
  rows: Row[]
  widgetErrors: string[]
  /** The journey's record (journey-runner.ts), if a check named it. */
  journeyFile: string | null
}

/** A group's verdict, for the text and the HTML report alike. */
export interface GroupSummary {
  group: Group
  failed: number
  skipped: number
  warnings: number
  verdict: { kind: Verdict; text: string }
  /** The first failed check's first problem. */
  problem: string | null
  /** Every check skipped for the same reason (a journey that did not run): that reason. */
  wholeSkip: string | null
}

export function summarize(group: Group): GroupSummary {
  const { rows } = group
  const wholeSkip = rows.length > 1 && rows.every((r) => r.status === 'skipped' && r.detail === rows[0]!.detail) ? rows[0]!.detail : null
  const failed = rows.filter((r) => r.status === 'failed').length
  const skipped = rows.filter((r) => r.status === 'skipped').length
  const warnings = rows.reduce((sum, r) => sum + r.warnings.length, 0)
  const passed = rows.length - failed - skipped
  const problem = rows.find((r) => r.status === 'failed')?.detail.split('\n')[0]?.replace(/^[a-zA-Z]+: /, '') ?? null
  const tail = warnings > 0 ? `; ${warnings} ${warnings === 1 ? 'warning' : 'warnings'} (they fail only with --strict)` : ''
  const verdict: GroupSummary['verdict'] =
    wholeSkip !== null
      ? { kind: 'incomplete', text: `INCOMPLETE: 0 passed, ${rows.length} skipped` }
      : failed > 0
        ? { kind: 'not-ready', text: `NOT READY: ${failed} of ${rows.length} checks failed, ${passed} passed, ${skipped} skipped${tail}` }
        : skipped > 0
          ? { kind: 'incomplete', text: `INCOMPLETE: ${passed} passed, ${skipped} skipped${tail}` }
          : { kind: 'ready', text: `READY: all ${rows.length} checks passed${tail}` }
  return { group, failed, skipped, warnings, verdict, problem, wholeSkip }
}


const MARK: Record<Row['status'], string> = { passed: '✔', failed: '✖', skipped: '○' }

function annotation(result: TestResult, test: TestCase, type: string): string | undefined {
  return (result.annotations ?? []).find((a) => a.type === type)?.description ?? test.annotations.find((a) => a.type === type)?.description
}

/** The check's problems (annotation `problems`), else the first lines of the error. */
function problemsOf(result: TestResult, test: TestCase): string {
  const listed = annotation(result, test, 'problems')
  if (listed) return listed
  const message = result.errors[0]?.message ?? result.error?.message ?? 'failed'
  return plainText(message).split('\n').filter((line) => line.trim() !== '').slice(0, 3).join('\n')
}

/** "<widget> › <kind> journey · <placement>" of a check, or null for another test. */
function groupOf(test: TestCase): string | null {
  if (!test.parent.title.startsWith('Conformance: ')) return null
  const project = test.parent.project()?.name || 'widget placement'
  return `${test.parent.title.replace(/^Conformance: /, '')} · ${project}`
}

export default class ReadinessReporter implements Reporter {
  readonly #groups = new Map<string, Group>()
  /** Each group's journey (annotation `journey`): the report lists a widget's journeys in JOURNEYS order, whatever order they ran in. */
  readonly #kinds = new Map<string, string>()
  /** The skip reason of each journey's last finished check, for the progress lines. */
  readonly #lastSkip = new Map<string, string | null>()
  readonly #started = new Set<string>()
  #total = 0
  #done = 0
  readonly #others = { passed: 0, failed: 0, skipped: 0 }
  readonly #errors: string[] = []
  readonly #outputFile: string | undefined
  readonly #htmlFile: string | undefined

  constructor(options: { outputFile?: string; htmlFile?: string } = {}) {
    this.#outputFile = options.outputFile
    this.#htmlFile = options.htmlFile
  }

  printsToStdio(): boolean {
    return true
  }

  onBegin(_config: FullConfig, suite: Suite): void {
    this.#total = suite.allTests().length
  }

  onTestBegin(test: TestCase): void {
    const group = groupOf(test)
    if (group === null || this.#started.has(group)) return
    this.#started.add(group)
    process.stderr.write(`▶ ${group}: running the journey…\n`)
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Only the final attempt counts.
    if (result.retry < test.retries && result.status !== 'passed' && result.status !== 'skipped') return
    const status: Row['status'] = result.status === 'passed' ? 'passed' : result.status === 'skipped' ? 'skipped' : 'failed'
    this.#done += 1
    const where = groupOf(test)
    // A reason the check before it in the same journey gave already (a journey the driver cannot run, a failed step) is not repeated.
    const skipReason = status === 'skipped' ? (annotation(result, test, 'skip') ?? '').replace(/^skipped: /, '') : null
    const sameReason = skipReason !== null && this.#lastSkip.get(groupOf(test) ?? '') === skipReason
    this.#lastSkip.set(groupOf(test) ?? '', skipReason)
    const skipNote = skipReason === null ? '' : sameReason ? ' — skipped: the same reason' : ` — skipped: ${skipReason}`
    process.stderr.write(`  ${MARK[status]} [${this.#done}/${this.#total}] ${where === null ? test.title : `${where.replace(/^.* › /, '')}: ${test.title}`}${skipNote}\n`)
    // Checks live in "Conformance: <widget>" describes; a check whose setup
    // failed has no annotations yet but still belongs to its widget.
    const name = groupOf(test)
    if (name === null) {
      this.#others[status] += 1
      return
    }
    const group = this.#groups.get(name) ?? { name, widget: '', driver: '', rows: [], widgetErrors: [], journeyFile: null }
    group.journeyFile ??= annotation(result, test, JOURNEY_ANNOTATION) ?? null
    group.widget ||= annotation(result, test, 'widget') ?? ''
    group.driver ||= annotation(result, test, 'driver') ?? ''
    if (group.widgetErrors.length === 0) group.widgetErrors = (annotation(result, test, 'widget-errors') ?? '').split('\n').filter(Boolean)
    const skip = annotation(result, test, 'skip')
    group.rows.push({
      status,
      title: test.title,
      detail: status === 'failed' ? problemsOf(result, test) : status === 'skipped' ? (skip ?? 'skipped').replace(/^skipped: /, '') : '',
      warnings: status === 'passed' ? (annotation(result, test, 'warnings') ?? '').split('\n').filter(Boolean) : [],
    })
    this.#groups.set(name, group)
    const kind = annotation(result, test, 'journey')
    if (kind !== undefined) this.#kinds.set(name, kind)
  }

  /** The groups as the report lists them: each widget and placement in the order they first finished, its journeys in JOURNEYS order. */
  #inReportOrder(): Group[] {
    const groups = [...this.#groups.values()]
    const kindRank = (group: Group) => {
      const rank = (JOURNEYS as readonly string[]).indexOf(this.#kinds.get(group.name) ?? '')
      return rank === -1 ? JOURNEYS.length : rank
    }
    const pairOf = (group: Group) => group.name.replace(` › ${this.#kinds.get(group.name) ?? ''} journey`, '')
    const firstSeen = new Map<string, number>()
    groups.forEach((group, index) => firstSeen.set(pairOf(group), Math.min(firstSeen.get(pairOf(group)) ?? index, index)))
    return groups.sort((a, b) => firstSeen.get(pairOf(a))! - firstSeen.get(pairOf(b))! || kindRank(a) - kindRank(b))
  }

  /** Output of no test (the harness server's, e.g. why it could not start) goes through as it comes. */
  onStdErr(chunk: string | Buffer, test?: TestCase): void {
    if (test === undefined) process.stderr.write(chunk)
  }

  onError(error: TestError): void {
    this.#errors.push((error.message ?? String(error.value ?? 'unknown error')).split('\n').slice(0, 3).join('\n'))
  }

  onEnd(result: FullResult): void {
    const lines: string[] = ['']
    for (const error of this.#errors) lines.push(`✖ ${error}`, '')
    let failed = 0
    let skipped = 0
    let total = 0
    let firstProblem: string | null = null
    const summaries: GroupSummary[] = []
    for (const group of this.#inReportOrder()) {
      const summary = summarize(group)
      summaries.push(summary)
      lines.push(`Widget readiness check — ${group.name}`)
      if (group.widget) lines.push(`  URL:    ${group.widget}`)
      if (group.driver) lines.push(`  Driver: ${group.driver}`)
      failed += summary.failed
      skipped += summary.skipped
      total += group.rows.length
      if (summary.wholeSkip !== null) {
        lines.push(`  ○ all ${group.rows.length} checks skipped: ${summary.wholeSkip}`, `  Verdict: ${summary.verdict.text}`, '')
        continue
      }
      for (const row of group.rows) {
        lines.push(`  ${MARK[row.status]} ${row.title}${row.status === 'skipped' ? ` — skipped: ${row.detail}` : ''}`)
        if (row.status === 'failed' && row.detail) for (const detail of row.detail.split('\n')) lines.push(`      ${detail}`)
        for (const warning of row.warnings) lines.push(`      ⚠ warning: ${warning}`)
      }
      if (group.widgetErrors.length > 0) {
        lines.push(`  The widget's own errors (console.error and uncaught, in its frame):`)
        for (const error of group.widgetErrors) lines.push(`      ${error}`)
      }
      if (firstProblem === null && summary.problem !== null) firstProblem = `${group.name}: ${summary.problem}`
      lines.push(`  Verdict: ${summary.verdict.text}`)
      for (const row of group.rows.filter((r) => r.status === 'skipped')) lines.push(`    skipped: ${row.title} — ${row.detail}`)
      lines.push('')
    }
    if (this.#groups.size === 0) lines.push(NOTHING_RAN, '')
    const others = this.#others
    if (others.passed + others.failed + others.skipped > 0) lines.push(`Other tests: ${others.passed} passed, ${others.failed} failed, ${others.skipped} skipped`, '')
    const ready = result.status === 'passed' && failed === 0
    const overall = `${total - failed - skipped} passed, ${failed} failed, ${skipped} skipped — ${ready ? (skipped > 0 ? 'INCOMPLETE' : 'READY') : 'NOT READY'}`
    lines.push(`Overall: ${overall}`)
    // The one sentence that says why, first.
    const why = ready ? null : (firstProblem ?? this.#errors[0]?.split('\n')[0] ?? null)
    if (why !== null) lines.push(`Why: ${why}`)
    if (this.#htmlFile) {
      try {
        writeCheckReport(this.#htmlFile, { summaries, overall: { kind: ready ? (skipped > 0 ? 'incomplete' : 'ready') : 'not-ready', text: overall }, why, errors: this.#errors })
        lines.push(`HTML report: ${pathToFileURL(this.#htmlFile).href}`)
      } catch (error) {
        lines.push(`The HTML report could not be written to ${this.#htmlFile}: ${error instanceof Error ? error.message : String(error)}`)
      }
    }
    lines.push('')
    const text = lines.join('\n')
    process.stdout.write(`${text}\n`)
    if (this.#outputFile) {
      mkdirSync(dirname(this.#outputFile), { recursive: true })
      writeFileSync(this.#outputFile, text)
    }
  }
}
