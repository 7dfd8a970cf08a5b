/**
 * Every request Ringside makes to a server it does not run (a calling app's
 * recording endpoint, recording file and channel-connection webhook; the
 * widget page the CLI probes) goes through `Outbound`, the same way:
 *
 * - one hop at a time: redirects are followed here, by hand, at most
 *   OUTBOUND_RULES.maxRedirects, and each hop is checked again, its URL's text
 *   (vendorUrlProblem) and, by the transport, every address its name resolves
 *   to (addressProblem);
 * - a deadline for the whole read (connect, headers, body, every hop);
 * - a byte budget, counted while the body streams: an answer is cut at the
 *   budget, never read whole to learn its size;
 * - a cap on concurrent reads: over it, the request is refused at once with
 *   429 and the real API's error body, before anything is changed.
 *
 * The transport (`OutboundFetch`) sends one request and never follows a
 * redirect: on the server it is emulator/node/outbound-transport.ts (Node's http
 * and https, connecting to the addresses it checked); in browser-only mode
 * the page's fetch with `redirect: 'manual'`, where a redirect is opaque, so
 * it is refused with a sentence; in tests a pretend vendor.
 */
import { ApiError, Category } from '../http/errors.ts'
import { readAllWithin } from '../http/http.ts'
import { addressProblem, vendorUrlProblem } from './address.ts'

/**
 * One hop: send `request` (its `redirect` is 'manual': never follow one) and
 * resolve with the answer, its body still streaming. `checkAddress` is called
 * with every address the host resolves to before connecting; a problem it
 * returns is thrown as an OutboundError, and nothing is sent.
 */
export type OutboundFetch = (request: Request, checkAddress?: (address: string) => string | null) => Promise<Response>

/** The rules of every outbound read (emulator choices; the real CRM does not publish its own). */
export interface OutboundRules {
  deadlineMs: number
  maxRedirects: number
  maxConcurrent: number
}

export const OUTBOUND_RULES: Readonly<OutboundRules> = {
  /** Connect, headers and the whole body, over every hop. */
  deadlineMs: 10_000,
  /** Redirects followed by hand, each hop checked again. */
  maxRedirects: 3,
  /** Reads in flight at once, per service. */
  maxConcurrent: 8,
}

/** Why an outbound request failed, in words for the developer (shown in the harness and in API answers). */
export class OutboundError extends Error {
  override name = 'OutboundError'
  /** Node's error code when the transport failed (ECONNREFUSED, ETIMEDOUT, a TLS code…). */
  readonly code: string | undefined
  constructor(message: string, code?: string) {
    super(message)
    this.code = code
  }
}

export interface OutboundOptions {
  /** The most bytes read from the answer's body. */
  maxBytes: number
  /** Who asked for the URL: 'vendor' (a calling app's URL: the this-machine rule on every hop) or 'user' (a URL the user typed: any http(s) address). */
  trust: 'vendor' | 'user'
}

export interface StreamedAnswer {
  status: number
  statusText: string
  headers: Headers
  /** The URL that answered (after redirects). */
  url: string
  /** The body, within the byte budget and the deadline: it errors with an OutboundError past either. */
  body: ReadableStream<Uint8Array>
}

export interface BudgetedAnswer {
  status: number
  statusText: string
  headers: Headers
  url: string
  body: Uint8Array<ArrayBuffer>
}

/** The reads of one `Outbound.run`: `all` reads the whole (budgeted) body; `open` leaves it to the caller, who must read or cancel it. */
export interface Reads {
  all(request: Request, options: OutboundOptions): Promise<BudgetedAnswer>
  open(request: Request, options: OutboundOptions): Promise<StreamedAnswer>
}

const REDIRECTS = new Set([301, 302, 303, 307, 308])
const describe = (error: unknown) => (error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error))

/** The reads one service makes: the cap on concurrent reads is counted here. */
export class Outbound {
  #active = 0
  readonly #fetch: OutboundFetch | undefined
  readonly #rules: OutboundRules

  constructor(fetch: OutboundFetch | undefined, rules: Partial<OutboundRules> = {}) {
    this.#fetch = fetch
    this.#rules = { ...OUTBOUND_RULES, ...rules }
  }

  /** Reads in flight. */
  get active(): number {
    return this.#active
  }

  #acquire(): () => void {
    if (this.#active >= this.#rules.maxConcurrent) {
      throw new ApiError(429, Category.RATE_LIMITS, `Ringside is already making ${this.#rules.maxConcurrent} requests to calling apps' servers, its limit; nothing was changed. Try again in a moment.`, {
        headers: { 'retry-after': '1' },
      })
    }
    this.#active++
    let released = false
    return () => {
      if (!released) this.#active--
      released = true
    }
  }

  /**
   * Run `work` holding one read slot (its reads one after another); throws
   * the 429 ApiError at once, before `work` starts, when every slot is taken.
   */
  async run<T>(work: (reads: Reads) => Promise<T>): Promise<T> {
    const release = this.#acquire()
    try {
      return await work({ all: (request, options) => this.#readAll(request, options), open: (request, options) => this.#open(request, options, () => {}) })
    } finally {
      release()
    }
  }

  /** One read whose body the caller streams on; the slot is held until that body ends, fails or is cancelled. */
  async stream(request: Request, options: OutboundOptions): Promise<StreamedAnswer> {
    const release = this.#acquire()
    try {
      return await this.#open(request, options, release)
    } catch (error) {
      release()
      throw error
    }
  }

  async #readAll(request: Request, options: OutboundOptions): Promise<BudgetedAnswer> {
    const answer = await this.#open(request, options, () => {})
    const body = await readAllWithin(answer.body, options.maxBytes)
    if (body === 'too-large') throw new OutboundError(`${request.method} ${answer.url} answered more than ${options.maxBytes} bytes, the limit.`)
    return { ...answer, body }
  }

  /** Send `request`, following redirects by hand; the answer's body is budgeted, and `settled` runs once it ends. */
  async #open(first: Request, options: OutboundOptions, settled: () => void): Promise<StreamedAnswer> {
    const fetch = this.#fetch
    if (!fetch) throw new OutboundError('This emulator makes no outbound requests (it was started without an outbound fetch), so it cannot reach the vendor.')
    const { deadlineMs } = this.#rules
    const controller = new AbortController()
    const timer = setTimeout(() => controller.abort(new OutboundError(`${first.method} ${first.url} did not finish within ${deadlineMs} ms.`, 'ETIMEDOUT')), deadlineMs)
    const finish = () => {
      clearTimeout(timer)
      settled()
    }
    const deadline = aborted(controller.signal)
    deadline.catch(() => {})
    const { maxRedirects } = this.#rules
    const body = first.body === null ? null : await first.arrayBuffer()
    let request = first
    let url = first.url
    try {
      for (let hop = 0; ; hop++) {
        const what = `${request.method} ${url}`
        const problem = options.trust === 'vendor' ? vendorUrlProblem(url) : /^https?:$/.test(new URL(url).protocol) ? null : `${url} is not an http(s) URL.`
        if (problem) throw new OutboundError(hop === 0 ? `${what}: ${problem}` : `${what} (a redirect): ${problem}`)
        const hopUrl = new URL(url)
        const checkAddress = options.trust === 'vendor' ? (address: string) => addressProblem(hopUrl, address) : () => null
        const sent = new Request(url, { method: request.method, headers: request.headers, body: request.method === 'GET' || request.method === 'HEAD' ? null : body, redirect: 'manual', signal: controller.signal })
        let response: Response
        try {
          response = await Promise.race([fetch(sent, checkAddress), deadline])
        } catch (error) {
          if (controller.signal.aborted) throw controller.signal.reason as OutboundError
          if (error instanceof OutboundError) throw error
          throw new OutboundError(`${what} failed: ${describe(error)}.`, codeOf(error))
        }
        if (response.type === 'opaqueredirect') {
          throw new OutboundError(`${what} answered a redirect, which the browser does not let Ringside follow and check by hand (browser-only mode); serve the file at the URL itself, or run \`npm start\`.`)
        }
        const location = REDIRECTS.has(response.status) ? response.headers.get('location') : null
        if (location === null) {
          return { status: response.status, statusText: response.statusText, headers: response.headers, url, body: budgeted(response.body, options.maxBytes, what, controller, finish) }
        }
        await response.body?.cancel().catch(() => {})
        if (hop >= maxRedirects) throw new OutboundError(`${what} redirected more than ${maxRedirects} times in a row; Ringside follows at most ${maxRedirects}.`)
        let next: URL
        try {
          next = new URL(location, url)
        } catch {
          throw new OutboundError(`${what} redirected to ${JSON.stringify(location.slice(0, 200))}, which is not a URL.`)
        }
        // As fetch does: 303, and 301/302 after a POST, go on as a GET without a body.
        const asGet = response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST')
        request = asGet ? new Request(next, { method: 'GET', headers: request.headers }) : request
        url = next.href
      }
    } catch (error) {
      finish()
      throw error
    }
  }
}

/** A promise that rejects when `signal` aborts (with its reason). */
function aborted(signal: AbortSignal): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (signal.aborted) reject(signal.reason as Error)
    signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
  })
}

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown; cause?: { code?: unknown } } | null)?.code ?? (error as { cause?: { code?: unknown } } | null)?.cause?.code
  return typeof code === 'string' ? code : undefined
}

/**
 * `body`, cut with an OutboundError past `maxBytes` or the deadline; cancelling
 * it cancels the answer. `finish` runs once, when it ends in any way.
 */
function budgeted(body: ReadableStream<Uint8Array> | null, maxBytes: number, what: string, controller: AbortController, finish: () => void): ReadableStream<Uint8Array> {
  if (body === null) {
    finish()
    return new ReadableStream({ start: (c) => c.close() })
  }
  const reader = body.getReader()
  let bytes = 0
  let done = false
  const end = () => {
    if (done) return
    done = true
    finish()
  }
  // At the deadline the answer is cancelled and the slot freed, even if no one reads on.
  const onAbort = () => {
    end()
    void reader.cancel(controller.signal.reason).catch(() => {})
  }
  controller.signal.addEventListener('abort', onAbort, { once: true })
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        try {
          const chunk = await reader.read()
          if (controller.signal.aborted) throw controller.signal.reason as OutboundError
          if (chunk.done) {
            end()
            out.close()
            return
          }
          bytes += chunk.value.byteLength
          if (bytes > maxBytes) throw new OutboundError(`${what} answered more than ${maxBytes} bytes, the limit.`)
          out.enqueue(chunk.value)
        } catch (error) {
          end()
          await reader.cancel().catch(() => {})
          out.error(controller.signal.aborted ? (controller.signal.reason as OutboundError) : error instanceof OutboundError ? error : new OutboundError(`${what} broke off: ${describe(error)}.`, codeOf(error)))
        }
      },
      async cancel(reason) {
        end()
        await reader.cancel(reason).catch(() => {})
      },
    },
    { highWaterMark: 0 },
  )
}
