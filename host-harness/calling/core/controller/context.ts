/**
 * What the controller's modules share: the host, the API, the store and the
 * account it acts for, and the calls the widget has started (CallBook).
 * Each module (widget-ui, navigation, outbound, inbound, call-state,
 * engagement, failure-replies) is a set of functions over this context;
 * controller.ts maps each widget message to one of them.
 */
import type { DialNumberPayload } from '../../../../shared/protocol/index.ts'
import { ApiRequestError } from '../../../lib/api-client.ts'
import type { CallingStore } from '../calling-store.ts'
import { positiveId, type ApiPort, type CallRecord, type HarnessAccount, type HostPort } from '../ports.ts'

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

/** The calls the widget started, the current one, and the pending Call button dial. */
export class CallBook {
  readonly #calls = new Map<string, KnownCall>()
  /** The call the widget started last and has not completed (for events that name no call). */
  #current: KnownCall | null = null
  #dial: DialContext | null = null

  /** A new call from OUTGOING_CALL_STARTED / INCOMING_CALL: known by its id, and current. */
  start(call: KnownCall): void {
    this.#calls.set(call.externalCallId, call)
    this.#current = call
  }

  /**
   * The call an event refers to: by externalCallId, else (no id: leniency rule
   * `current-call`) the call the widget started last and has not completed.
   */
  find(externalCallId: string | undefined): KnownCall | undefined {
    if (externalCallId !== undefined) return this.#calls.get(externalCallId)
    return this.#current ?? undefined
  }

  /** The call is over for the host (completed or transferred). */
  finish(call: KnownCall): void {
    call.done = true
    if (this.#current === call) this.#current = null
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

/** The engagement an event refers to: the id the message names, else the one the host created for the call. */
export function engagementFor(call: KnownCall | undefined, named: unknown): number | undefined {
  return positiveId(named) ?? call?.engagementId
}

/** The externalCallId to show an event under (the named one, else the resolved call's). */
export function idOf(named: string | undefined, call: KnownCall | undefined): string | undefined {
  return named ?? call?.externalCallId
}

export function errorText(error: unknown): string {
  if (error instanceof ApiRequestError) return `${error.message} (HTTP ${error.status})`
  return error instanceof Error ? error.message : String(error)
}
