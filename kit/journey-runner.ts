/**
 * Runs the conformance journey once per target and run, in a browser context
 * of its own (recorded with a trace and a final screenshot), and shares the
 * outcome between the check tests. With `use: { stepScreenshots: true }` in
 * the project (check-widget's HTML report), it also keeps a small JPEG of the
 * widget after each step.
 *
 * Each check is a test of its own (one JUnit test case, one report line).
 * Playwright restarts the worker after a failed test, so the outcome is also
 * kept on disk in the run's output directory (which Playwright empties at
 * the start of every run): a fresh worker reuses it instead of placing the
 * call again.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { deserialize, serialize } from 'node:v8'
import type { Browser, BrowserContext, TestInfo } from '@playwright/test'
import { loadDriver } from './drivers/load-driver.ts'
import { Harness } from './harness.ts'
import { DEFAULT_JOURNEY, journeyNotRunnable, newJourneyResult, runJourney, type JourneyKind, type JourneyResult, type StageName } from './journey.ts'
import { installMessageRecorder } from './message-recorder.ts'
import { messageOf } from './error-text.ts'
import { kitOrigins, originOf } from './origins.ts'
import { placementOf, type Placement } from './placements.ts'
import { routeSdkCdn } from './sdk-cdn.ts'
import type { ConformanceTarget } from './targets.ts'
import { collectWidgetErrors } from './widget-errors.ts'
import { ladderAttachment, trafficOf } from './traffic.ts'
import { answerDialogs } from './dialogs.ts'
import { journeyBounds } from './journey-waits.ts'
import { waitMs, within } from '../shared/waits.ts'
import { stringifyTrafficFile } from '../shared/traffic/traffic-file.ts'

export interface JourneyChoice {
  /** Default outbound. */
  kind?: JourneyKind
  /** Default: the project's `use.placement`, else widget. */
  placement?: Placement
}

export interface StoredJourney {
  /** Where this record is kept (the HTML report reads it from there). */
  file: string
  result: JourneyResult
  /** The log as JSON text, for the report. */
  logJson: string
  /** The harness inspector's conformance findings after the journey, as shown. */
  findings: string[]
  tracePath: string | null
  screenshotPath: string | null
  /** The widget after each step that ran, in order (with stepScreenshots). */
  steps: StoredStep[]
  /** Every console message of the widget's frame. */
  console: string[]
  /** The journey's traffic as a saved traffic file (`ringside report` draws it again), and its ladder as SVG. */
  trafficPath: string | null
  ladderPath: string | null
}

export interface StoredStep {
  stage: StageName
  /** A JPEG, or null when none could be taken. */
  screenshotPath: string | null
}

/** The journey of a run that could not place its call: nothing recorded. */
const nothingRecorded = (result: JourneyResult): Omit<StoredJourney, 'file'> => ({ result, logJson: '[]', findings: [], tracePath: null, screenshotPath: null, steps: [], console: [], trafficPath: null, ladderPath: null })

/**
 * Small enough for a report with dozens of them: the widget's frame alone (a
 * clip of its page, with no wait for it to be stable: the step has ended),
 * else the whole page (the widget may be hidden).
 */
async function widgetShot(harness: Harness, path: string): Promise<string | null> {
  try {
    const host = await harness.widgetPage(1_000).catch(() => harness.page)
    const box = await harness.widgetIframe.boundingBox({ timeout: 500 }).catch(() => null)
    if (box !== null && box.width > 0 && box.height > 0) await host.screenshot({ path, type: 'jpeg', quality: 70, clip: box, timeout: 3_000 })
    else await harness.page.screenshot({ path, type: 'jpeg', quality: 40, timeout: 3_000 })
    return path
  } catch {
    return null
  }
}

const slug = (text: string) => text.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '')

async function saveTrace(context: BrowserContext, ownTrace: boolean, path: string): Promise<string | null> {
  try {
    if (ownTrace) {
      await context.tracing.stop({ path })
    } else {
      await context.tracing.stopChunk({ path })
      await context.tracing.startChunk()
    }
    return path
  } catch {
    return null
  }
}

async function runFresh(target: ConformanceTarget, browser: () => Promise<Browser>, testInfo: TestInfo, dir: string, syncTimeoutMs: number, kind: JourneyKind, placement: Placement): Promise<Omit<StoredJourney, 'file'>> {
  const baseURL = testInfo.project.use.baseURL
  const origins = kitOrigins(baseURL)
  const widgetUrl = target.url(baseURL)
  const driver = await loadDriver(target.driver, widgetUrl, origins)
  // Nothing to open for a journey the driver cannot run (every stage says why).
  const notRunnable = journeyNotRunnable(driver, { kind, widgetUrl, syncTimeoutMs })
  if (notRunnable !== null) return nothingRecorded(notRunnable)
  // --ignore-https-errors (a widget dev server with a self-signed certificate)
  const context = await (await browser()).newContext({ baseURL, ignoreHTTPSErrors: testInfo.project.use.ignoreHTTPSErrors === true })
  const tracePath = join(dir, 'trace.zip')
  const screenshotPath = join(dir, 'final.png')
  // Playwright's own `trace` option may already record every context (then we
  // save the journey as a chunk of that trace, with what that option records,
  // and let it go on); else we trace each action with its call log, the console
  // and the network, and neither DOM snapshots nor a screencast: a snapshot of
  // the harness page before and after every action cost the browser and the
  // worker more than a second of CPU per journey, for a trace that is kept only
  // when a check fails. The journey keeps its own screenshots (the final page,
  // and the widget after each step) and its wire log and ladder.
  let ownTrace: boolean
  try {
    await context.tracing.start({ screenshots: false, snapshots: false })
    ownTrace = true
  } catch {
    ownTrace = false
  }
  try {
    const page = await context.newPage()
    const messages = await installMessageRecorder(page, { harness: origins.harness, widget: originOf(widgetUrl) })
    const harness = new Harness(page, { placement })
    const collected = await collectWidgetErrors(context, originOf(widgetUrl))
    const dialogs = answerDialogs(context)
    const stalls = () => [collected.pendingLoads(), dialogs.sentence()].filter((s) => s !== null)
    // The SDK's CDN URLs are answered offline; one it cannot answer comes first among the widget's errors.
    const sdkCdn = await routeSdkCdn(context, origins.harness)
    const steps: StoredStep[] = []
    const stepScreenshots = (testInfo.project.use as { stepScreenshots?: unknown }).stepScreenshots === true
    const afterStage = async (stage: StageName) => {
      steps.push({ stage, screenshotPath: stepScreenshots ? await widgetShot(harness, join(dir, `step-${steps.length + 1}-${stage}.jpg`)) : null })
    }
    const bounds = journeyBounds(process.env)
    const result = await runJourney(
      { harness, messages, driver, widgetErrors: () => [...sdkCdn.problems(), ...collected.errors()], failedLoads: collected.failedLoads, stalls, afterStage },
      { ...DEFAULT_JOURNEY, kind, widgetUrl, syncTimeoutMs, stepTimeoutMs: bounds.messageMs, bounds },
    )
    // A dialog is a finding even when the journey passed.
    const dialogSentence = dialogs.sentence()
    if (dialogSentence !== null) result.widgetErrors.push(dialogSentence)
    // What is read from the pages now shares one bound: a page that stopped responding must not hold the verdict.
    const wrapUpEnds = Date.now() + waitMs('wrap-up', process.env)
    const bounded = <T>(work: Promise<T>, what: string) => within(work, 'wrap-up', Math.max(0, wrapUpEnds - Date.now()), { what })
    // The final screenshot shows the harness's own findings next to the page.
    const findings = await bounded(harness.inspector.findings(), "the inspector's findings").catch((error: unknown) => [`(could not read the inspector: ${messageOf(error)})`])
    const screenshot = await bounded(page.screenshot({ path: screenshotPath }), 'the screenshot').then(
      () => screenshotPath,
      () => null,
    )
    // The harness's own record of the traffic (with its API requests), from the page that hosts the widget.
    const traffic = await bounded(trafficOf(context.pages(), messages.all(), widgetUrl), "the harness's traffic").catch(() => trafficOf([], messages.all(), widgetUrl))
    const trafficPath = join(dir, 'traffic.json')
    await writeFile(trafficPath, stringifyTrafficFile(traffic))
    const ladder = ladderAttachment(traffic, `${target.name} › ${kind} journey · ${placement} placement`)
    const ladderPath = ladder.contentType === 'image/svg+xml' ? join(dir, 'ladder.svg') : null
    if (ladderPath !== null) await writeFile(ladderPath, ladder.body)
    const trace = await bounded(saveTrace(context, ownTrace, tracePath), 'the trace').catch(() => null)
    return { result, logJson: messages.toJSONText(), findings, tracePath: trace, screenshotPath: screenshot, steps, console: collected.console(), trafficPath, ladderPath }
  } finally {
    // A page frozen by its widget (or a dialog left open) can make closing fail; the browser is closed after the run anyway.
    await within(context.close(), 'wrap-up', waitMs('wrap-up', process.env), { what: 'the closing of the browser context' }).catch(() => undefined)
  }
}

/**
 * The journey of `target` in this run (one per kind and placement): from disk if a worker already ran it, else run now.
 * `browser`: the Browser, or a function that gives it, called only when the journey runs now and opens a page.
 */
export async function journeyFor(target: ConformanceTarget, browser: Browser | (() => Promise<Browser>), testInfo: TestInfo, syncTimeoutMs: number, choice: JourneyChoice = {}): Promise<StoredJourney> {
  const kind = choice.kind ?? 'outbound'
  const placement = choice.placement ?? placementOf(testInfo.project.use)
  const dir = join(testInfo.project.outputDir, '.conformance-journeys', `${slug(target.name)}-${kind}-${placement}-retry${testInfo.retry}`)
  const file = join(dir, 'journey.v8')
  try {
    return deserialize(await readFile(file)) as StoredJourney
  } catch {
    // not run yet in this run
  }
  await mkdir(dir, { recursive: true })
  const ran = await runFresh(target, typeof browser === 'function' ? browser : async () => browser, testInfo, dir, syncTimeoutMs, kind, placement).catch((error: unknown) => {
    // e.g. the driver module does not load: every check reports it.
    return nothingRecorded(newJourneyResult(target.url(testInfo.project.use.baseURL), target.driver, syncTimeoutMs, messageOf(error), kind))
  })
  const stored: StoredJourney = { file, ...ran }
  await writeFile(file, serialize(stored))
  return stored
}
