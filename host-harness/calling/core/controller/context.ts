/**
 * What the controller's modules share: the host, the API, the store and the
 * account it acts for, and the calls the widget has started (CallBook).
 * Each module (widget-ui, navigation, outbound, inbound, call-state,
 * engagement, failure-replies) is a set of functions over this context;
 * controller.ts maps each widget message to one of them.
 */
import {
  emptySession,
  engagementCreated,
  startCall,
  stepCallEvent,
  type CallEventType,
  type CallSession,
  type CallVerdict,
  type DialNumberPayload,
  type EndStatus,
} from '../../../../shared/protocol/index.ts'
import { callStatusOf } from '../../../../shared/crm/call-status.ts'
import { ApiRequestError } from '../../../lib/api-client.ts'
import type { CallingStore } from '../calling-store.ts'
import type { ApiPort, CallRecord, HarnessAccount, HostPort } from '../ports.ts'

export interface LoggedCall {
  externalCallId: string
  engagementId?: number
  record?: CallRecord
  outcome: 'completed' | 'transferred'
}

export interface KnownCall {
  externalCallId: string
  direction: 'outbound' | 'inbound'
  engagementId?: number
  record?: CallRecord
  /** when the widget started it (OUTGOING_CALL_STARTED / INCOMING_CALL) and answered it (CALL_ANSWERED), host clock */
  startedAt: number
  answeredAt?: number
  /** CALL_COMPLETED accepted or CALL_TRANSFERRED: the call is over for the host */
  done?: boolean
}

/** The Call button's DIAL_NUMBER and the record it was sent from. */
export interface DialContext {
  payload: DialNumberPayload
  record: CallRecord
}

/** A request as the inspector links it to its reply. */
export interface LinkableRequest {
  type: string
  messageId: string | number
}

export interface ControllerContext {
  readonly host: HostPort
  readonly api: ApiPort
  readonly store: CallingStore
  readonly account: HarnessAccount
  readonly now: () => number
  readonly calls: CallBook
  /** false once the controller is disposed: answers that arrive later change nothing. */
  alive(): boolean
  /** Records which reply answers which request (inspector links). */
  link(request: LinkableRequest, replyMessageId: string): void
  /** Shows / hides the widget and tells it (widget-ui.ts). */
  show(): void
  hide(): void
  /** true while the user works a task queue: hideWidget is then ignored. */
  keepVisible(): boolean
  onCallLogged?: (call: LoggedCall) => void
  navigate(objectType: string, objectId: string): boolean
  openInNewTab(objectType: string, objectId: string): boolean
}

/**
 * The calls the widget started and the pending Call button dial. Which call an event
 * refers to, and which engagement the host may change for it, is the shared call
 * session's verdict (shared/protocol/call-session.ts): the inspector and check-widget
 * report the same verdict the host acts by.
 */
export class CallBook {
  readonly #calls = new Map<string, KnownCall>()
  #session: CallSession = emptySession()
  #dial: DialContext | null = null

  /** A new call from OUTGOING_CALL_STARTED / INCOMING_CALL: known by its id, and current. */
  start(call: KnownCall, createEngagement: boolean): void {
    this.#calls.set(call.externalCallId, call)
    this.#session = startCall(this.#session, { externalCallId: call.externalCallId, createEngagement }, call.direction)
  }

  /** The host created `engagementId` for the call. */
  engagementCreated(call: KnownCall, engagementId: number): void {
    call.engagementId = engagementId
    this.#session = engagementCreated(this.#session, call.externalCallId, engagementId)
  }

  /**
   * The host's verdict on a call event, taken when the message arrives (so it follows the
   * wire's order): the call it applies to and the engagement the host may change, or why it
   * ignores the message. The session moves on (a completed call is no longer current).
   */
  judge(type: CallEventType, data: unknown): { verdict: CallVerdict; call?: KnownCall } {
    const step = stepCallEvent(this.#session, type, data)
    this.#session = step.session
    const call = step.verdict.act ? this.#calls.get(step.verdict.externalCallId) : undefined
    return call ? { verdict: step.verdict, call } : { verdict: step.verdict }
  }

  /** The call is over for the host (completed or transferred). */
  finish(call: KnownCall): void {
    call.done = true
  }

  /** The Call button's dial, kept until the widget starts the call. */
  setDial(dial: DialContext): void {
    this.#dial = dial
  }

  /** The pending dial, if any; it is used once. */
  takeDial(): DialContext | null {
    const dial = this.#dial
    this.#dial = null
    return dial
  }
}

/** hs_call_duration in ms from the answer (0 if never answered) to now: the CRM times the calls it logs. */
export function durationOf(ctx: Pick<ControllerContext, 'now'>, call: KnownCall): string {
  return String(call.answeredAt === undefined ? 0 : Math.max(0, ctx.now() - call.answeredAt))
}

/**
 * What ending the call writes: hs_call_status from callEndStatus (none, or an unknown one:
 * COMPLETED once answered, else CANCELED; leniency rule unknown-end-status) and the duration.
 * CALL_COMPLETED for a call never ended uses it too (call rule completed-without-end).
 */
export function endOfCall(ctx: Pick<ControllerContext, 'now'>, call: KnownCall, callEndStatus?: EndStatus): { status: string; properties: Record<string, string> } {
  const status = callStatusOf(callEndStatus ?? (call.answeredAt !== undefined ? 'COMPLETED' : 'CANCELED'))
  return { status, properties: { hs_call_status: status, hs_call_duration: durationOf(ctx, call) } }
}

export function errorText(error: unknown): string {
  if (error instanceof ApiRequestError) return `${error.message} (HTTP ${error.status})`
  return error instanceof Error ? error.message : String(error)
}
