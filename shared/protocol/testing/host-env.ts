/**
 * A CallingHost mounted in jsdom with a fake widget window, for the SDK's host
 * tests and for tests of wrappers around its outbox (the harness's faults).
 */
import type { SyncFields } from '../catalogue.ts'
import { CallingHost, type CallingHostOptions, type RejectedEvent } from '../host.ts'
import { observeHost, type Observed } from './observed.ts'
import { WIDGET_ORIGIN, WIDGET_SRC, capturePosts, deliver, postedOfType, type Post } from './jsdom-wire.ts'

export const SYNC_FIELDS: SyncFields = { portalId: 123, userId: 7, ownerId: 9, iframeLocation: 'widget', usesCallingWindow: false }

export interface HostEnv {
  host: CallingHost
  iframe: HTMLIFrameElement
  widget: Window
  posts: Post[]
  /** What the host told its observer (options.observer, unless the test passes its own). */
  traffic: Observed[]
  rejected: RejectedEvent[]
  /** Stops filling `traffic`. */
  stopTraffic: () => void
}

const hosts: CallingHost[] = []

/** Mount a host (not yet loaded); `destroyHostEnvs` destroys every host mounted so far. */
export function mountHost(options: Partial<CallingHostOptions> = {}): HostEnv {
  const container = document.createElement('div')
  document.body.appendChild(container)
  const { observer, records: traffic, stop: stopTraffic } = observeHost()
  const host = new CallingHost({ container, src: WIDGET_SRC, sync: SYNC_FIELDS, observer, ...options })
  hosts.push(host)
  const rejected: RejectedEvent[] = []
  host.onRejected((e) => rejected.push(e))
  const iframe = host.mount()
  const widget = iframe.contentWindow
  if (!widget) throw new Error('no iframe window')
  return { host, iframe, widget, posts: capturePosts(widget), traffic, rejected, stopTraffic }
}

export function destroyHostEnvs(): void {
  for (const host of hosts.splice(0)) host.destroy()
}

/**
 * Fires the iframe's load event. jsdom swaps the iframe's window when its src changes
 * (browsers keep one WindowProxy), so the window and its captured posts are refreshed.
 */
export function load(env: HostEnv): void {
  const current = env.iframe.contentWindow
  if (current && current !== env.widget) {
    env.widget = current
    env.posts = capturePosts(current)
  }
  env.iframe.dispatchEvent(new Event('load'))
}

export function fromWidget(env: HostEnv, data: unknown, origin = WIDGET_ORIGIN): void {
  deliver(data, origin, env.widget)
}

export function syncs(env: HostEnv): Record<string, unknown>[] {
  return postedOfType(env.posts, 'SYNC')
}

export function ackFor(sync: Record<string, unknown> | undefined, extra: Record<string, unknown> = {}) {
  if (!sync) throw new Error('no SYNC was posted')
  return { ...sync, type: 'SYNC_ACK', debugMode: true, version: '0.9.7-beta.0', iFrameUrl: WIDGET_ORIGIN, ...extra }
}

/** Mounted, loaded and acknowledged; posts/traffic/rejected are emptied afterwards. */
export function readyHost(options: Partial<CallingHostOptions> = {}): HostEnv {
  const env = mountHost(options)
  load(env)
  fromWidget(env, ackFor(syncs(env)[0]))
  if (env.host.status !== 'ready') throw new Error(`host not ready after SYNC_ACK: ${env.host.status}`)
  env.posts.length = 0
  env.traffic.length = 0
  env.rejected.length = 0
  return env
}
