/**
 * A handshake that goes unanswered: what the widget's page loads from other
 * sites, and the sentence the dock shows about it.
 *
 * A widget that loads the calling SDK from a public CDN (jsDelivr, unpkg) in a
 * browser that cannot reach it (offline, a blocked network) never runs the
 * SDK: its page loads, nothing answers SYNC, and the host can only say
 * "syncing" until it gives up. The page is cross-origin, so the harness
 * cannot see its failed request; the Ringside server reads the page for it
 * (GET /_ringside/v1/widget-scripts, pages on this machine only) and names
 * the scripts it loads from other sites. `ringside open` opens a browser that
 * answers the SDK's CDN URLs from Ringside, offline.
 */
import { SERVER_PATHS } from '../../../shared/crm/api-paths.ts'
import { isRecord } from '../../../shared/crm/guards.ts'
import { isOnThisMachine } from '../../../shared/url/this-machine.ts'
import type { ApiPort } from './ports.ts'

/** How long the widget's page may stay silent after its load before the harness looks at what it loads: the SDK answers SYNC within 100 ms of running. */
export const LATE_HANDSHAKE_MS = 3_000

export interface LateHandshake {
  /** The widget page that was read. */
  pageUrl: string
  /** Its scripts on other sites, the calling SDK on a public CDN first (`sdk`). */
  scripts: Array<{ url: string; sdk: boolean }>
}

const MAX_NAMED = 3

/** What the dock says about a handshake the widget has not answered, or null when the page loads nothing from other sites. */
export function lateHandshakeText(late: LateHandshake): string | null {
  const sdk = late.scripts.filter((s) => s.sdk).map((s) => s.url)
  const open = 'Run `ringside open` to open a browser that answers the calling SDK’s CDN URLs from Ringside, offline.'
  if (sdk.length > 0) {
    return `The widget has sent nothing since its page loaded: its calling SDK script ${sdk.slice(0, MAX_NAMED).join(', ')} did not run in this browser, which cannot load it offline or without access to that site. ${open}`
  }
  const other = late.scripts.map((s) => s.url)
  if (other.length === 0) return null
  const more = other.length > MAX_NAMED ? ` and ${other.length - MAX_NAMED} more` : ''
  return `The widget has sent nothing since its page loaded. Its page loads scripts from other sites (${other.slice(0, MAX_NAMED).join(', ')}${more}); a browser offline cannot load them. If one of them is the calling SDK, ${open.charAt(0).toLowerCase()}${open.slice(1)}`
}

/** Asks the Ringside server what the widget page loads from other sites; null where no server reads it (browser-only mode) or it cannot tell. */
export async function readLateHandshake(api: ApiPort, pageUrl: string): Promise<LateHandshake | null> {
  let body: unknown
  try {
    body = await api.get(SERVER_PATHS.widgetScripts, { query: { url: pageUrl } })
  } catch {
    return null
  }
  if (!isRecord(body) || !Array.isArray(body.scripts)) return null
  const scripts = body.scripts
    .filter((s): s is { url: string; sdk: boolean } => isRecord(s) && typeof s.url === 'string' && typeof s.sdk === 'boolean')
    .slice(0, 20)
    .map((s) => ({ url: s.url, sdk: s.sdk }))
  return { pageUrl, scripts }
}

/**
 * Watches one widget page's handshake: LATE_HANDSHAKE_MS after its page loaded (the
 * host's status turned `syncing`) with no message from it, it reads what the page loads
 * and reports it (`report`); a message from the widget, the handshake's end or a new
 * page clears it (`report(null)`).
 */
export class LateHandshakeWatch {
  readonly #api: ApiPort
  readonly #report: (late: LateHandshake | null) => void
  readonly #delayMs: number
  /** Whether a Ringside server is there to read the page (server mode); browser-only mode has none. */
  readonly #serverBehind: () => boolean
  #timer: ReturnType<typeof setTimeout> | null = null
  /** Bumped on every change, so an answer that arrives late for another page is dropped. */
  #turn = 0
  #silent = false
  #reported = false

  constructor(api: ApiPort, report: (late: LateHandshake | null) => void, options: { serverBehind?: () => boolean; delayMs?: number } = {}) {
    this.#api = api
    this.#report = report
    this.#delayMs = options.delayMs ?? LATE_HANDSHAKE_MS
    this.#serverBehind = options.serverBehind ?? (() => true)
  }

  /** The host's status changed; `src` is the page the iframe shows. */
  status(status: string, src: string): void {
    if (status === 'failed') return // keep what was found: it says why
    this.#reset()
    // The server reads only pages on this machine; without a server nothing can read the page.
    if (status !== 'syncing' || !isOnThisMachine(src) || !this.#serverBehind()) return
    this.#silent = true
    const turn = this.#turn
    this.#timer = setTimeout(() => {
      this.#timer = null
      void readLateHandshake(this.#api, src).then((late) => {
        if (turn !== this.#turn || !this.#silent || late === null) return
        this.#reported = true
        this.#report(late)
      })
    }, this.#delayMs)
  }

  /** A message came from the widget: its script runs. */
  heard(): void {
    if (this.#silent || this.#reported) this.#reset()
  }

  dispose(): void {
    this.#reset()
  }

  #reset(): void {
    this.#turn += 1
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
    this.#silent = false
    if (this.#reported) {
      this.#reported = false
      this.#report(null)
    }
  }
}
