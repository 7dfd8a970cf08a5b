/**
 * The topology in the browser: where this page's widget runs, the link between
 * record pages and the calling window, full-page-load navigation, and what a
 * page does about a live call when it goes away.
 *
 * - A record page whose placement is `window` mounts no widget: its Call
 *   button goes to the calling window (PageLink), opened on the first press.
 * - The calling window (route #/calling-window) mounts the widget with
 *   `iframeLocation: 'window'` and dials for the record pages (WindowLink).
 * - While a call is live in this page, leaving it asks the browser to confirm,
 *   as the real CRM alerts users "of Navigating when a call is active to avoid
 *   dropping calls" (https://github.com/HubSpot/calling-extensions-sdk/issues/21);
 *   if the user leaves, the next load of this tab says which call was dropped.
 */
import type { CallingRuntime } from '../core/runtime.ts'
import { dialBlocker, widgetStarting, type CallingState, type CallingStore } from '../core/calling-store.ts'
import type { StartCallInput, StartCallResult } from '../core/controller/controller.ts'
import { installFullNavigation, isLiveCall, rememberDroppedCall, takeDroppedCall, droppedCallText, type DroppedCall } from './full-navigation.ts'
import { CALLING_WINDOW_FEATURES, CALLING_WINDOW_NAME, callingWindowUrl, placementFromQuery, type Placement } from '../core/placement.ts'
import { recordHref } from '../../lib/hash-routes.ts'
import { PageLink } from './page-link.ts'
import { WindowLink } from './window-link.ts'
import { PressWatch } from './press-watch.ts'
import { WINDOW_CHANNEL_NAME, type ChannelPort, type LockPort, type WindowSummary } from './window-protocol.ts'

/** Longest text a summary carries (the channel's limit). */
const CLIP = 512
const clip = (text: string) => (text.length > CLIP ? text.slice(0, CLIP) : text)

/** What the calling window reports of its integration; `widgetName` as the dock titles it. */
export function windowSummaryOf(s: CallingState, widgetName: string): WindowSummary {
  const call = s.call
  return {
    widgetName: clip(widgetName),
    handshake: s.status,
    cannotDial: dialBlocker(s),
    widgetStarting: widgetStarting(s),
    loggedIn: s.loggedIn,
    available: s.available,
    isReady: s.effective?.isReady ?? true,
    call: call
      ? {
          externalCallId: clip(call.externalCallId),
          status: clip(call.status),
          number: clip(call.number),
          ...(call.engagementId === undefined ? {} : { engagementId: call.engagementId }),
          engagementStatus: call.engagement?.properties.hs_call_status ?? null,
          ...(call.record ? { record: { objectType: clip(call.record.objectType), objectId: clip(call.record.objectId), ...(call.record.label ? { label: clip(call.record.label) } : {}) } } : {}),
        }
      : null,
  }
}

/** The live call of this page's widget, as the drop note keeps it. */
function liveCall(s: CallingState): DroppedCall | null {
  const call = s.call
  if (!call || !isLiveCall(call.status)) return null
  return {
    externalCallId: call.externalCallId,
    status: call.status,
    ...(call.engagementId === undefined ? {} : { engagementId: call.engagementId }),
    ...(call.record ? { record: call.record } : {}),
  }
}

/** Calling windows this page already sent to the calling-window address (they may still be loading it). */
const sentOff = new WeakSet<Window>()

/**
 * Opens the calling window, or finds the one this browser already has under
 * its name without reloading it (a window.open with a URL would reload it and
 * drop its call). Must run in the user's click.
 *
 * A window still loading the address shows about:blank until its page arrives.
 * It is not sent there a second time: the page's own opening (no calling window
 * answered `who`) and a Call press can come within that moment, and a second
 * navigation could replace a first page that already took the Call's dial.
 */
export function openCallingWindow(win: Window = window): boolean {
  const existing = win.open('', CALLING_WINDOW_NAME, CALLING_WINDOW_FEATURES)
  if (!existing) return false
  let blank: boolean
  try {
    blank = existing.location.href === 'about:blank'
  } catch {
    // another origin's page under that name (cannot happen for a window the harness opened): replace it
    blank = true
  }
  if (blank && !sentOff.has(existing)) {
    sentOff.add(existing)
    existing.location.replace(callingWindowUrl(win.location))
  }
  existing.focus()
  return true
}

/** The origin's Web Locks; undefined outside a secure context (e.g. the harness served on a LAN address over http). */
function webLocks(win: Window): LockPort | undefined {
  return (win.navigator as Navigator | undefined)?.locks ?? undefined
}

function openChannel(): ChannelPort | null {
  return typeof BroadcastChannel === 'function' ? (new BroadcastChannel(WINDOW_CHANNEL_NAME) as ChannelPort) : null
}

export interface TopologyOptions {
  runtime: CallingRuntime
  store: CallingStore
  /** This page is the calling window (#/calling-window). */
  inCallingWindow: boolean
  /** The widget's name as the dock shows it (the window reports it to the pages). */
  widgetName(state: CallingState): string
  win?: Window
}

export class Topology {
  #runtime: CallingRuntime | null = null
  #page: PageLink | null = null
  #inCallingWindow = false
  #store: CallingStore | null = null
  #offs: Array<() => void> = []

  /** The record page's link to the calling window (null in the calling window itself). */
  get pageLink(): PageLink | null {
    return this.#page
  }

  get inCallingWindow(): boolean {
    return this.#inCallingWindow
  }

  start(options: TopologyOptions): void {
    if (this.#store) return
    const win = options.win ?? window
    const { runtime, store } = options
    this.#store = store
    this.#runtime = runtime
    this.#inCallingWindow = options.inCallingWindow
    const asked = placementFromQuery(win.location.search)
    if (asked.error) store.getState().alert(asked.error, 'harness')
    if (options.inCallingWindow) {
      store.getState().patch({ inCallingWindow: true })
      runtime.setIframeLocation('window')
    }
    else if (asked.placement) runtime.setIframeLocation(asked.placement)

    this.#offs.push(installFullNavigation(win), rememberDroppedCall(() => liveCall(store.getState()), win))
    const dropped = takeDroppedCall(win)
    if (dropped) store.getState().alert(droppedCallText(dropped), 'harness')
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (!liveCall(store.getState())) return
      event.preventDefault()
      event.returnValue = '' // older browsers' way of asking
    }
    win.addEventListener('beforeunload', onBeforeUnload)
    this.#offs.push(() => win.removeEventListener('beforeunload', onBeforeUnload))

    const channel = openChannel()
    if (!channel) return
    const log = (message: string) => console.warn(`Ringside: ${message}`)
    const locks = webLocks(win)
    if (options.inCallingWindow) {
      const link = new WindowLink({
        channel,
        log,
        locks,
        host: {
          summary: () => windowSummaryOf(store.getState(), options.widgetName(store.getState())),
          subscribe: (listener) => store.subscribe(listener),
          startCall: (input) => runtime.startCall(input),
        },
      })
      link.start()
      const onPageHide = () => link.stop()
      win.addEventListener('pagehide', onPageHide)
      this.#offs.push(() => win.removeEventListener('pagehide', onPageHide))
    } else {
      const presses = new PressWatch(win)
      presses.start()
      this.#offs.push(() => presses.stop())
      const page: PageLink = new PageLink({
        channel,
        log,
        openWindow: () => openCallingWindow(win),
        afterPresses: (fn) => presses.afterPresses(fn),
        locks,
        // A page of the window placement makes sure a calling window exists (the real CRM's remote
        // and window come with the page); a browser may block this pop-up without a click, and
        // the card's button then opens it.
        onNoWindow: () => this.#callsGoToWindow() && page.open().ok,
      })
      this.#page = page
      page.start()
    }
  }

  /**
   * NAVIGATE_TO_RECORD from the widget in the calling window: the CRM page
   * that opened the window goes to the record (the window itself keeps the
   * widget and its call); with no such page, a new tab opens on it.
   */
  navigateFromWindow(objectType: string, objectId: string, win: Window = window): boolean {
    const href = recordHref(objectType, objectId)
    if (href === null) return false
    const opener = win.opener as Window | null
    try {
      if (opener && !opener.closed && opener.location.origin === win.location.origin) {
        opener.location.hash = href
        opener.focus()
        return true
      }
    } catch {
      // the opener went to another origin: open a tab instead
    }
    // A fragment-only URL opens this page (its path and query) on the record's route. With noopener,
    // window.open returns null even when the tab opened.
    win.open(href, '_blank', 'noopener')
    return true
  }

  /** The user picked a placement (the calling window's card; the dock has its own choice). */
  setPlacement(placement: Placement): void {
    this.#runtime?.setIframeLocation(placement)
  }

  /** The widget runs in the calling window, not in this page. */
  #callsGoToWindow(): boolean {
    return !this.#inCallingWindow && this.#store?.getState().iframeLocation === 'window'
  }

  /**
   * A record page's Call press: to the calling window when the placement is
   * `window`, else null (the page's own widget dials).
   */
  routeCall(input: StartCallInput): StartCallResult | null {
    if (!this.#callsGoToWindow() || !this.#page) return null
    const result = this.#page.dial(input)
    return result.ok ? { ok: true, messageId: 'calling-window' } : result
  }

  /** Whether a record page can dial: the calling window opens on demand. */
  canDialHere(): boolean {
    return this.#callsGoToWindow()
  }
}

/** The app's topology. */
export const topology = new Topology()
