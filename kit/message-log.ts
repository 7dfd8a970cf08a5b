/**
 * The wire log of one page, as the browser delivered it: every `message`
 * event of every frame, recorded black-box by message-recorder.ts. This file
 * is the Node side only (no Playwright page access): storage, filters and
 * waits, so the checks can also run on a log built by hand.
 */
import { notSdkReason } from '../shared/protocol/index.ts'

/** Which way a recorded message went, seen from the calling protocol. */
export type WireDirection = 'from-widget' | 'to-widget' | 'other'

/** One `message` event, in the frame that received it. */
export interface RecordedMessage {
  /** Arrival order in the test process (1, 2, …), across all frames; the log itself is kept in `time` order. */
  readonly seq: number
  /** `performance.timeOrigin + performance.now()` in the receiving frame (ms since the epoch, comparable across frames). */
  readonly time: number
  /** URL of the frame that received the message. */
  readonly frameUrl: string
  /** Whether the receiving frame is the page's top frame (the harness). */
  readonly topFrame: boolean
  /** `event.origin`: the origin of the sender. */
  readonly origin: string
  /** Whether the sender was the receiving frame's parent window. */
  readonly fromParent: boolean
  /** `event.data`, as Playwright serialized it (see README: Map/Set/Date survive, functions cannot be posted anyway). */
  readonly data: unknown
  readonly direction: WireDirection
  /** `data.type` when it is a string, else null. */
  readonly type: string | null
  /**
   * Not a calling-SDK message (no `type` or no `messageId`, as the SDK tests it): e.g. a vendor
   * library's own traffic in the widget's page. Kept in the log; never a protocol message.
   */
  readonly notSdk?: true
}

/** A partial object (deep subset of the message) or a predicate. */
export type MessageMatch = Readonly<Record<string, unknown>> | ((message: RecordedMessage) => boolean)

export interface WaitOptions {
  /** Milliseconds; default 5000. */
  timeout?: number
  /** Only messages going this way. */
  direction?: WireDirection
}

/** The origins that tell the two directions apart. */
export interface LogOrigins {
  harness: string
  widget: string
}

/** `expected` is a deep subset of `actual`: objects by own keys, arrays element by element, the rest with Object.is. */
export function isDeepSubset(actual: unknown, expected: unknown): boolean {
  if (Object.is(actual, expected)) return true
  if (Array.isArray(expected)) {
    return Array.isArray(actual) && expected.length <= actual.length && expected.every((item, i) => isDeepSubset(actual[i], item))
  }
  if (typeof expected === 'object' && expected !== null) {
    if (typeof actual !== 'object' || actual === null) return false
    return Object.entries(expected).every(([key, value]) => Object.hasOwn(actual, key) && isDeepSubset((actual as Record<string, unknown>)[key], value))
  }
  return false
}

/** The `data` payload of a recorded message when it is an object, else `{}`. */
export function payloadOf(record: Pick<RecordedMessage, 'data'> | undefined): Record<string, unknown> {
  const data = (record?.data as { data?: unknown } | undefined)?.data
  return typeof data === 'object' && data !== null ? (data as Record<string, unknown>) : {}
}

function typeOf(data: unknown): string | null {
  if (typeof data !== 'object' || data === null) return null
  const type: unknown = (data as { type?: unknown }).type
  return typeof type === 'string' ? type : null
}

function originOf(url: string): string {
  try {
    return new URL(url).origin
  } catch {
    return ''
  }
}

/** The fields the browser side reports; the log adds seq, direction and type. */
export type RawRecord = Omit<RecordedMessage, 'seq' | 'direction' | 'type'>

/** The wire direction of a record, from where it was received and who sent it. */
export function classify(record: RawRecord, origins: LogOrigins): WireDirection {
  if (record.topFrame && record.origin === origins.widget) return 'from-widget'
  if (!record.topFrame && record.fromParent && record.origin === origins.harness && originOf(record.frameUrl) === origins.widget) return 'to-widget'
  return 'other'
}

function describe(match: MessageMatch | undefined): string {
  if (match === undefined) return ''
  if (typeof match === 'function') return ' matching the predicate'
  return ` matching ${JSON.stringify(match)}`
}

function summary(records: readonly RecordedMessage[]): string {
  if (records.length === 0) return 'nothing was recorded'
  const tail = records.slice(-12).map((r) => `${r.type ?? '(no type)'} (${r.direction})`)
  return `recorded ${records.length} messages, the last ones: ${tail.join(', ')}`
}

interface Waiter {
  test(): unknown
  resolve(value: unknown): void
}

export class MessageLog {
  readonly #records: RecordedMessage[] = []
  readonly #waiters = new Set<Waiter>()
  #origins: LogOrigins
  #seq = 0

  constructor(origins: LogOrigins) {
    this.#origins = { ...origins }
  }

  /** The origins used to classify new records. */
  get origins(): LogOrigins {
    return { ...this.#origins }
  }

  /** Changes the widget origin used for records that arrive from now on (e.g. the harness loaded another widget). */
  setWidgetOrigin(origin: string): void {
    this.#origins = { ...this.#origins, widget: origin }
  }

  /** Adds one record (tests may feed a log by hand). */
  add(raw: RawRecord): RecordedMessage {
    const [record] = this.addAll([raw])
    return record!
  }

  /**
   * Adds records (the recorder sends them in batches per frame). The log
   * stays in time order, whichever frame's batch arrives first.
   */
  addAll(raws: readonly RawRecord[]): RecordedMessage[] {
    const added = raws.map((raw) => {
      const record: RecordedMessage = { ...raw, seq: ++this.#seq, direction: classify(raw, this.#origins), type: typeOf(raw.data) }
      if (notSdkReason(raw.data) !== undefined) (record as { notSdk?: true }).notSdk = true
      let at = this.#records.length
      while (at > 0 && this.#records[at - 1]!.time > record.time) at -= 1
      this.#records.splice(at, 0, record)
      return record
    })
    for (const waiter of [...this.#waiters]) {
      const value = waiter.test()
      if (value !== undefined) {
        this.#waiters.delete(waiter)
        waiter.resolve(value)
      }
    }
    return added
  }

  /** Every record, in time order. */
  all(): RecordedMessage[] {
    return [...this.#records]
  }

  /** Widget → host messages (received by the harness frame from the widget origin). */
  fromWidget(): RecordedMessage[] {
    return this.#records.filter((r) => r.direction === 'from-widget')
  }

  /** Host → widget messages (received by the widget frame from its parent, the harness). */
  toWidget(): RecordedMessage[] {
    return this.#records.filter((r) => r.direction === 'to-widget')
  }

  /** Protocol messages of `type`, either way (records classified 'other', and those that are not SDK messages, are left out). */
  ofType(type: string, direction?: WireDirection): RecordedMessage[] {
    return this.#records.filter((r) => r.type === type && r.direction !== 'other' && r.notSdk !== true && (direction === undefined || r.direction === direction))
  }

  /** The first protocol message of `type` (optionally matching), or undefined. */
  find(type: string, match?: MessageMatch, direction?: WireDirection): RecordedMessage | undefined {
    return this.ofType(type, direction).find((r) => matches(r, match))
  }

  /**
   * Waits for a protocol message of `type` (already recorded or arriving
   * later) whose data is a deep superset of `match`, or that satisfies the
   * predicate. Rejects after the timeout with what was recorded meanwhile.
   */
  expectMessage(type: string, match?: MessageMatch, options: WaitOptions = {}): Promise<RecordedMessage> {
    return this.#wait(
      () => this.find(type, match, options.direction),
      options.timeout,
      () => `expected a ${type} message${describe(match)}${options.direction ? ` (${options.direction})` : ''}`,
      this.expectMessage,
    )
  }

  /**
   * Waits until protocol messages of these types were recorded in this order
   * (other messages in between are fine). Resolves with the matched records.
   */
  waitForSequence(types: readonly string[], options: WaitOptions = {}): Promise<RecordedMessage[]> {
    return this.#wait(
      () => {
        const found: RecordedMessage[] = []
        for (const r of this.#records) {
          if (found.length === types.length) break
          if (r.direction !== 'other' && r.notSdk !== true && r.type === types[found.length] && (options.direction === undefined || r.direction === options.direction)) found.push(r)
        }
        return found.length === types.length ? found : undefined
      },
      options.timeout,
      () => `expected the sequence ${types.join(' → ')}`,
      this.waitForSequence,
    )
  }

  /** Waits until `test` returns something other than undefined. */
  waitFor<T>(test: () => T | undefined, options: { timeout?: number; description?: string } = {}): Promise<T> {
    return this.#wait(test, options.timeout, () => options.description ?? 'expected a condition on the message log', this.waitFor)
  }

  /** The log as JSON text (for attachments): BigInt, Map, Set and long strings are made readable. */
  toJSONText(maxString = 2_000): string {
    return stringifyForReport({ origins: this.#origins, messages: this.#records }, maxString)
  }

  /** `caller`: the public method, left out of the failure's stack. */
  #wait<T>(test: () => T | undefined, timeout = 5_000, describeFailure: () => string, caller: (...args: never[]) => unknown): Promise<T> {
    const now = test()
    if (now !== undefined) return Promise.resolve(now)
    // Created now so its stack points at the test that waits, not at the timer.
    const failure = new Error('timed out')
    Error.captureStackTrace(failure, caller)
    return new Promise<T>((resolve, reject) => {
      const waiter: Waiter = { test, resolve: (value) => (clearTimeout(timer), resolve(value as T)) }
      const timer = setTimeout(() => {
        this.#waiters.delete(waiter)
        failure.message = `${describeFailure()} within ${timeout} ms; ${summary(this.#records)}`
        reject(failure)
      }, timeout)
      this.#waiters.add(waiter)
    })
  }
}

/** JSON.stringify that survives what postMessage can carry (BigInt, Map, Set, cycles) and clips long strings. */
export function stringifyForReport(value: unknown, maxString = 2_000): string {
  const seen = new WeakSet<object>()
  return JSON.stringify(
    value,
    (_key, v: unknown) => {
      if (typeof v === 'bigint') return `${v}n`
      if (typeof v === 'string' && v.length > maxString) return `${v.slice(0, maxString)}… (${v.length} characters)`
      if (typeof v === 'number' && !Number.isFinite(v)) return String(v)
      if (v === undefined) return undefined
      if (typeof v === 'object' && v !== null) {
        if (seen.has(v)) return '[circular]'
        seen.add(v)
        if (v instanceof Map) return { Map: [...v.entries()] }
        if (v instanceof Set) return { Set: [...v.values()] }
      }
      return v
    },
    2,
  )
}

function matches(record: RecordedMessage, match: MessageMatch | undefined): boolean {
  if (match === undefined) return true
  if (typeof match === 'function') return match(record)
  return isDeepSubset(record.data, match)
}
