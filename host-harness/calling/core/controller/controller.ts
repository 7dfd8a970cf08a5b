/**
 * The host's behaviour for every widget message: the one place between
 * CallingHost events and the CRM API. This file is the map from each widget
 * message (after the leniency rules of CallingHost's judgement) to its one
 * action; the actions live with their concern:
 * - widget-ui.ts: INITIALIZED, login and availability, RESIZE_WIDGET, ERROR, visibility;
 * - navigation.ts: NAVIGATE_TO_RECORD, SET_WIDGET_URL;
 * - outbound.ts / inbound.ts: OUTGOING_CALL_STARTED (the dialed record) / INCOMING_CALL (caller-ID match);
 * - call-state.ts: CALL_ANSWERED, CALL_ENDED, CALL_TRANSFERRED;
 * - engagement.ts: the engagement's create, update (CALL_COMPLETED) and finalize (FINALIZE_ENGAGEMENT,
 *   PUBLISH_TO_CHANNEL), with the engagement faults;
 * - failure-replies.ts: the failure reply owed to a request the host ignored.
 *
 * Plain TS: it takes a CallingHost (or anything with the same methods), the
 * API client, a calling store and a navigate function, so unit tests drive it
 * with a fake host and the real in-memory API.
 *
 * Wire faults (delay, drop, duplicate, withhold SYNC) are not applied here but
 * by the harness's FaultInjector (../fault-outbox.ts), a wrapper around the host's outbox.
 */
import type { HostEvents } from '../../../../shared/protocol/index.ts'
import { dialBlocker, type CallingStore } from '../calling-store.ts'
import type { Visibility } from '../calling-types.ts'
import { CallingCause, causedApi, HARNESS_ACCOUNT, type ApiPort, type HarnessAccount, type HostPort } from '../ports.ts'
import { onAnswered, onEnded, onTransferred } from './call-state.ts'
import { CallBook, errorText, type ControllerContext, type LoggedCall } from './context.ts'
import { dialRequest, type StartCallInput } from './dial-payload.ts'
import { onCompleted, onFinalize } from './engagement.ts'
import { onIgnored } from './failure-replies.ts'
import { onIncoming } from './inbound.ts'
import { onNavigate, onSetWidgetUrl } from './navigation.ts'
import { onOutgoing } from './outbound.ts'
import { onInitialized, onWidgetError, resize, setVisibility } from './widget-ui.ts'

export { HARNESS_ACCOUNT, type ApiPort, type HarnessAccount, type HostPort } from '../ports.ts'
export type { StartCallInput } from './dial-payload.ts'
export type { LoggedCall } from './context.ts'
export { ENGAGEMENT_VIEW_PROPERTIES } from './engagement.ts'

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

export type StartCallResult = { ok: true; messageId: string } | { ok: false; reason: string }

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

export class CallingController {
  readonly #ctx: ControllerContext
  readonly #unsubscribe: Array<() => void> = []
  readonly #pending = new Set<Promise<void>>()
  #disposed = false

  constructor(options: ControllerOptions) {
    const navigate = options.navigate
    const openInNewTab = options.openInNewTab ?? navigate
    const keepVisible = options.keepVisible ?? (() => false)
    this.#ctx = {
      host: options.host,
      api: options.api,
      store: options.store,
      account: options.account ?? HARNESS_ACCOUNT,
      now: options.now ?? (() => Date.now()),
      calls: new CallBook(),
      alive: () => !this.#disposed,
      link: (request, replyMessageId) =>
        options.store.getState().addLink({ request, requestType: request.type, requestMessageId: request.messageId, replyMessageId }),
      show: () => this.show(),
      hide: () => this.hide(),
      keepVisible: () => keepVisible(),
      ...(options.onCallLogged ? { onCallLogged: options.onCallLogged } : {}),
      navigate: (objectType, objectId) => navigate(objectType, objectId),
      openInNewTab: (objectType, objectId) => openInNewTab(objectType, objectId),
    }
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
    return dialBlocker(this.#ctx.store.getState())
  }

  /** The Call button: shows the widget and sends DIAL_NUMBER with the full payload. */
  startCall(input: StartCallInput): StartCallResult {
    const reason = this.cannotDialReason()
    if (reason) return { ok: false, reason }
    const dial = dialRequest(input, this.#ctx.account, this.#ctx.now())
    if (!dial.ok) return dial
    this.#ctx.calls.setDial({ payload: dial.payload, record: dial.record })
    this.show()
    const messageId = this.#ctx.host.dialNumber(dial.payload)
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

  #setVisibility(next: Visibility): void {
    setVisibility(this.#ctx, next)
  }

  // --- the message → action map ----------------------------------------------

  #subscribe(): void {
    const ctx = this.#ctx
    const store = () => ctx.store.getState()
    // The API requests made for a message carry it as their cause (the inspector links them).
    const by = (message: unknown): ControllerContext => ({ ...ctx, api: causedApi(ctx.api, new CallingCause(message)) })
    const handlers: WidgetHandlers = {
      INITIALIZED: (data) => onInitialized(ctx, data),
      LOGGED_IN: () => store().patch({ loggedIn: true }),
      LOGGED_OUT: () => store().patch({ loggedIn: false }),
      USER_AVAILABLE: () => store().patch({ available: true }),
      USER_UNAVAILABLE: () => store().patch({ available: false }),
      RESIZE_WIDGET: (data) => resize(ctx, data.width, data.height),
      ERROR: (data) => onWidgetError(ctx, data),
      SET_WIDGET_URL: (data, message) => onSetWidgetUrl(by(message), data, message),
      OUTGOING_CALL_STARTED: (data, message) => this.#track(onOutgoing(by(message), data, message)),
      INCOMING_CALL: (data, message) => this.#track(onIncoming(by(message), data, message)),
      CALL_ANSWERED: (data, message) => this.#track(onAnswered(by(message), data)),
      CALL_ENDED: (data, message) => this.#track(onEnded(by(message), data)),
      CALL_TRANSFERRED: (data, message) => this.#track(onTransferred(by(message), data)),
      CALL_COMPLETED: (data, message) => this.#track(onCompleted(by(message), data, message)),
      FINALIZE_ENGAGEMENT: (data, message) => this.#track(onFinalize(by(message), 'FINALIZE_ENGAGEMENT', data, message)),
      PUBLISH_TO_CHANNEL: (data, message) => this.#track(onFinalize(by(message), 'PUBLISH_TO_CHANNEL', data, message)),
      NAVIGATE_TO_RECORD: (data, message) => this.#track(onNavigate(by(message), data, message)),
      ignored: (event) => onIgnored(ctx, event),
    }
    for (const event of Object.keys(handlers) as Array<keyof WidgetHandlers>) this.#unsubscribe.push(ctx.host.on(event, handlers[event]))
  }

  /** Keeps the promise for idle(); an unexpected throw becomes a harness alert, never an unhandled rejection. */
  #track(work: Promise<void>): void {
    const p = work.catch((error: unknown) => {
      if (!this.#disposed) this.#ctx.store.getState().alert(`Host error: ${errorText(error)}`, 'harness')
    })
    this.#pending.add(p)
    void p.finally(() => this.#pending.delete(p))
  }
}
