/**
 * The host's behaviour for every widget message (outbound and inbound calls,
 * the engagement's create, update and finalize, navigation, caller-ID match): the one
 * place between CallingHost events and the CRM API.
 *
 * Plain TS: it takes a CallingHost (or anything with the same methods), the
 * API client, a calling store and a navigate function, so unit tests drive it
 * with a fake host and the real in-memory API.
 *
 * Engagement faults (FaultsPanel "fail next/every create/update") are applied
 * HERE, before the API: the controller replies *_FAILED with an "Injected
 * fault" message and makes no API call, so the CRM never holds a half-made
 * call. Wire faults (delay, drop, duplicate, withhold SYNC) live in
 * the harness's FaultInjector (fault-outbox.ts), a wrapper around the host's outbox.
 */
import type {
  AcceptedMessageOf as MessageOf,
  AcceptedPayload as Payload,
  DialNumberPayload,
  HostEvents,
  IgnoredEvent,
} from '../../shared/protocol/index.ts'
import { FAILURE_REPLY } from '../../shared/protocol/index.ts'
import { CALLING_APP_ID } from '../../shared/crm/account.ts'
import { callStatusOf } from '../../shared/crm/call-status.ts'
import { isRecord } from '../../shared/crm/guards.ts'
import { ApiRequestError } from '../lib/api-client.ts'
import { callAssociationTypeId, objectTypeInfo, recordTypeOf, type ObjectType } from '../lib/crm-types.ts'
import { dialBlocker, type CallingStore, type EngagementView } from './calling-store.ts'
import { matchCaller, type PhoneMatch } from './caller-id.ts'
import { dialRequest, type StartCallInput } from './dial-payload.ts'
import { HARNESS_ACCOUNT, positiveId, type ApiPort, type CallRecord, type HarnessAccount, type HostPort, type SimpleObject } from './ports.ts'
import { clampSize, httpUrl } from './settings.ts'

export { HARNESS_ACCOUNT, type ApiPort, type HarnessAccount, type HostPort } from './ports.ts'
export type { StartCallInput } from './dial-payload.ts'

export interface ControllerOptions {
  host: HostPort
  api: ApiPort
  store: CallingStore
  account?: HarnessAccount
  /** Opens a record in the harness; false when it cannot. */
  navigate: (objectType: string, objectId: string) => boolean
  /** NAVIGATE_TO_RECORD with openIn NEW_TAB (default: same as navigate). */
  openInNewTab?: (objectType: string, objectId: string) => boolean
  now?: () => number
  /** A call's log was accepted by the API (UPDATE_ENGAGEMENT_SUCCEEDED sent) or the call was transferred. */
  onCallLogged?: (call: LoggedCall) => void
  /** true while the user works a task queue: hideWidget is then ignored (the widget stays for the next call). */
  keepVisible?: () => boolean
}

export interface LoggedCall {
  externalCallId: string
  engagementId?: number
  record?: CallRecord
  outcome: 'completed' | 'transferred'
}

export type StartCallResult = { ok: true; messageId: string } | { ok: false; reason: string }

interface KnownCall {
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

/** The engagement properties the dock, timeline and inspector show (read back from the API). */
export const ENGAGEMENT_VIEW_PROPERTIES = ['hs_call_status', 'hs_call_duration', 'hs_call_body', 'hs_call_title', 'hs_call_external_id'] as const

interface DialContext {
  payload: DialNumberPayload
  record: CallRecord
}

/** The widget messages the controller acts on, each with its one action. */
type HandledEvent =
  | 'INITIALIZED'
  | 'LOGGED_IN'
  | 'LOGGED_OUT'
  | 'USER_AVAILABLE'
  | 'USER_UNAVAILABLE'
  | 'RESIZE_WIDGET'
  | 'ERROR'
  | 'SET_WIDGET_URL'
  | 'OUTGOING_CALL_STARTED'
  | 'INCOMING_CALL'
  | 'CALL_ANSWERED'
  | 'CALL_ENDED'
  | 'CALL_TRANSFERRED'
  | 'CALL_COMPLETED'
  | 'FINALIZE_ENGAGEMENT'
  | 'PUBLISH_TO_CHANNEL'
  | 'NAVIGATE_TO_RECORD'
  /** a request the host ignored, as the real CRM would: it still gets its failure reply */
  | 'ignored'
type WidgetHandlers = { [E in HandledEvent]: HostEvents[E] }

type FinalizeType = 'FINALIZE_ENGAGEMENT' | 'PUBLISH_TO_CHANNEL'
type FinalizeReply = { engagementId?: number; externalCallId?: string }

function errorText(error: unknown): string {
  if (error instanceof ApiRequestError) return `${error.message} (HTTP ${error.status})`
  return error instanceof Error ? error.message : String(error)
}

export class CallingController {
  readonly #host: HostPort
  readonly #api: ApiPort
  readonly #store: CallingStore
  readonly #account: HarnessAccount
  readonly #navigate: ControllerOptions['navigate']
  readonly #openInNewTab: NonNullable<ControllerOptions['openInNewTab']>
  readonly #now: () => number
  readonly #unsubscribe: Array<() => void> = []
  readonly #calls = new Map<string, KnownCall>()
  readonly #pending = new Set<Promise<void>>()
  #dial: DialContext | null = null
  /** The call the widget started last and has not completed (for events that name no call). */
  #current: KnownCall | null = null
  readonly #onCallLogged: ControllerOptions['onCallLogged']
  readonly #keepVisible: () => boolean
  #disposed = false

  constructor(options: ControllerOptions) {
    this.#host = options.host
    this.#api = options.api
    this.#store = options.store
    this.#account = options.account ?? HARNESS_ACCOUNT
    this.#navigate = options.navigate
    this.#openInNewTab = options.openInNewTab ?? options.navigate
    this.#now = options.now ?? (() => Date.now())
    this.#onCallLogged = options.onCallLogged
    this.#keepVisible = options.keepVisible ?? (() => false)
    this.#subscribe()
  }

  /** Resolves once every API round trip started so far has finished (tests, e2e hooks). */
  async idle(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending])
  }

  dispose(): void {
    this.#disposed = true
    for (const off of this.#unsubscribe.splice(0)) off()
  }

  // --- user actions ---------------------------------------------------------

  /** Why the user cannot dial right now, or null when they can. */
  cannotDialReason(): string | null {
    return dialBlocker(this.#store.getState())
  }

  /** The Call button: shows the widget and sends DIAL_NUMBER with the full payload. */
  startCall(input: StartCallInput): StartCallResult {
    const reason = this.cannotDialReason()
    if (reason) return { ok: false, reason }
    const dial = dialRequest(input, this.#account, this.#now())
    if (!dial.ok) return dial
    this.#dial = { payload: dial.payload, record: dial.record }
    this.show()
    const messageId = this.#host.dialNumber(dial.payload)
    return { ok: true, messageId }
  }

  /** Shows the widget (un-hides and restores it) and tells it. */
  show(): void {
    this.#setVisibility({ isHidden: false, isMinimized: false })
  }
  hide(): void {
    this.#setVisibility({ isHidden: true, isMinimized: false })
  }
  minimize(): void {
    this.#setVisibility({ isHidden: false, isMinimized: true })
  }

  #setVisibility(next: { isHidden: boolean; isMinimized: boolean }): void {
    const current = this.#store.getState().visibility
    if (current.isHidden === next.isHidden && current.isMinimized === next.isMinimized) return
    this.#store.getState().patch({ visibility: next })
    if (this.#store.getState().status === 'ready') this.#host.visibilityChanged(next)
  }

  // --- wiring ----------------------------------------------------------------

  #subscribe(): void {
    const store = () => this.#store.getState()
    const handlers: WidgetHandlers = {
      INITIALIZED: (data) => this.#onInitialized(data),
      LOGGED_IN: () => store().patch({ loggedIn: true }),
      LOGGED_OUT: () => store().patch({ loggedIn: false }),
      USER_AVAILABLE: () => store().patch({ available: true }),
      USER_UNAVAILABLE: () => store().patch({ available: false }),
      RESIZE_WIDGET: (data) => this.#resize(data.width, data.height),
      ERROR: (data) => this.#onError(data),
      SET_WIDGET_URL: (data, message) => this.#onSetWidgetUrl(data, message),
      OUTGOING_CALL_STARTED: (data, message) => this.#track(this.#onOutgoing(data, message)),
      INCOMING_CALL: (data, message) => this.#track(this.#onIncoming(data, message)),
      CALL_ANSWERED: (data) => this.#track(this.#onAnswered(data)),
      CALL_ENDED: (data) => this.#track(this.#onEnded(data)),
      CALL_TRANSFERRED: (data) => this.#track(this.#onTransferred(data)),
      CALL_COMPLETED: (data, message) => this.#track(this.#onCompleted(data, message)),
      FINALIZE_ENGAGEMENT: (data, message) => this.#track(this.#onFinalize('FINALIZE_ENGAGEMENT', data, message)),
      PUBLISH_TO_CHANNEL: (data, message) => this.#track(this.#onFinalize('PUBLISH_TO_CHANNEL', data, message)),
      NAVIGATE_TO_RECORD: (data, message) => this.#track(this.#onNavigate(data, message)),
      ignored: (event) => this.#onIgnored(event),
    }
    for (const event of Object.keys(handlers) as Array<keyof WidgetHandlers>) this.#unsubscribe.push(this.#host.on(event, handlers[event]))
  }

  /** Keeps the promise for idle(); an unexpected throw becomes a harness alert, never an unhandled rejection. */
  #track(work: Promise<void>): void {
    const p = work.catch((error: unknown) => {
      if (!this.#disposed) this.#store.getState().alert(`Host error: ${errorText(error)}`, 'harness')
    })
    this.#pending.add(p)
    void p.finally(() => this.#pending.delete(p))
  }

  /** Records which reply answers which request (inspector links). */
  #link(request: { type: string; messageId: string | number }, replyMessageId: string): void {
    this.#store.getState().addLink({ request, requestType: request.type, requestMessageId: request.messageId, replyMessageId })
  }

  #alive(): boolean {
    return !this.#disposed
  }

  // --- handlers ---------------------------------------------------------------

  #onInitialized(data: Payload<'INITIALIZED'>): void {
    const patch: Parameters<ReturnType<CallingStore['getState']>['patch']>[0] = {
      initialized: true,
      loggedIn: data?.isLoggedIn === true,
    }
    if (typeof data?.isAvailable === 'boolean') patch.available = data.isAvailable
    this.#store.getState().patch(patch)
    if (data?.sizeInfo) this.#resize(data.sizeInfo.width, data.sizeInfo.height)
  }

  #resize(width: number, height: number): void {
    const size = clampSize(width, height)
    this.#host.resize(size.width, size.height)
    this.#store.getState().patch({ size })
  }

  #onError(data: Payload<'ERROR'>): void {
    if ('message' in data && typeof data.message === 'string') {
      this.#store.getState().alert(data.message, 'widget')
    } else if ('type' in data && data.type === 'UNKNOWN_MESSAGE_TYPE') {
      const original = data.data.originalMessage
      const type = isRecord(original) && typeof original.type === 'string' ? original.type : 'a message'
      this.#store.getState().alert(`The widget did not understand ${type} (UNKNOWN_MESSAGE_TYPE).`, 'widget')
    }
  }

  #onSetWidgetUrl(data: Payload<'SET_WIDGET_URL'>, message: MessageOf<'SET_WIDGET_URL'>): void {
    const requested = typeof message.iFrameUrl === 'string' ? message.iFrameUrl : data?.iFrameUrl
    const url = httpUrl(requested)
    if (url === null) {
      const reply = this.#host.setWidgetUrlFailed({ error: { message: `iFrameUrl must be an absolute http(s) URL, got ${JSON.stringify(requested)}` } })
      this.#link(message, reply)
      return
    }
    this.#store.getState().patch({ currentSrc: url })
    this.#host.setSrc(url)
  }

  async #onOutgoing(data: Payload<'OUTGOING_CALL_STARTED'>, message: MessageOf<'OUTGOING_CALL_STARTED'>): Promise<void> {
    const toNumber = data.toNumber ?? data.phoneNumber ?? ''
    const record = await this.#outgoingRecord(data, toNumber)
    const call: KnownCall = { externalCallId: data.externalCallId, direction: 'outbound', startedAt: this.#now(), ...(record ? { record } : {}) }
    this.#calls.set(call.externalCallId, call)
    this.#current = call
    this.#store.getState().patch({
      incoming: null,
      call: { externalCallId: call.externalCallId, direction: 'outbound', number: toNumber, status: 'CONNECTING', ...(record ? { record } : {}) },
    })
    if (data.createEngagement === true) {
      await this.#createEngagement(message, call, {
        hs_call_direction: 'OUTBOUND',
        hs_call_status: 'CONNECTING',
        hs_call_to_number: toNumber,
        hs_call_from_number: data.fromNumber,
        hs_call_title: `Call to ${record?.label ?? toNumber}`,
        hs_timestamp: new Date(data.callStartTime ?? this.#now()).toISOString(),
      })
    }
  }

  /** The dialed record: the dialing context, else the last Call button, else a phone match. */
  async #outgoingRecord(data: Payload<'OUTGOING_CALL_STARTED'>, toNumber: string): Promise<KnownCall['record']> {
    const dial = this.#dial
    this.#dial = null
    const context = isRecord(data.dialingContext) ? data.dialingContext : undefined
    const contextType = recordTypeOf(context?.objectType)
    const contextId = positiveId(context?.objectId)
    if (contextType && contextId !== undefined) {
      const same = dial && dial.record.objectType === contextType && dial.record.objectId === String(contextId)
      return same ? dial.record : { objectType: contextType, objectId: String(contextId) }
    }
    if (dial) return dial.record
    const matches = toNumber ? await matchCaller(this.#api, toNumber, this.#account.portalId) : []
    const first = matches[0]
    return first ? first.record : undefined
  }

  async #onIncoming(data: Payload<'INCOMING_CALL'>, message: MessageOf<'INCOMING_CALL'>): Promise<void> {
    const store = () => this.#store.getState()
    const call: KnownCall = { externalCallId: data.externalCallId, direction: 'inbound', startedAt: this.#now() }
    this.#calls.set(call.externalCallId, call)
    this.#current = call
    store().patch({
      incoming: { externalCallId: data.externalCallId, fromNumber: data.fromNumber, status: 'matching' },
      call: { externalCallId: data.externalCallId, direction: 'inbound', number: data.fromNumber, status: 'RINGING' },
    })
    this.show()
    let matches: PhoneMatch[] = []
    let failure: string | null = null
    try {
      matches = await matchCaller(this.#api, data.fromNumber, this.#account.portalId)
    } catch (error) {
      failure = errorText(error)
    }
    if (!this.#alive()) return
    if (matches.length > 0) {
      const reply = this.#host.callerIdMatchSucceeded({ callerIdMatches: matches.map((m) => m.match) })
      this.#link(message, reply)
      const record = matches[0]!.record
      call.record = record
      store().patch({ incoming: { externalCallId: data.externalCallId, fromNumber: data.fromNumber, status: 'matched', match: record } })
      store().updateCall(data.externalCallId, { record })
    } else {
      const reply = this.#host.callerIdMatchFailed(failure ? { error: { message: failure } } : undefined)
      this.#link(message, reply)
      store().patch({ incoming: { externalCallId: data.externalCallId, fromNumber: data.fromNumber, status: 'unmatched' } })
    }
    if (data.createEngagement === true) {
      await this.#createEngagement(message, call, {
        hs_call_direction: 'INBOUND',
        hs_call_status: 'RINGING',
        hs_call_from_number: data.fromNumber,
        hs_call_to_number: data.toNumber,
        hs_call_title: `Call from ${call.record?.label ?? data.fromNumber}`,
        hs_timestamp: new Date(data.callStartTime ?? this.#now()).toISOString(),
      })
    }
  }

  async #createEngagement(
    request: MessageOf<'OUTGOING_CALL_STARTED'> | MessageOf<'INCOMING_CALL'>,
    call: KnownCall,
    base: Record<string, string | undefined>,
  ): Promise<void> {
    const store = () => this.#store.getState()
    if (store().takeEngagementFault('create')) {
      const reply = this.#host.createEngagementFailed({ error: { message: 'Injected fault: engagement creation failed (Ringside faults panel).' } })
      this.#link(request, reply)
      return
    }
    const properties: Record<string, string> = {
      hs_call_external_id: call.externalCallId,
      hs_call_source: 'INTEGRATIONS_PLATFORM',
      hs_call_app_id: String(CALLING_APP_ID),
    }
    for (const [key, value] of Object.entries(base)) if (typeof value === 'string' && value.trim() !== '') properties[key] = value
    const record = call.record
    if (record && (record.objectType === 'contacts' || record.objectType === 'companies')) {
      properties.hs_call_callee_object_id = record.objectId
      properties.hs_call_callee_object_type_id = objectTypeInfo(record.objectType).typeId
    }
    const associations = record
      ? [{ to: { id: record.objectId }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: callAssociationTypeId(record.objectType) }] }]
      : []
    try {
      const created = await this.#api.post<SimpleObject>('/crm/v3/objects/calls', { properties, associations })
      const engagementId = positiveId(created.id)
      if (engagementId === undefined) throw new Error(`the API returned an unusable call id ${JSON.stringify(created.id)}`)
      if (!this.#alive()) return
      call.engagementId = engagementId
      store().conformanceEvent({ kind: 'engagement-created', externalCallId: call.externalCallId, engagementId })
      store().updateCall(call.externalCallId, { engagementId })
      this.#link(request, this.#host.createEngagementSucceeded({ engagementId }))
    } catch (error) {
      if (!this.#alive()) return
      this.#link(request, this.#host.createEngagementFailed({ error: { message: `Could not create the call engagement: ${errorText(error)}` } }))
    }
  }

  /**
   * The call an event refers to: by externalCallId, else (no id: leniency rule
   * `current-call`) the call the widget started last and has not completed.
   */
  #callFor(externalCallId: string | undefined): KnownCall | undefined {
    if (externalCallId !== undefined) return this.#calls.get(externalCallId)
    return this.#current ?? undefined
  }

  /** The engagement an event refers to: the id the message names, else the one the host created for the call. */
  #engagementFor(call: KnownCall | undefined, named: unknown): number | undefined {
    return positiveId(named) ?? call?.engagementId
  }

  /** The externalCallId to show an event under (the named one, else the resolved call's). */
  #idOf(named: string | undefined, call: KnownCall | undefined): string | undefined {
    return named ?? call?.externalCallId
  }

  /** PATCHes call properties; an API refusal becomes a harness alert (the widget expects no answer here). */
  async #patchCall(engagementId: number | undefined, properties: Record<string, string>, what: string): Promise<void> {
    if (engagementId === undefined) return
    try {
      await this.#api.patch(`/crm/v3/objects/calls/${engagementId}`, { properties })
    } catch (error) {
      if (this.#alive()) this.#store.getState().alert(`Could not ${what} on call ${engagementId}: ${errorText(error)}`, 'harness')
    }
  }

  /**
   * Reads the engagement back from the API and shows it in the dock and inspector:
   * one source of truth for the call's status, duration and notes.
   */
  async #refresh(externalCallId: string | undefined, engagementId: number | undefined): Promise<void> {
    if (externalCallId === undefined || engagementId === undefined) return
    try {
      const call = await this.#api.get<SimpleObject>(`/crm/v3/objects/calls/${engagementId}`, { query: { properties: ENGAGEMENT_VIEW_PROPERTIES.join(',') } })
      if (!this.#alive()) return
      const view: EngagementView = { id: String(call.id), properties: {} }
      for (const name of ENGAGEMENT_VIEW_PROPERTIES) view.properties[name] = call.properties[name] ?? null
      this.#store.getState().updateCall(externalCallId, { engagement: view })
    } catch (error) {
      if (this.#alive()) this.#store.getState().updateCall(externalCallId, { engagement: { id: String(engagementId), properties: {}, error: errorText(error) } })
    }
  }

  async #onAnswered(data: Payload<'CALL_ANSWERED'>): Promise<void> {
    const store = this.#store.getState()
    const call = this.#callFor(data?.externalCallId)
    const id = this.#idOf(data?.externalCallId, call)
    if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
    if (call) call.answeredAt ??= this.#now()
    if (id !== undefined) store.updateCall(id, { status: 'IN_PROGRESS' })
    await this.#patchCall(call?.engagementId, { hs_call_status: 'IN_PROGRESS' }, 'set the status IN_PROGRESS')
    await this.#refresh(id, call?.engagementId)
  }

  /** hs_call_duration in ms from the answer (0 if never answered) to now: the CRM times the calls it logs. */
  #durationOf(call: KnownCall | undefined): string {
    return String(call?.answeredAt === undefined ? 0 : Math.max(0, this.#now() - call.answeredAt))
  }

  async #onEnded(data: Payload<'CALL_ENDED'>): Promise<void> {
    const store = this.#store.getState()
    const call = this.#callFor(data?.externalCallId)
    const id = this.#idOf(data?.externalCallId, call)
    if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
    // No (or an unknown) callEndStatus: COMPLETED once answered, else CANCELED (leniency rule unknown-end-status).
    const endStatus = data?.callEndStatus ?? (call?.answeredAt !== undefined ? 'COMPLETED' : 'CANCELED')
    const status = callStatusOf(endStatus)
    if (id !== undefined) store.updateCall(id, { status })
    const engagementId = this.#engagementFor(call, data?.engagementId)
    await this.#patchCall(engagementId, { hs_call_status: status, hs_call_duration: this.#durationOf(call) }, `set the status ${status}`)
    await this.#refresh(id, engagementId)
  }

  /**
   * CALL_TRANSFERRED: the call left this user, and the widget sends nothing more about
   * it (the vendor's demos go straight back to their keypad). The host finalizes it:
   * hs_call_status COMPLETED (the calls API has no TRANSFERRED status) with its duration.
   */
  async #onTransferred(data: Payload<'CALL_TRANSFERRED'>): Promise<void> {
    const store = this.#store.getState()
    const call = this.#callFor(data?.externalCallId)
    const id = this.#idOf(data?.externalCallId, call)
    if (store.incoming && store.incoming.externalCallId === id) store.patch({ incoming: null })
    if (id !== undefined) store.updateCall(id, { status: 'TRANSFERRED' })
    if (!call) return
    call.done = true
    if (this.#current === call) this.#current = null
    await this.#patchCall(call.engagementId, { hs_call_status: 'COMPLETED', hs_call_duration: this.#durationOf(call) }, 'finalize the transferred call')
    await this.#refresh(id, call.engagementId)
    if (!this.#alive()) return
    this.#onCallLogged?.({
      externalCallId: call.externalCallId,
      outcome: 'transferred',
      ...(call.engagementId !== undefined ? { engagementId: call.engagementId } : {}),
      ...(call.record ? { record: call.record } : {}),
    })
  }

  async #onCompleted(data: Payload<'CALL_COMPLETED'>, message: MessageOf<'CALL_COMPLETED'>): Promise<void> {
    const store = () => this.#store.getState()
    const call = this.#callFor(data.externalCallId)
    const id = this.#idOf(data.externalCallId, call)
    if (store().incoming && store().incoming?.externalCallId === id) store().patch({ incoming: null })
    // Close the widget first, as the CRM does, unless the widget asked to stay open or a task queue is being worked.
    if (data.hideWidget !== false && !this.#keepVisible()) this.hide()
    const engagementId = this.#engagementFor(call, data.engagementId)
    if (engagementId === undefined) {
      const which = id === undefined ? 'this call (no externalCallId, and no call is in progress)' : `call ${id}`
      this.#link(message, this.#host.updateEngagementFailed({ error: { message: `No engagement to update for ${which}: send engagementId, or start the call with createEngagement: true.` } }))
      return
    }
    if (store().takeEngagementFault('update')) {
      this.#link(message, this.#host.updateEngagementFailed({ error: { message: 'Injected fault: engagement update failed (Ringside faults panel).' } }))
      return
    }
    // The values go to the engagements API as the widget sent them: it clears a property
    // set to null or "", stores numbers as text and refuses what it cannot store.
    const properties = { ...((data.engagementProperties ?? {}) as Record<string, unknown>) }
    try {
      if (Object.keys(properties).length > 0) await this.#api.patch(`/crm/v3/objects/calls/${engagementId}`, { properties })
      else await this.#api.get(`/crm/v3/objects/calls/${engagementId}`)
    } catch (error) {
      if (!this.#alive()) return
      this.#link(message, this.#host.updateEngagementFailed({ error: { message: `Could not update engagement ${engagementId}: ${errorText(error)}` } }))
      await this.#refresh(id, engagementId)
      return
    }
    // Default associations before the reply, so the CRM is complete when the widget hears success.
    if (call?.record) await this.#associateDefaults(engagementId, call.record)
    if (!this.#alive()) return
    this.#link(message, this.#host.updateEngagementSucceeded({ engagementId }))
    if (call) {
      call.done = true
      if (this.#current === call) this.#current = null
    }
    if (id !== undefined) store().updateCall(id, { status: 'COMPLETED', engagementId })
    await this.#refresh(id, engagementId)
    if (!this.#alive()) return
    this.#onCallLogged?.({
      externalCallId: id ?? '',
      outcome: 'completed',
      engagementId,
      ...(call?.record ? { record: call.record } : {}),
    })
  }

  /** The record the call was made from, and for a contact its companies. */
  async #associateDefaults(engagementId: number, record: CallRecord): Promise<void> {
    const put = (type: ObjectType, id: string) =>
      this.#api.put(`/crm/v3/objects/calls/${engagementId}/associations/${type}/${id}/${callAssociationTypeId(type)}`)
    try {
      await put(record.objectType, record.objectId)
      if (record.objectType === 'contacts') {
        const contact = await this.#api.get<SimpleObject>(`/crm/v3/objects/contacts/${record.objectId}`, { query: { associations: 'companies' } })
        const companies = contact.associations?.companies?.results ?? []
        const ids = [...new Set(companies.map((c) => c.id))]
        for (const id of ids) await put('companies', id)
      }
    } catch (error) {
      if (this.#alive()) this.#store.getState().alert(`Could not associate call ${engagementId}: ${errorText(error)}`, 'harness')
    }
  }

  async #onFinalize(
    type: 'FINALIZE_ENGAGEMENT' | 'PUBLISH_TO_CHANNEL',
    data: Payload<'FINALIZE_ENGAGEMENT'>,
    message: MessageOf<'FINALIZE_ENGAGEMENT'> | MessageOf<'PUBLISH_TO_CHANNEL'>,
  ): Promise<void> {
    const call = this.#callFor(data.externalCallId)
    const engagementId = this.#engagementFor(call, data.engagementId)
    const externalCallId = this.#idOf(data.externalCallId, call)
    const reply = {
      ...(engagementId !== undefined ? { engagementId } : {}),
      ...(externalCallId !== undefined ? { externalCallId } : {}),
    }
    let error: string | null = null
    if (engagementId === undefined) {
      error = `No engagement to finalize for ${externalCallId === undefined ? 'this call' : `call ${externalCallId}`}: send engagementId.`
    } else {
      try {
        await this.#api.get(`/crm/v3/objects/calls/${engagementId}`)
      } catch (e) {
        error = e instanceof ApiRequestError && e.status === 404 ? `Unknown engagement ${engagementId}.` : errorText(e)
      }
    }
    if (!this.#alive()) return
    this.#replyFinalize(type, message, reply, error)
  }

  /** FINALIZE_ENGAGEMENT and PUBLISH_TO_CHANNEL: the success and failure reply of each. */
  readonly #finalizeReplies: Record<FinalizeType, { succeeded: (reply: FinalizeReply) => string; failed: (reply: FinalizeReply & { error: { message: string } }) => string }> = {
    FINALIZE_ENGAGEMENT: { succeeded: (r) => this.#host.finalizeEngagementSucceeded(r), failed: (r) => this.#host.finalizeEngagementFailed(r) },
    PUBLISH_TO_CHANNEL: { succeeded: (r) => this.#host.publishToChannelSucceeded(r), failed: (r) => this.#host.publishToChannelFailed(r) },
  }

  #replyFinalize(type: FinalizeType, request: { type: string; messageId: string | number }, reply: FinalizeReply, error: string | null): void {
    const replies = this.#finalizeReplies[type]
    this.#link(request, error === null ? replies.succeeded(reply) : replies.failed({ ...reply, error: { message: error } }))
  }

  /**
   * A request the host ignored (the real CRM would) still gets its failure reply,
   * with the reason, so the widget is never left waiting.
   */
  #onIgnored(event: IgnoredEvent): void {
    const type = event.type
    if (type === undefined || !(type in FAILURE_REPLY)) return
    const raw = isRecord(event.data) ? event.data : {}
    const data = isRecord(raw.data) ? raw.data : {}
    const messageId = typeof raw.messageId === 'string' || typeof raw.messageId === 'number' ? raw.messageId : ''
    const request = { type, messageId }
    const error = { message: `The host ignored ${type}: ${event.reason}` }
    const h = this.#host
    switch (type as keyof typeof FAILURE_REPLY) {
      case 'CALL_COMPLETED':
        this.#link(request, h.updateEngagementFailed({ error }))
        break
      case 'FINALIZE_ENGAGEMENT':
      case 'PUBLISH_TO_CHANNEL':
        this.#replyFinalize(type as 'FINALIZE_ENGAGEMENT', request, {}, error.message)
        break
      case 'NAVIGATE_TO_RECORD':
        this.#link(request, h.navigateToRecordFailed())
        break
      case 'SET_WIDGET_URL':
        this.#link(request, h.setWidgetUrlFailed({ error }))
        break
      case 'OUTGOING_CALL_STARTED':
        if (data.createEngagement === true) this.#link(request, h.createEngagementFailed({ error }))
        break
      case 'INCOMING_CALL':
        this.#link(request, h.callerIdMatchFailed({ error }))
        if (data.createEngagement === true) this.#link(request, h.createEngagementFailed({ error }))
        break
    }
  }

  async #onNavigate(data: Payload<'NAVIGATE_TO_RECORD'>, message: MessageOf<'NAVIGATE_TO_RECORD'>): Promise<void> {
    const coordinates = data.objectCoordinates
    const type = recordTypeOf(coordinates.objectTypeId)
    const id = positiveId(coordinates.objectId)
    const fail = (why: string) => {
      const reply = this.#host.navigateToRecordFailed({
        ...(data.engagementId !== undefined ? { engagementId: data.engagementId } : {}),
        objectCoordinates: coordinates,
      })
      this.#link(message, reply)
      this.#store.getState().alert(`NAVIGATE_TO_RECORD failed: ${why}`, 'harness')
    }
    if (!type || id === undefined) return fail(`unknown object ${coordinates.objectTypeId}/${String(coordinates.objectId)}.`)
    try {
      await this.#api.get(`/crm/v3/objects/${type}/${id}`)
    } catch (error) {
      if (!this.#alive()) return
      return fail(error instanceof ApiRequestError && error.status === 404 ? `no ${type} record ${id}.` : errorText(error))
    }
    if (!this.#alive()) return
    const open = data.openIn === 'NEW_TAB' ? this.#openInNewTab : this.#navigate
    if (!open(type, String(id))) fail(`the harness could not open ${type}/${id}.`)
  }
}
