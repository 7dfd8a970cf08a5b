import { isDialable, normalizeNumber } from './call-record.ts'
import { DEFAULT_LINE_SETTINGS, type LineInput, type LineOutcome } from './phone-line.ts'
import { DEFAULT_MY_NUMBER } from './session.ts'

/**
 * The widget's URL parameters, so a test (or a developer) can set up the
 * simulated line and the user's state without clicking:
 *
 * | parameter | values | default |
 * |---|---|---|
 * | outcome | answer, busy, no-answer, fail | answer |
 * | ringAfterMs, answerAfterMs, noAnswerAfterMs | 0 … 600000 | 400, 2500, 8000 |
 * | remoteHangUpAfterMs | 0 … 600000 (the remote party hangs up after the answer) | never |
 * | incoming | a phone number: the line rings with a call from it once | none |
 * | incomingAfterMs | 0 … 600000, counted from page load | 1000 |
 * | incomingGiveUpAfterMs | 0 … 600000 (then the call is MISSED) | 30000 |
 * | autoLogin | 1 / true: start logged in | logged out (or the login kept from the last visit) |
 * | available | 0 / false: start unavailable | available |
 * | fromNumber | the user's own number | +16175550100 |
 * | confirmDial | 1 / true: the CRM's Call fills the number in and the user presses Call; 0 / false: it dials at once | the widget's setting (dials at once) |
 * | debug | 1 / true: SDK debug logging | off |
 *
 * A value that cannot be used is ignored and named in `problems`.
 *
 * `autoLogin` and `incoming` make the widget act with no click (log in, take
 * a call the host then logs in the CRM), and any web site can open the
 * harness with a local `?widget=` URL that carries them. So they apply only
 * when the page is driven by automation (`navigator.webdriver`, which
 * WebDriver and Playwright set: https://w3c.github.io/webdriver/#interface);
 * otherwise they are ignored and `notice` says so in the widget. The other
 * parameters only shape what a person's own clicks do.
 */
export interface WidgetParams {
  line: LineInput
  autoLogin: boolean
  available: boolean
  myNumber: string
  /** null: the parameter is absent, the widget's own setting applies. */
  confirmDial: boolean | null
  debugMode: boolean
  problems: string[]
  /** Why acting parameters were ignored (not driven by automation), or null. */
  notice: string | null
}

/** The parameters that make the widget act on its own. */
export const ACTING_PARAMS = ['autoLogin', 'incoming'] as const

const OUTCOMES: Record<string, LineOutcome> = {
  answer: 'answer',
  busy: 'busy',
  'no-answer': 'noAnswer',
  noanswer: 'noAnswer',
  no_answer: 'noAnswer',
  fail: 'fail',
  failed: 'fail',
}

const MAX_MS = 600_000

/** The widget's parameters; `automated`: the page is driven by automation (`navigator.webdriver === true`). */
export function parseWidgetParams(search: string, automated: boolean): WidgetParams {
  const params = new URLSearchParams(search)
  const problems: string[] = []
  const ignored = automated ? [] : ACTING_PARAMS.filter((name) => params.has(name))
  for (const name of ignored) params.delete(name)
  const notice =
    ignored.length === 0
      ? null
      : `Ignored ${ignored.join(' and ')} from this page's URL: they act without a click, so they apply only when a test tool drives the browser (navigator.webdriver). Log in and take calls by hand.`

  /** A duration, or null when the parameter is absent or unusable. */
  const optionalMs = (name: string): number | null => {
    const raw = params.get(name)
    if (raw === null || raw === '') return null
    const value = Number(raw)
    if (Number.isInteger(value) && value >= 0 && value <= MAX_MS) return value
    problems.push(`${name}=${raw} is not a whole number of milliseconds between 0 and ${MAX_MS}`)
    return null
  }
  const ms = (name: string, fallback: number): number => optionalMs(name) ?? fallback
  const flag = (name: string, fallback: boolean): boolean => {
    const raw = params.get(name)
    if (raw === null) return fallback
    if (['1', 'true', 'yes', ''].includes(raw.toLowerCase())) return true
    if (['0', 'false', 'no'].includes(raw.toLowerCase())) return false
    problems.push(`${name}=${raw} is not 1/0 or true/false`)
    return fallback
  }
  const phone = (name: string): string | null => {
    const raw = params.get(name)
    if (raw === null || raw === '') return null
    if (isDialable(raw)) return normalizeNumber(raw)
    problems.push(`${name}=${raw} is not a phone number`)
    return null
  }

  const rawOutcome = params.get('outcome')
  let outcome = DEFAULT_LINE_SETTINGS.outcome
  if (rawOutcome !== null) {
    const known = OUTCOMES[rawOutcome.toLowerCase()]
    if (known) outcome = known
    else problems.push(`outcome=${rawOutcome} is not one of answer, busy, no-answer, fail`)
  }

  const incoming = phone('incoming')
  const line: LineInput = {
    settings: {
      outcome,
      ringAfterMs: ms('ringAfterMs', DEFAULT_LINE_SETTINGS.ringAfterMs),
      answerAfterMs: ms('answerAfterMs', DEFAULT_LINE_SETTINGS.answerAfterMs),
      noAnswerAfterMs: ms('noAnswerAfterMs', DEFAULT_LINE_SETTINGS.noAnswerAfterMs),
      remoteHangUpAfterMs: optionalMs('remoteHangUpAfterMs'),
      incomingGiveUpAfterMs: ms('incomingGiveUpAfterMs', DEFAULT_LINE_SETTINGS.incomingGiveUpAfterMs),
    },
    scheduledIncoming: incoming ? { from: incoming, afterMs: ms('incomingAfterMs', 1000) } : null,
  }

  return {
    line,
    autoLogin: flag('autoLogin', false),
    available: flag('available', true),
    myNumber: phone('fromNumber') ?? DEFAULT_MY_NUMBER,
    confirmDial: params.has('confirmDial') ? flag('confirmDial', false) : null,
    debugMode: flag('debug', false),
    problems,
    notice,
  }
}
