/**
 * Following server mode's change stream (GET /_ringside/v1/changes,
 * Server-Sent Events; the format is in ../change-stream.ts).
 *
 * EventSource reconnects by itself after the connection drops (the server
 * asks for a retry after a second); if the browser gives up (the server
 * answered with an error, e.g. its cap on streams), the follower asks the
 * same URL with fetch why, reports the server's error message, and opens a
 * new EventSource after a pause that grows to 30 s.
 *
 * A page must not miss a commit made while it was not following: before its
 * first connection, between two connections, or across a restart. Each page
 * keeps a ChangeCursor: the position it has seen (first: what GET
 * /_ringside/v1/server said before the page loaded its data), compared with
 * the position of every `ready` and the `seq` of every change.
 */
import { SERVER_PATHS } from '../core/http/api-paths.ts'
import { parseChange, parseReady, type ChangeMessage, type ChangePosition, type ReadyEvent, READY_EVENT } from '../core/data/change-stream.ts'

/** What a follower reports. */
export type StreamEvent =
  | { type: 'ready'; ready: ReadyEvent }
  | { type: 'change'; change: ChangeMessage }
  /** The connection dropped; the browser is reconnecting. */
  | { type: 'down' }
  /** The server refused the stream: its error message (the API's error body). */
  | { type: 'refused'; status: number; message: string }

const FIRST_PAUSE_MS = 2000
const LONGEST_PAUSE_MS = 30_000

export function followChangeStream(emit: (event: StreamEvent) => void, url: string = SERVER_PATHS.changes): () => void {
  let source: EventSource | undefined
  let retry: ReturnType<typeof setTimeout> | undefined
  let stopped = false
  let pause = FIRST_PAUSE_MS
  const open = () => {
    const current = new EventSource(url)
    source = current
    current.addEventListener(READY_EVENT, (message) => {
      const ready = parseReady((message as MessageEvent<unknown>).data)
      if (!ready) return
      pause = FIRST_PAUSE_MS
      emit({ type: 'ready', ready })
    })
    current.addEventListener('message', (message) => {
      const change = parseChange(message.data)
      if (change) emit({ type: 'change', change })
    })
    current.addEventListener('error', () => {
      if (stopped || source !== current) return
      emit({ type: 'down' })
      if (current.readyState !== EventSource.CLOSED) return
      current.close()
      const wait = pause
      pause = Math.min(pause * 2, LONGEST_PAUSE_MS)
      void whyRefused(url).then((refused) => {
        if (stopped || source !== current) return
        if (refused) emit({ type: 'refused', ...refused })
        retry = setTimeout(open, wait)
      })
    })
  }
  open()
  return () => {
    stopped = true
    if (retry !== undefined) clearTimeout(retry)
    source?.close()
  }
}

/** Ask the stream's URL with fetch what EventSource cannot tell: the status and error message of a refusal. */
async function whyRefused(url: string): Promise<{ status: number; message: string } | undefined> {
  const abort = new AbortController()
  try {
    const response = await fetch(url, { headers: { accept: 'text/event-stream' }, cache: 'no-store', signal: abort.signal })
    if (response.ok) return undefined
    const body = (await response.json().catch(() => undefined)) as { message?: unknown } | undefined
    return { status: response.status, message: typeof body?.message === 'string' ? body.message : `HTTP ${response.status}` }
  } catch {
    // Unreachable (the server is down): nothing to report, the next attempt tells.
    return undefined
  } finally {
    abort.abort()
  }
}

/**
 * The position a page has seen, and what a stream event means for it. A page
 * starts from the position it read before loading data (or none: then the
 * first `ready` counts as a catch-up too).
 */
export class ChangeCursor {
  #at: ChangePosition | undefined

  constructor(start?: ChangePosition) {
    this.#at = start && { ...start }
  }

  get position(): ChangePosition | undefined {
    return this.#at && { ...this.#at }
  }

  /** A connection is live at `position`. True when commits may have been missed: the page must refetch everything. */
  ready(position: ChangePosition): boolean {
    const at = this.#at
    if (at && at.epoch === position.epoch && position.seq <= at.seq) return false
    this.#at = { epoch: position.epoch, seq: position.seq }
    return true
  }

  /**
   * A commit numbered `seq` on the current connection: `new` to pass on,
   * `seen` when the page already has it, `gap` when commits before it were
   * missed (the page must refetch everything).
   */
  change(seq: number): 'new' | 'seen' | 'gap' {
    const at = this.#at
    if (!at) return 'gap'
    if (seq <= at.seq) return 'seen'
    const gap = seq > at.seq + 1
    at.seq = seq
    return gap ? 'gap' : 'new'
  }
}
