/**
 * check-widget's HTML report: one section per widget, journey and placement,
 * built from the readiness reporter's verdicts and each journey's record
 * (journey-runner.ts): the checks, the steps with the widget's screenshot
 * after each, the ladder of the journey's traffic, the harness's findings,
 * and the widget's errors and console.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { deserialize } from 'node:v8'
import type { StoredJourney } from '../journey-runner.ts'
import type { StageName, StageOutcome } from '../journey.ts'
import type { GroupSummary } from '../readiness-reporter.ts'
import { renderReportHtml, type ReportCheck, type ReportImage, type ReportLadder, type ReportModel, type ReportSection, type ReportStep, type Verdict } from './html-report.ts'

/** The annotation by which a check names its journey's record (journey-runner.ts's StoredJourney.file). */
export const JOURNEY_ANNOTATION = 'ringside-journey'

/** The project option (`use`) of a run that writes the HTML report: its path, and the path the JUnit XML links (relative to it). */
export interface HtmlReportOption {
  htmlReport?: { file: string; link: string }
}

export interface CheckReportInput {
  summaries: GroupSummary[]
  overall: { kind: Verdict; text: string }
  /** The run's one sentence saying why it is not ready. */
  why: string | null
  /** Errors outside any test (e.g. the harness server did not start). */
  errors: string[]
  generatedAt?: Date
}

/** A journey's record, or the sentence saying why it cannot be read. */
function readJourney(file: string | null): StoredJourney | string {
  if (file === null) return 'no check named its journey record'
  try {
    return deserialize(readFileSync(file)) as StoredJourney
  } catch (error) {
    return `its record could not be read (${error instanceof Error ? error.message : String(error)})`
  }
}

function readLadder(path: string | null, title: string): ReportLadder[] {
  if (path === null) return []
  try {
    return [{ title, svg: readFileSync(path, 'utf8') }]
  } catch {
    return []
  }
}

function readImage(path: string | null): ReportImage | null {
  if (path === null) return null
  try {
    const data = readFileSync(path)
    return { contentType: path.endsWith('.png') ? 'image/png' : 'image/jpeg', data }
  } catch {
    return null
  }
}

const stageDetail = (outcome: StageOutcome): string | undefined =>
  outcome.status === 'failed' ? outcome.error : outcome.status === 'passed' ? outcome.note : outcome.reason

/** The journey's stages in order (the record keeps them in the order they run). */
const stagesOf = (journey: StoredJourney) => Object.entries(journey.result.stages) as Array<[StageName, StageOutcome]>

/**
 * The journey's steps in order, each with the widget's screenshot taken when
 * it ended: the stages that ran, and those that did not with the reason (a
 * stage with nothing to do in this journey, e.g. ring in an outbound call, is left out).
 */
function stepsOf(journey: StoredJourney): ReportStep[] {
  const shots = new Map(journey.steps.map((step) => [step.stage, step.screenshotPath]))
  const shown = stagesOf(journey).filter(([stage, outcome]) => shots.has(stage) || outcome.status !== 'passed')
  return shown.map(([stage, outcome]) => {
    const detail = stageDetail(outcome)
    return { name: stage, status: outcome.status, ...(detail !== undefined && { detail }), screenshot: readImage(shots.get(stage) ?? null) }
  })
}

/** Which check failed, why, and at which step of the journey. */
export function explainFailure(summary: GroupSummary, journey: StoredJourney | null): string | null {
  const check = summary.group.rows.find((row) => row.status === 'failed')
  if (check === undefined) return null
  const why = `the check "${check.title}" failed: ${check.detail.split('\n')[0]}`
  if (journey === null) return why
  const stages = stagesOf(journey)
  const index = stages.findIndex(([, outcome]) => outcome.status === 'failed')
  if (index !== -1) {
    const [stage, outcome] = stages[index]!
    return `${why} — the journey failed at step ${index + 1} (${stage}): ${(outcome as { error: string }).error.split('\n')[0]}`
  }
  if (journey.result.fatal !== null) return `${why} — the journey stopped: ${journey.result.fatal}`
  return why
}

function checksOf(summary: GroupSummary): ReportCheck[] {
  return summary.group.rows.map((row) => ({
    title: row.title,
    status: row.status,
    // A journey that did not run says why once, above its checks.
    ...(row.status !== 'passed' && row.detail && summary.wholeSkip === null && { details: row.detail.split('\n') }),
    ...(row.warnings.length > 0 && { warnings: row.warnings }),
  }))
}

export function checkSection(summary: GroupSummary, journeyOrWhy: StoredJourney | string): ReportSection {
  const { group } = summary
  const journey = typeof journeyOrWhy === 'string' ? null : journeyOrWhy
  const meta: Array<[string, string]> = []
  if (group.widget) meta.push(['URL', group.widget])
  if (group.driver) meta.push(['Driver', group.driver])
  const section: ReportSection = { title: group.name, verdict: summary.verdict, meta, why: explainFailure(summary, journey), checks: checksOf(summary) }
  if (summary.wholeSkip !== null) return { ...section, notes: [`The journey did not run: ${summary.wholeSkip}`] }
  if (journey === null) return { ...section, notes: [`No steps, screenshots or ladder: ${journeyOrWhy as string}.`], errors: group.widgetErrors }
  if (journey.trafficPath !== null) meta.push(['Traffic file', journey.trafficPath])
  return {
    ...section,
    steps: stepsOf(journey),
    ladders: readLadder(journey.ladderPath ?? null, "The journey's traffic"),
    findings: journey.findings,
    errors: journey.result.widgetErrors,
    console: journey.console ?? [],
  }
}

export function checkReportModel(input: CheckReportInput): ReportModel {
  const widgets = [...new Set(input.summaries.map((s) => s.group.widget).filter(Boolean))]
  return {
    title: 'Widget readiness check',
    ...(widgets.length > 0 && { subtitle: widgets.join(' · ') }),
    verdict: input.overall,
    why: input.why,
    notes: input.errors,
    sections: input.summaries.map((summary) => checkSection(summary, readJourney(summary.group.journeyFile))),
    generator: 'Ringside check-widget',
    generatedAt: input.generatedAt ?? new Date(),
  }
}

/** Writes the report (creating its folder). */
export function writeCheckReport(file: string, input: CheckReportInput): void {
  const html = renderReportHtml(checkReportModel(input))
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, html)
}
