/**
 * The bounds of a journey (shared/waits.ts names them): each step waits for its
 * message at most `journey-message`, each step as a whole (the driver's actions
 * in the widget and that message) at most `journey-step`, the journey at most
 * `journey`. A step that passes its bound is a hung widget, and its verdict says
 * at which step and what did not come: "the widget answered the handshake, then
 * did not send OUTGOING_CALL_STARTED within 10 s after DIAL_NUMBER". When the
 * widget's frame no longer runs scripts (a loop that never yields, a dialog
 * left open), the verdict says that too.
 */
import type { Frame, Page } from '@playwright/test'
import { WaitExpired, waitMs, waitSentence, within, type WaitName } from '../shared/waits.ts'
import type { MessageLog } from './message-log.ts'
import type { StageName } from './journey.ts'

/** What each step waits for, and after what: the words of its verdict. */
export const STAGE_WAITS: Readonly<Record<StageName, { missing: string; after: string }>> = {
  handshake: { missing: 'did not send SYNC_ACK', after: 'the harness opened' },
  initialized: { missing: 'did not send INITIALIZED', after: 'SYNC_ACK' },
  login: { missing: 'the host did not show "Logged in"', after: "the driver's logIn" },
  dial: { missing: 'the host did not send DIAL_NUMBER', after: 'the Call press on the record' },
  ring: { missing: 'did not send INCOMING_CALL', after: "the driver's ring" },
  placeCall: { missing: 'did not send OUTGOING_CALL_STARTED', after: 'DIAL_NUMBER' },
  engagement: { missing: 'the host did not answer createEngagement (CREATE_ENGAGEMENT_SUCCEEDED/FAILED)', after: 'the call started' },
  answer: { missing: 'did not send CALL_ANSWERED', after: 'the call started' },
  hangUp: { missing: 'did not send CALL_ENDED', after: 'the call was answered' },
  wrapUp: { missing: 'did not send CALL_COMPLETED', after: 'CALL_ENDED' },
  update: { missing: 'the host did not answer CALL_COMPLETED (UPDATE_ENGAGEMENT_SUCCEEDED/FAILED)', after: 'CALL_COMPLETED' },
}

export interface JourneyBounds {
  /** `journey-message`. */
  messageMs: number
  /** `journey-step`. */
  stepMs: number
  /** `journey`. */
  journeyMs: number
  /** `harness-open`. */
  openMs: number
  /** `frame-probe`. */
  probeMs: number
}

/** The bounds from the table and $RINGSIDE_WAITS. */
export function journeyBounds(env: Readonly<Record<string, string | undefined>> = {}): JourneyBounds {
  return { messageMs: waitMs('journey-message', env), stepMs: waitMs('journey-step', env), journeyMs: waitMs('journey', env), openMs: waitMs('harness-open', env), probeMs: waitMs('frame-probe', env) }
}

/**
 * The most a journey can take, the handshake and its last step's wrap-up included: the bound of the test that runs it
 * must be above it, so a hung widget gets its verdict, not the test runner's timeout.
 */
export function journeyAtMostMs(syncTimeoutMs: number, env: Readonly<Record<string, string | undefined>> = {}): number {
  const b = journeyBounds(env)
  return b.openMs + syncTimeoutMs + b.stepMs + b.journeyMs + 3 * b.probeMs + waitMs('wrap-up', env)
}

/** The frames of the widget under test, in every page of the journey (the calling window's too). */
function widgetFrames(page: Page, widgetOrigin: string): Frame[] {
  return page
    .context()
    .pages()
    .flatMap((p) => p.frames())
    .filter((frame) => {
      try {
        return frame.parentFrame() !== null && new URL(frame.url()).origin === widgetOrigin
      } catch {
        return false
      }
    })
}

/** The `frame-probe` sentence when the widget's frame no longer runs scripts; '' when it answers (or is gone). */
export async function frozenSentence(page: Page, widgetOrigin: string, probeMs: number): Promise<string> {
  const frames = widgetFrames(page, widgetOrigin)
  if (frames.length === 0) return ''
  const answers = await Promise.all(frames.map((frame) => within(frame.evaluate(() => true), 'frame-probe', probeMs).then(() => true, (error: unknown) => !(error instanceof WaitExpired))))
  return answers.includes(false) ? waitSentence('frame-probe', probeMs) : ''
}

/**
 * Waits up to `ms` for `expected` after a step; a miss rejects with the step's sentence and what the log holds.
 */
export async function stepMessage<T>(messages: MessageLog, expected: () => T | undefined, stage: StageName, ms: number): Promise<T> {
  try {
    return await messages.waitFor(expected, { timeout: ms })
  } catch (error) {
    const recorded = error instanceof Error ? error.message.split(' ms; ').slice(1).join(' ms; ') : ''
    throw new Error(`${waitSentence('journey-message', ms, STAGE_WAITS[stage])}${recorded ? `; ${recorded}` : ''}`, { cause: error })
  }
}

/** The sentence of a step that passed its bound (`journey-step`, or `journey` when the journey's own ran out first). */
export function hungSentence(wait: WaitName, ms: number, stage: StageName, frozen: string, stalls: readonly string[]): string {
  const words = STAGE_WAITS[stage]
  const said =
    wait === 'journey'
      ? waitSentence('journey', ms, { stage, expected: `${words.missing.replace(/^(the host )?did not (send|show|answer) /, '')} after ${words.after}` })
      : waitSentence('journey-step', ms, { ...words, frozen })
  // Before the handshake ended, the widget has not answered it.
  const whose = stage === 'handshake' ? said.replace('the widget answered the handshake, then ', 'the widget ') : said
  return `${whose}${wait === 'journey' ? frozen : ''}${stalls.map((s) => `; ${s}`).join('')}`
}
