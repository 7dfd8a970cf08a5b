/**
 * The conformance journeys: one call through the harness, from the widget's
 * handshake to the CRM's confirmation of the call log.
 *
 * - outbound: the user presses Call on a record (DIAL_NUMBER), the widget
 *   places the call (OUTGOING_CALL_STARTED), it is answered, hung up and
 *   wrapped up;
 * - inbound: the driver rings the widget with a call from the record's number
 *   (INCOMING_CALL), the user answers it in the widget, hangs up and wraps
 *   up. Only a driver that can ring the widget (`ring`) runs it; otherwise
 *   every stage is skipped with that reason.
 *
 * In the inbound journey the `dial` stage has nothing to do and `placeCall`
 * is the call ringing in; in the outbound one `ring` has nothing to do.
 * Each stage
 * ends passed, failed, skipped (the driver cannot do it and the widget did
 * not do it by itself) or blocked (an earlier stage failed). It never
 * throws: the checks (checks.ts) judge the outcome afterwards. Each stage,
 * and the journey, ends within its bound (journey-waits.ts): a widget that
 * hangs fails the stage it hung at, with a sentence that says so.
 */
import { expect } from '@playwright/test'
import { StepSkipped, type DriverContext, type DriverStep, type WidgetDriver } from './drivers/types.ts'
import type { CallEngagement, Harness } from './harness.ts'
import { payloadOf, type MessageLog, type RecordedMessage } from './message-log.ts'
import { replayWire, startedCallId } from '../shared/protocol/index.ts'
import { messageOf } from './error-text.ts'
import type { JourneyKind } from './journey-kinds.ts'
import { frozenSentence, hungSentence, journeyBounds, stepMessage, type JourneyBounds } from './journey-waits.ts'
import { WaitExpired, within } from '../shared/waits.ts'
import { placementHandshakeProblem } from './two-frames.ts'

export { JOURNEYS, type JourneyKind } from './journey-kinds.ts'

export const STAGES = ['handshake', 'initialized', 'login', 'dial', 'ring', 'placeCall', 'engagement', 'answer', 'hangUp', 'wrapUp', 'update'] as const
export type StageName = (typeof STAGES)[number]

export type StageOutcome =
  | { status: 'passed'; note?: string }
  | { status: 'failed'; error: string }
  | { status: 'skipped'; reason: string }
  /** Not run: `after` (an earlier stage) failed; without it, the journey stopped before this stage. */
  | { status: 'blocked'; reason: string; after?: StageName }

export interface JourneyOptions {
  /** Which call (default outbound). */
  kind?: JourneyKind
  widgetUrl: string
  /** The host's handshake timeout (`?syncTimeoutMs=`). */
  syncTimeoutMs: number
  /** The record whose Call button is pressed, and the number shown on it. */
  record: { type: string; id: string; phone: string }
  /** How long to wait for a widget to do a step by itself when the driver cannot (ms). */
  graceMs: number
  /** Longest wait for one expected message after a step (ms): the `journey-message` bound. */
  stepTimeoutMs: number
  notes: string
  /** The other bounds (journey-waits.ts); default: the table's. */
  bounds?: JourneyBounds
}

export const DEFAULT_JOURNEY: Omit<JourneyOptions, 'widgetUrl'> = {
  syncTimeoutMs: 10_000,
  record: { type: 'contacts', id: '1', phone: '+1 617 555 0101' },
  graceMs: 3_000,
  stepTimeoutMs: journeyBounds().messageMs,
  notes: 'Ringside conformance check call',
}

export interface JourneyResult {
  kind: JourneyKind
  widgetUrl: string
  driverName: string
  syncTimeoutMs: number
  stages: Record<StageName, StageOutcome>
  /** The engagement id the host created for the call (CREATE_ENGAGEMENT_SUCCEEDED), if any. */
  createdEngagementId: number | null
  /** The externalCallId of the journey's call (from OUTGOING_CALL_STARTED or INCOMING_CALL), if any. */
  externalCallId: string | null
  /** The call engagement read back from the CRM API after the call, if any. */
  engagement: CallEngagement | null
  /** Every recorded message. */
  log: RecordedMessage[]
  /** What the widget's frame logged with console.error and threw uncaught (clipped, at most 20). */
  widgetErrors: string[]
  /** An error outside any stage (e.g. the harness did not load). */
  fatal: string | null
}

interface JourneyDeps {
  harness: Harness
  messages: MessageLog
  driver: WidgetDriver
  /** The widget frame's console errors and uncaught errors so far (widget-errors.ts collects them). */
  widgetErrors?: () => string[]
  /** The widget frame's failed loads so far (a script answering 404, …). */
  failedLoads?: () => string[]
  /** Why a page may be stuck (loads that never finished, dialogs), said with a failed handshake or a hung step. */
  stalls?: () => string[]
  /** Called after each stage that ran (e.g. to take a screenshot of the widget); its errors are ignored. */
  afterStage?: (name: StageName, outcome: StageOutcome) => Promise<void>
}


/** A journey with every stage not reached yet (and `fatal`, if it could not start). */
export function newJourneyResult(widgetUrl: string, driverName: string, syncTimeoutMs: number, fatal: string | null = null, kind: JourneyKind = 'outbound'): JourneyResult {
  const reason = fatal === null ? 'not reached' : `not reached: ${fatal}`
  return {
    kind,
    widgetUrl,
    driverName,
    syncTimeoutMs,
    stages: Object.fromEntries(STAGES.map((s) => [s, { status: 'blocked', reason }])) as Record<StageName, StageOutcome>,
    createdEngagementId: null,
    externalCallId: null,
    engagement: null,
    log: [],
    widgetErrors: [],
    fatal,
  }
}

/**
 * The journey a driver cannot run, with every stage skipped and the reason (the inbound one, for a driver without
 * `ring`); null when the driver can run it. It needs no page: the kit opens none for it.
 */
export function journeyNotRunnable(driver: WidgetDriver, options: Pick<JourneyOptions, 'kind' | 'widgetUrl' | 'syncTimeoutMs'>): JourneyResult | null {
  const kind = options.kind ?? 'outbound'
  if (kind !== 'inbound' || driver.ring !== undefined) return null
  const result = newJourneyResult(options.widgetUrl, driver.name, options.syncTimeoutMs, null, kind)
  const reason = `the driver (${driver.name}) cannot ring the widget: a driver that provides \`ring\` runs the inbound journey`
  for (const name of STAGES) result.stages[name] = { status: 'skipped', reason }
  return result
}

export async function runJourney({ harness, messages, driver, widgetErrors = () => [], failedLoads = () => [], stalls = () => [], afterStage }: JourneyDeps, options: JourneyOptions): Promise<JourneyResult> {
  const notRunnable = journeyNotRunnable(driver, options)
  if (notRunnable !== null) return notRunnable
  const kind = options.kind ?? 'outbound'
  const result = newJourneyResult(options.widgetUrl, driver.name, options.syncTimeoutMs, null, kind)
  const stages = result.stages
  const page = harness.page
  const wait = options.stepTimeoutMs
  const bounds = { ...journeyBounds(), ...options.bounds, messageMs: wait }
  const widgetOrigin = new URL(options.widgetUrl).origin
  const frozen = () => frozenSentence(page, widgetOrigin, bounds.probeMs)
  /** Set once the handshake ended: the journey's own bound runs from there. */
  let journeyEnds = Number.POSITIVE_INFINITY
  let blockedBy: StageName | null = null
  let skippedBy: string | null = null

  /**
   * Runs one stage unless an earlier one failed or was skipped. An `optional`
   * stage that fails or is skipped does not stop the later ones (the checks
   * that need it still report it).
   */
  const stage = async (name: StageName, body: () => Promise<StageOutcome>, optional = false): Promise<void> => {
    if (blockedBy !== null) {
      stages[name] = { status: 'blocked', reason: `not reached: ${blockedBy} failed`, after: blockedBy }
      return
    }
    if (skippedBy !== null) {
      stages[name] = { status: 'skipped', reason: skippedBy }
      return
    }
    let outcome: StageOutcome
    // The handshake has its own bound (the sync timeout) before the step's; after it, the journey's bound counts down.
    const stepMs = name === 'handshake' ? options.syncTimeoutMs + bounds.stepMs : bounds.stepMs
    const left = journeyEnds - Date.now()
    const [waitName, ms] = left < stepMs ? (['journey', bounds.journeyMs] as const) : (['journey-step', stepMs] as const)
    try {
      outcome = await within(body(), waitName, Math.min(stepMs, left))
    } catch (error) {
      outcome = { status: 'failed', error: error instanceof WaitExpired ? hungSentence(waitName, ms, name, await frozen(), stalls()) : messageOf(error) }
    }
    stages[name] = outcome
    await afterStage?.(name, outcome).catch(() => undefined)
    if (outcome.status === 'failed' && !optional) blockedBy = name
    if (outcome.status === 'skipped' && !optional) skippedBy = outcome.reason
  }

  let ctx: DriverContext | null = null
  const context = async (): Promise<DriverContext> => {
    if (ctx === null) {
      // The frame first: in the window placement it also finds the calling window that holds the widget.
      const frame = await harness.widgetFrame()
      ctx = { page, harness, widget: harness.widget, frame, messages, dialedNumber: options.record.phone }
    }
    return ctx
  }

  /** Waits the grace period for what the widget may do by itself; `reason` if it does not. */
  const byItself = async (expected: () => RecordedMessage | undefined, reason: string): Promise<StageOutcome> => {
    const seen = await messages.waitFor(expected, { timeout: options.graceMs }).catch(() => undefined)
    if (seen) return { status: 'passed', note: 'the widget did it by itself' }
    // A widget that stopped running scripts did not skip the step: it hung.
    const stopped = await frozen()
    return stopped ? { status: 'failed', error: `${reason.replace(/^.*the widget did not send/, 'the widget answered the handshake, then did not send')}${stopped}` } : { status: 'skipped', reason }
  }

  /**
   * Runs a driver step, then waits for `expected`; without the step, waits
   * the grace period in case the widget does it by itself.
   */
  const drive = async (stageName: StageName, step: DriverStep, expected: () => RecordedMessage | undefined, what: string, run?: (d: DriverContext) => Promise<void>): Promise<StageOutcome> => {
    if (expected()) return { status: 'passed', note: 'the widget did it by itself' }
    const fn = driver[step]
    if (fn === undefined) return byItself(expected, `needs a driver (${step}): the widget did not send ${what} by itself within ${options.graceMs} ms`)
    const d = await context()
    try {
      await (run ? run(d) : (fn as (c: DriverContext) => Promise<void>).call(driver, d))
    } catch (error) {
      if (!(error instanceof StepSkipped)) throw error
      return byItself(expected, `${error.message}, and the widget did not send ${what} by itself within ${options.graceMs} ms`)
    }
    await stepMessage(messages, expected, stageName, wait)
    return { status: 'passed' }
  }

  try {
    // Not waiting for the page's load event: it waits for the widget's frame, whose loads the handshake judges.
    const opened = harness.open({ widgetUrl: options.widgetUrl, syncTimeoutMs: options.syncTimeoutMs, route: `/${options.record.type}/${options.record.id}`, waitUntil: 'domcontentloaded' })
    await within(opened, 'harness-open', bounds.openMs, { url: options.widgetUrl })

    await stage('handshake', async () => {
      // The host decides: "Widget ready" (SYNC_ACK accepted) or "Widget failed (timeout)".
      await expect(harness.statusBadge).toContainText(/Widget (ready|failed)/, { timeout: options.syncTimeoutMs + 10_000 })
      const text = (await harness.statusBadge.textContent()) ?? ''
      if (text.includes('Widget ready')) {
        // The placement asked for, for real: the calling window exists, and SYNC tells each frame where it is (in
        // the window placement, the window and the remote beside it: both must answer).
        const host = await harness.widgetPage()
        const windowPageUrl = harness.placement === 'window' ? host.url() : null
        let problem = placementHandshakeProblem(messages.all(), harness.placement, windowPageUrl)
        if (problem !== null && harness.placement === 'window') {
          // The remote's page and the window load side by side: the other frame's handshake may still be on its way.
          const settled = () => (placementHandshakeProblem(messages.all(), 'window', windowPageUrl) === null ? true : undefined)
          await messages.waitFor(settled, { timeout: options.syncTimeoutMs, description: 'both frames of the window placement answered SYNC' }).catch(() => undefined)
          problem = placementHandshakeProblem(messages.all(), harness.placement, windowPageUrl)
        }
        return problem === null ? { status: 'passed' } : { status: 'failed', error: problem }
      }
      const acks = messages.ofType('SYNC_ACK', 'from-widget').length
      const thrown = widgetErrors()
      const failed = failedLoads()
      // What the widget said first (an SDK version Ringside does not serve is named there), then its failed loads.
      const why = `${thrown.length > 0 ? `; the widget threw: ${thrown.join(' | ')}` : ''}${failed.length > 0 ? `; in the widget's frame, ${failed.join(' | ')}` : ''}${stalls().map((s) => `; ${s}`).join('')}`
      return {
        status: 'failed',
        error: `The host gave up after ${options.syncTimeoutMs} ms (${(await harness.handshakeStatus.textContent()) ?? text}); ${acks === 0 ? 'the widget never sent SYNC_ACK' : `${acks} SYNC_ACK message(s) arrived but none was accepted (see the inspector)`}${why}`,
      }
    })

    journeyEnds = Date.now() + bounds.journeyMs
    await stage('initialized', async () => {
      await stepMessage(messages, () => messages.find('INITIALIZED', undefined, 'from-widget'), 'initialized', wait)
      return { status: 'passed' }
    })

    await stage('login', async () => {
      const loggedIn = harness.statusBadge.getByText('Logged in', { exact: true })
      if (await loggedIn.isVisible()) return { status: 'passed', note: 'logged in by itself' }
      if (!driver.logIn) {
        const later = await loggedIn.waitFor({ timeout: options.graceMs }).then(
          () => true,
          () => false,
        )
        return later ? { status: 'passed', note: 'logged in by itself' } : { status: 'skipped', reason: 'needs a driver (logIn): the widget reports a logged-out user, and the host dials only for a logged-in one' }
      }
      try {
        await driver.logIn(await context())
      } catch (error) {
        if (!(error instanceof StepSkipped)) throw error
        const later = await loggedIn.waitFor({ timeout: options.graceMs }).then(
          () => true,
          () => false,
        )
        return later ? { status: 'passed', note: 'logged in by itself' } : { status: 'skipped', reason: `${error.message}; the host dials only for a logged-in user` }
      }
      await expect(loggedIn, 'the host should show "Logged in" after the driver logged in').toBeVisible({ timeout: wait })
      return { status: 'passed' }
    })

    let dial: RecordedMessage | undefined
    let startedCall: RecordedMessage | undefined
    const nothingToDo = (what: string): StageOutcome => ({ status: 'passed', note: `${kind}: ${what}` })
    /**
     * The driver's step that starts the call; the message that says so is the journey's call, by the id the
     * host acts on (its externalCallId, or the host's own id for a call an SDK 0.6 or older started without one).
     */
    const callStarts = async (step: 'placeCall' | 'ring', started: () => RecordedMessage | undefined, type: string): Promise<StageOutcome> => {
      const outcome = await drive(step, step, started, type)
      startedCall = started()
      result.externalCallId = startedCall ? startedCallId(startedCall.data) : null
      return outcome
    }
    if (kind === 'outbound') {
      stages.ring = nothingToDo('nothing rings')
      await stage('dial', async () => {
        const dialed = () => messages.find('DIAL_NUMBER', undefined, 'to-widget')
        // The press may not end (a widget that hangs on DIAL_NUMBER can freeze the page that sent it): DIAL_NUMBER is the step's end.
        const pressed = harness.pressCall(options.record.phone).then(() => stepMessage(messages, dialed, 'dial', wait))
        dial = await Promise.race([pressed, messages.waitFor(dialed, { timeout: bounds.stepMs })])
        return { status: 'passed' }
      })
      const outgoingAfterDial = () => (dial ? messages.fromWidget().find((r) => r.type === 'OUTGOING_CALL_STARTED' && r.time >= dial!.time) : undefined)
      await stage('placeCall', () => callStarts('placeCall', outgoingAfterDial, 'OUTGOING_CALL_STARTED'))
    } else {
      stages.dial = nothingToDo('the host dials nothing')
      const ringing = () => messages.fromWidget().find((r) => r.type === 'INCOMING_CALL')
      await stage('ring', () => callStarts('ring', ringing, 'INCOMING_CALL'))
      stages.placeCall = stages.ring.status === 'passed' ? nothingToDo('the call rings in (see ring)') : stages.ring
    }

    /**
     * The journey call's `type` message: to the widget, the first one after the call started; from the
     * widget, the first one the host applied to the call by its own verdict (the shared call session,
     * replayed over the wire as the checks do): by externalCallId, or by the engagement the host created
     * for the call when the widget names another externalCallId.
     */
    const ofCall = (type: string, direction: 'from-widget' | 'to-widget') => (): RecordedMessage | undefined => {
      if (direction === 'to-widget') return messages.ofType(type, direction).find((r) => r.time >= (startedCall?.time ?? 0))
      if (result.externalCallId === null || messages.ofType(type, direction).length === 0) return undefined
      const log = messages.all()
      const applied = replayWire(log).messages.find((m) => m.type === type && m.verdict?.act === true && m.verdict.externalCallId === result.externalCallId)
      return applied === undefined ? undefined : log[applied.index]
    }

    await stage('engagement', async () => {
      if (payloadOf(startedCall).createEngagement !== true) {
        return { status: 'skipped', reason: `the widget did not ask the host to create the engagement (${startedCall?.type ?? 'the call'} without createEngagement: true)` }
      }
      const reply = await stepMessage(messages, () => ofCall('CREATE_ENGAGEMENT_SUCCEEDED', 'to-widget')() ?? ofCall('CREATE_ENGAGEMENT_FAILED', 'to-widget')(), 'engagement', wait)
      if (reply.type === 'CREATE_ENGAGEMENT_FAILED') return { status: 'failed', error: `The host could not create the engagement: ${JSON.stringify(payloadOf(reply).error ?? payloadOf(reply))}` }
      const id = payloadOf(reply).engagementId
      result.createdEngagementId = typeof id === 'number' ? id : null
      return { status: 'passed' }
    }, true)

    const ended = ofCall('CALL_ENDED', 'from-widget')
    await stage('answer', async () => {
      const answered = ofCall('CALL_ANSWERED', 'from-widget')
      if (kind === 'inbound') return drive('answer', 'answerIncoming', answered, 'CALL_ANSWERED')
      const outcome = await drive('answer', 'answer', answered, 'CALL_ANSWERED').catch((error: unknown): StageOutcome => ({ status: 'failed', error: messageOf(error) }))
      if (outcome.status !== 'passed' && ended()) return { status: 'passed', note: 'the call ended without being answered' }
      return outcome
    }, kind === 'outbound')

    await stage('hangUp', () => drive('hangUp', 'hangUp', ended, 'CALL_ENDED'))

    const completed = ofCall('CALL_COMPLETED', 'from-widget')
    await stage('wrapUp', () => drive('wrapUp', 'completeWrapUp', completed, 'CALL_COMPLETED', (d) => driver.completeWrapUp!(d, { notes: options.notes })))

    await stage('update', async () => {
      const done = completed()
      const reply = await stepMessage(messages, () => messages.toWidget().find((r) => (r.type === 'UPDATE_ENGAGEMENT_SUCCEEDED' || r.type === 'UPDATE_ENGAGEMENT_FAILED') && r.time >= (done?.time ?? 0)), 'update', wait)
      const id = payloadOf(reply).engagementId ?? payloadOf(done).engagementId ?? result.createdEngagementId
      if (typeof id === 'number' || typeof id === 'string') result.engagement = await harness.readCall(id)
      if (reply.type === 'UPDATE_ENGAGEMENT_FAILED') return { status: 'failed', error: `The CRM refused the call log: ${JSON.stringify(payloadOf(reply).error ?? payloadOf(reply))}` }
      return { status: 'passed' }
    })
  } catch (error) {
    result.fatal = messageOf(error)
  }
  result.log = messages.all()
  result.widgetErrors = [...failedLoads().map((load) => `failed load: ${load}`), ...widgetErrors()]
  return result
}
