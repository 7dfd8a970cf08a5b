/**
 * Every wait of the `ringside` CLI and the kit, in one table: its name, its
 * bound and the sentence it ends with when the bound passes, and the exit code
 * the command then gives (docs/waits.md is this table for readers).
 *
 * A bound can be shortened or lengthened with $RINGSIDE_WAITS, a comma-separated
 * list of name=milliseconds (`RINGSIDE_WAITS=journey-step=3000,widget-page=1500`):
 * the tests shorten them so that a hung widget is judged in seconds. check-widget
 * passes it on to the Playwright run it starts. `sync` is `--sync-timeout`.
 *
 * No React, no DOM, no Node: callers pass `process.env`.
 */

export type ExitCode = 0 | 1 | 2

export interface Wait {
  /** Default bound, ms. */
  readonly ms: number
  /** What waits, for the docs. */
  readonly what: string
  /** The sentence when the bound passed; `{s}` is the bound in seconds, the other fields come from the caller. */
  readonly sentence: string
  /** The command's exit code when it passed; null: the command goes on (it prints the sentence). */
  readonly exit: ExitCode | null
}

export const WAITS = {
  'widget-page': {
    ms: 10_000,
    what: "check-widget's first GET of the widget's page (status, headers and the page, up to 64 kB)",
    sentence: 'the widget page at {url} did not finish loading within {s}: {received}',
    exit: 2,
  },
  'widget-name': {
    ms: 2_000,
    what: "`ringside start --widget`'s GET of the widget's page, for its <title>",
    sentence: 'the widget page at {url} did not finish loading within {s} ({received}); the dock names it "{name}"',
    exit: null,
  },
  'widget-scripts': {
    ms: 2_000,
    what: "the harness's GET of a widget page on this machine whose handshake is late, for the scripts it loads from other sites",
    sentence: 'the widget page at {url} did not finish loading within {s}: {received}',
    exit: null,
  },
  'harness-server': {
    ms: 30_000,
    what: "check-widget's harness server, until it listens (Playwright's webServer)",
    sentence: 'Timed out waiting {s} from config.webServer (Playwright); the check could not run',
    exit: 2,
  },
  'harness-open': {
    ms: 15_000,
    what: "the harness page, until it shows its calling status (the widget's own loads are not waited for)",
    sentence: 'the harness page did not show its calling status within {s} of opening it with the widget {url}',
    exit: 1,
  },
  sync: {
    ms: 10_000,
    what: "the host's handshake: SYNC until the widget's SYNC_ACK (check-widget's --sync-timeout)",
    sentence: 'The host gave up after {ms} ms; the widget never sent SYNC_ACK (and the loads its page had not finished)',
    exit: 1,
  },
  'journey-message': {
    ms: 10_000,
    what: "one message of a journey after its trigger (OUTGOING_CALL_STARTED after DIAL_NUMBER, …)",
    sentence: 'the widget answered the handshake, then {missing} within {s} after {after}',
    exit: 1,
  },
  'journey-step': {
    ms: 30_000,
    what: "one step of a journey as a whole: the driver's actions in the widget and the message that follows",
    sentence: 'the widget answered the handshake, then {missing} within {s} after {after} (the step did not finish{frozen})',
    exit: 1,
  },
  journey: {
    ms: 120_000,
    what: 'one journey as a whole, after the handshake',
    sentence: 'the journey did not finish within {s}: it stopped at step {stage} (waiting for {expected})',
    exit: 1,
  },
  'frame-probe': {
    ms: 1_000,
    what: "a look at whether the widget's frame still runs scripts, after a step did not finish",
    sentence: "; the widget's frame did not answer within {s}: a script in it runs without a break (a loop that never yields)",
    exit: 1,
  },
  'wrap-up': {
    ms: 15_000,
    what: "what the kit reads after a journey (the inspector's findings, the traffic, the screenshot, the trace)",
    sentence: '(could not read {what} within {s}: the page stopped responding)',
    exit: 1,
  },
  'open-server': {
    ms: 5_000,
    what: "`ringside open`'s look at the running Ringside (--url)",
    sentence: 'no Ringside answers at {url} (no answer within {s}): start one with `ringside start`, or pass --url.',
    exit: 2,
  },
  'open-browser': {
    ms: 30_000,
    what: '`ringside open` starting Chromium',
    sentence: 'Chromium ({path}) did not start within {s}',
    exit: 2,
  },
  'open-page': {
    ms: 30_000,
    what: '`ringside open` loading the page (the browser stays open on it either way)',
    sentence: 'the page {url} did not finish loading within {s} ({received}); the browser stays open on it',
    exit: null,
  },
  'admin-request': {
    ms: 120_000,
    what: '`ringside export`, `import` and `reset` against a running emulator (--url): the request and its answer',
    sentence: 'the emulator at {url} did not answer {request} within {s}; it may still apply it: look with `ringside export`',
    exit: 2,
  },
  stop: {
    ms: 1_500,
    what: '`ringside start` stopping on SIGINT/SIGTERM (the export on exit, closing the store)',
    sentence: 'stopping took longer than {ms} ms; exiting anyway ({signal}).',
    exit: 1,
  },
} as const satisfies Record<string, Wait>

export type WaitName = keyof typeof WAITS

export const WAITS_ENV = 'RINGSIDE_WAITS'

/** Bounds outside this range are refused: a wait of nothing, or of more than ten minutes, is a typo. */
const MIN_MS = 100
const MAX_MS = 600_000

const isWaitName = (name: string): name is WaitName => Object.hasOwn(WAITS, name)

/** The bounds $RINGSIDE_WAITS sets, or the sentence that says what is wrong with it. */
export function parseWaits(value: string | undefined): Partial<Record<WaitName, number>> | string {
  const bounds: Partial<Record<WaitName, number>> = {}
  if (value === undefined || value.trim() === '') return bounds
  for (const item of value.split(',')) {
    const [name = '', ms = ''] = item.split('=').map((part) => part.trim())
    if (!isWaitName(name)) return `${WAITS_ENV}: ${JSON.stringify(name.slice(0, 40))} is not a wait; the waits are ${Object.keys(WAITS).join(', ')}`
    const bound = Number(ms)
    if (!/^\d+$/.test(ms) || bound < MIN_MS || bound > MAX_MS) return `${WAITS_ENV}: ${name} must be a whole number of milliseconds from ${MIN_MS} to ${MAX_MS}, got ${JSON.stringify(ms.slice(0, 40))}`
    bounds[name] = bound
  }
  return bounds
}

/** The bound of `name` in ms: $RINGSIDE_WAITS's when it sets one (and is valid), else the table's. */
export function waitMs(name: WaitName, env: Readonly<Record<string, string | undefined>> = {}): number {
  const bounds = parseWaits(env[WAITS_ENV])
  return (typeof bounds === 'string' ? undefined : bounds[name]) ?? WAITS[name].ms
}

/** A bound as the sentences say it: "10 s", "1.5 s", "250 ms". */
export function showMs(ms: number): string {
  if (ms < 1_000) return `${ms} ms`
  const s = ms / 1_000
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`
}

/** The sentence of `name` with its fields filled in; `{s}` and `{ms}` are the bound. */
export function waitSentence(name: WaitName, ms: number, fields: Readonly<Record<string, string>> = {}): string {
  const all: Record<string, string> = { ...fields, s: showMs(ms), ms: String(ms) }
  return WAITS[name].sentence.replace(/\{(\w+)\}/g, (whole, key: string) => (Object.hasOwn(all, key) ? all[key]! : whole))
}

/** Thrown by `within` when its bound passed; `message` is the wait's sentence. */
export class WaitExpired extends Error {
  constructor(
    readonly wait: WaitName,
    readonly ms: number,
    message: string,
  ) {
    super(message)
    this.name = 'WaitExpired'
  }
}

/**
 * `work`, or a WaitExpired with the wait's sentence once `ms` passed (the work itself goes on: the caller closes
 * what it ran in). `ms` is the bound to use (waitMs gives the table's, or what is left of an enclosing wait).
 */
export async function within<T>(work: Promise<T>, name: WaitName, ms: number, fields: Readonly<Record<string, string>> = {}): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new WaitExpired(name, ms, waitSentence(name, ms, fields))), Math.max(0, ms))
  })
  try {
    return await Promise.race([work, expired])
  } finally {
    clearTimeout(timer)
    // The losing side's rejection is nobody's to handle.
    work.catch(() => undefined)
  }
}
