/**
 * A widget driver tells the kit how to make one particular widget do the
 * things only its user (or its phone line) can do: log in, place the dialed
 * call, get it answered, hang up, finish the wrap-up. The kit observes
 * everything else on the wire.
 *
 * Every step is optional. A step the driver does not provide is skipped; the
 * kit then waits a short grace period in case the widget does it by itself
 * (e.g. a widget that places the call as soon as DIAL_NUMBER arrives), and
 * reports the checks that needed it as "skipped: needs a driver", never as
 * passed.
 */
import type { Frame, FrameLocator, Page } from '@playwright/test'
import type { Harness } from '../harness.ts'
import type { MessageLog } from '../message-log.ts'

export interface DriverContext {
  /** The harness page. */
  readonly page: Page
  readonly harness: Harness
  /** The widget iframe, for locators (getByRole, getByLabel, …). */
  readonly widget: FrameLocator
  /** The widget's Frame, for evaluate() (e.g. calling into the widget's SDK). */
  readonly frame: Frame
  /** The wire log recorded so far. */
  readonly messages: MessageLog
  /** The number the harness dialed (as shown on the record page). */
  readonly dialedNumber: string
}

export interface WrapUp {
  /** Free-text call notes (becomes hs_call_body). */
  readonly notes: string
}

export interface WidgetDriver {
  /** Shown in the readiness report. */
  readonly name: string
  /** Make the widget log its user in (the widget then sends LOGGED_IN or INITIALIZED with isLoggedIn). */
  logIn?(ctx: DriverContext): Promise<void>
  /** DIAL_NUMBER has arrived: place the call (the widget then sends OUTGOING_CALL_STARTED). */
  placeCall?(ctx: DriverContext): Promise<void>
  /** Get the far end to answer (the widget then sends CALL_ANSWERED). */
  answer?(ctx: DriverContext): Promise<void>
  /** Hang up the answered call (the widget then sends CALL_ENDED). */
  hangUp?(ctx: DriverContext): Promise<void>
  /** Finish the wrap-up (the widget then sends CALL_COMPLETED). */
  completeWrapUp?(ctx: DriverContext, wrapUp: WrapUp): Promise<void>
  /**
   * Inbound journey: make the widget's line ring with a call from
   * `ctx.dialedNumber` (the widget then sends INCOMING_CALL). A driver that
   * provides it declares that it can ring the widget; without it the inbound
   * journey is skipped.
   */
  ring?(ctx: DriverContext): Promise<void>
  /** Inbound journey: answer the ringing call in the widget (it then sends CALL_ANSWERED). */
  answerIncoming?(ctx: DriverContext): Promise<void>
}

/** The steps a driver may provide, in journey order (outbound, then inbound). */
export const DRIVER_STEPS = ['logIn', 'placeCall', 'answer', 'hangUp', 'completeWrapUp', 'ring', 'answerIncoming'] as const
export type DriverStep = (typeof DRIVER_STEPS)[number]

/** Identity helper that type-checks a driver module's default export. */
export function defineDriver(driver: WidgetDriver): WidgetDriver {
  return driver
}

/**
 * Thrown by a driver step that cannot be done for this widget (e.g. the
 * generic driver finds no button for it). The journey then waits a short
 * grace period in case the widget does it by itself, and otherwise reports
 * the step as skipped with this reason.
 */
export class StepSkipped extends Error {
  override name = 'StepSkipped'
}
