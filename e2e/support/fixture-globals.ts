/**
 * The window globals the fixture pages expose to Playwright and to the
 * benchmark. Type-only: page.evaluate callbacks cast `window` to these.
 */

/** One call of a widget event handler. */
export interface HandlerCall {
  readonly handler: string
  readonly data: unknown
  /** The raw message the SDK passed as the second handler argument, if any. */
  readonly message: unknown
}

/** A message a page received through `postMessage`. */
export interface ReceivedMessage {
  readonly origin: string
  /** Whether it came from the frame this page expects to talk to. */
  readonly trusted: boolean
  readonly data: unknown
  readonly at: number
}

/** Both widget fixtures (npm-widget, sdk-widget). */
export interface WidgetFixtureWindow {
  /** Every handler call, in order (empty in `?mode=echo`). */
  __received: HandlerCall[]
  /** sharedClock() time of the first onReady, or null. */
  __readyAt: number | null
  /** Calls a widget→host method of the SDK by name. */
  __call(method: string, payload?: unknown): unknown
}

/** One console call made on a fixture page. */
export interface ConsoleEntry {
  readonly level: 'debug' | 'log' | 'warn' | 'error'
  /** The string arguments, joined (objects are not serialized). */
  readonly text: string
}

/** The sdk-widget fixture adds what our SDK reports. */
export interface SdkWidgetFixtureWindow extends WidgetFixtureWindow {
  /** Every console diagnostic of the page (our SDK logs rejections there), in order. */
  __diagnostics: ConsoleEntry[]
  /** CallingExtensions#isReady */
  __isReady(): boolean
  /** CallingExtensions#hostOrigin */
  __hostOrigin(): string | null
}

/** A page that embeds the widget (plain-host, sdk-host). */
export interface HostFixtureWindow {
  /** sharedClock() time of the widget iframe's load event, or null. */
  __loadAt: number | null
  /** sharedClock() time the handshake completed on the host side, or null. */
  __readyAt: number | null
  /** Times `count` DIAL_NUMBER → OUTGOING_CALL_STARTED round trips (ms each). */
  __benchRoundTrips(count: number): Promise<number[]>
}

/** The npm-host fixture (the npm package's own host side): handshakes only. */
export type NpmHostFixtureWindow = Omit<HostFixtureWindow, '__benchRoundTrips'>

export interface PlainHostFixtureWindow extends HostFixtureWindow {
  /** Everything the page received, from any window, in order. */
  __log: ReceivedMessage[]
  /** Every SYNC the page sent. */
  __syncs: Record<string, unknown>[]
  /** The SYNC_ACK that completed the handshake, or null. */
  __ack: Record<string, unknown> | null
  /** Sends `{type, data?, messageId}` to the widget with its exact origin. */
  __send(type: string, data?: unknown): string
  /** Posts `message` to the widget exactly as given. */
  __post(message: unknown): void
  /** With `?sync=manual`: starts the SYNC loop. */
  __startSync(): void
}

export interface HostileFixtureWindow {
  /** How many attack rounds were posted. */
  __attacks: number
  /** Everything this frame received (nothing should ever arrive). */
  __heard: ReceivedMessage[]
  /** Posts one more round of forged messages. */
  __attack(): number
}

/** A typed event our CallingHost emitted for a message from the widget. */
export interface HostEventRecord {
  readonly type: string
  readonly data: unknown
  readonly message: unknown
}

/** A traffic entry of the harness's TrafficRecorder on our CallingHost (the fields the tests read). */
export interface TrafficRecord {
  readonly direction: 'in' | 'out'
  readonly type: string | null
  readonly valid: boolean
  readonly reason?: string
  readonly message: unknown
  readonly beforeHandshake?: boolean
}

/** A message our CallingHost rejected (its `rejected` event). */
export interface RejectionRecord {
  readonly reason: string
  readonly origin: string
  readonly data: unknown
}

export interface SdkHostFixtureWindow extends HostFixtureWindow {
  /** CallingHost#status, kept current. */
  __status: string
  /** Every status the host went through, in order. */
  __statuses: string[]
  /** Every typed event (`on(type)`) for widget→host types, in order. */
  __events: HostEventRecord[]
  /** Every traffic entry (the harness's TrafficRecorder as the host's observer). */
  __traffic: TrafficRecord[]
  /** Every rejection (`onRejected`). */
  __rejected: RejectionRecord[]
  /** The handshake info of the last `ready` event, or null. */
  __handshake: { version?: string; debugMode?: boolean; iFrameUrl?: string } | null
  /** Calls a CallingHost method by name (e.g. `dialNumber`). */
  __call(method: string, payload?: unknown): unknown
  /** CallingHost#send(type, data). */
  __send(type: string, data?: unknown): string
  /** FaultInjector.set on the FaultInjector wrapped around the host's outbox. */
  __setFaults(faults: { withholdSync?: boolean }): void
}
