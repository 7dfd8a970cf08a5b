/**
 * The driver for a widget the kit has no driver for: it operates the widget
 * through its accessible roles and names, as a user reading the screen would.
 *
 * - logIn: fills an empty sign-in form (e-mail, user name, password) with
 *   placeholder credentials and presses "Log in" / "Sign in" / "Connect" /
 *   "Get started" (an onboarding screen that logs the user in);
 * - placeCall: after the host's DIAL_NUMBER, types the dialed number if the
 *   number field is still empty, and presses "Call" / "Dial" / "Start call";
 * - answer: presses "Answer" / "Call answered" / "Pick up" when the widget
 *   offers one (a simulated far end); otherwise the widget's line must answer;
 * - hangUp: "Hang up" / "End call" / "Disconnect";
 * - completeWrapUp: types the notes into a notes field if there is one, then
 *   "Save" / "Log call" / "Submit" / "Done" / "Complete".
 *
 * Names are matched without case, with "-", "_" or a space between words
 * (`end-call`, `End call`), exact wordings first, then a word anywhere in the
 * name. A step whose control it cannot find is skipped with the names it
 * looked for (StepSkipped), never guessed at. It presses a button once it
 * has kept its place for 300 ms (see ../press.ts). It cannot ring the widget,
 * so the inbound journey is skipped for it.
 */
import type { FrameLocator, Locator } from '@playwright/test'
import { pressSteadily } from '../press.ts'
import { defineDriver, StepSkipped } from './types.ts'

const SEP = String.raw`[\s_-]*`
const words = (...alternatives: string[]) => alternatives.map((a) => a.replace(/ /g, SEP)).join('|')
const exact = (...alternatives: string[]) => new RegExp(`^\\s*(${words(...alternatives)})\\s*$`, 'i')
const anywhere = (...alternatives: string[]) => new RegExp(`\\b(${words(...alternatives)})\\b`, 'i')

/** The wordings each step looks for, best first; `avoid` rules out a looser match. */
export const GENERIC_CONTROLS = {
  logIn: { names: [exact('log in', 'login', 'sign in', 'signin', 'connect', 'go online', 'start session', 'get started'), anywhere('log in', 'sign in')], avoid: /log\s*out|sign\s*out/i },
  placeCall: {
    names: [exact('call', 'dial', 'call now', 'start call', 'place call', 'make call', 'outgoing call', 'outgoing call started', 'start'), anywhere('call', 'dial')],
    avoid: /end|hang|log|history|transfer|back|answer|cancel|complete|ended|save|record|incoming|missed/i,
  },
  answer: { names: [exact('answer', 'answer call', 'call answered', 'pick up', 'accept', 'accept call'), anywhere('answer', 'pick up')], avoid: /decline|reject|cancel/i },
  hangUp: { names: [exact('hang up', 'end', 'end call', 'call ended', 'disconnect', 'stop call', 'finish call', 'terminate'), anywhere('hang up', 'end call')], avoid: /transfer|record|mute/i },
  completeWrapUp: {
    names: [exact('save', 'save call', 'log call', 'log', 'submit', 'done', 'complete', 'complete call', 'call completed', 'finish', 'save and close', 'wrap up', 'finalize engagement'), anywhere('save', 'log call', 'submit', 'complete')],
    avoid: /cancel|discard|delete/i,
  },
} as const

type Control = (typeof GENERIC_CONTROLS)[keyof typeof GENERIC_CONTROLS]

/** Shown in skip reasons: the exact wordings of a control. */
const wordingsOf = (control: Control) =>
  control.names[0]!.source
    .replace(/^\^\\s\*\(|\)\\s\*\$$/g, '')
    .split('|')
    .map((w) => `"${w.replaceAll(SEP, ' ')}"`)
    .join(', ')

/** The first visible, enabled button of the widget matching `control`, polling up to `timeoutMs`; null if none. */
async function findButton(widget: FrameLocator, control: Control, timeoutMs: number): Promise<Locator | null> {
  const until = Date.now() + timeoutMs
  for (;;) {
    for (const name of control.names) {
      const buttons = widget.getByRole('button', { name })
      const count = Math.min(await buttons.count(), 20)
      for (let i = 0; i < count; i++) {
        const button = buttons.nth(i)
        const label = (await button.getAttribute('aria-label').catch(() => null)) ?? (await button.innerText().catch(() => '')) ?? ''
        if (control.avoid.test(label)) continue
        if ((await button.isVisible().catch(() => false)) && (await button.isEnabled().catch(() => false))) return button
      }
    }
    if (Date.now() >= until) return null
    await new Promise((done) => setTimeout(done, 200))
  }
}

async function press(widget: FrameLocator, step: keyof typeof GENERIC_CONTROLS, what: string, timeoutMs = 5_000): Promise<void> {
  const control = GENERIC_CONTROLS[step]
  const button = await findButton(widget, control, timeoutMs)
  if (button === null) throw new StepSkipped(`the generic driver found no enabled button to ${what} (it looks for ${wordingsOf(control)})`)
  // It cannot know what the press should show, so it presses once the button has kept its place for a moment:
  // a widget that asks for a new size after a change moves its buttons when the host applies it.
  await pressSteadily(button)
}

/** Fills the empty, visible, editable text fields of the widget that `match` their accessible name or placeholder. */
async function fillEmpty(widget: FrameLocator, fields: ReadonlyArray<{ match: RegExp; value: string; role?: 'textbox' }>): Promise<number> {
  let filled = 0
  const inputs = widget.locator('input:not([type=hidden]):not([type=button]):not([type=submit]):not([type=checkbox]):not([type=radio]), textarea')
  const count = Math.min(await inputs.count(), 30)
  for (let i = 0; i < count; i++) {
    const input = inputs.nth(i)
    if (!(await input.isVisible().catch(() => false)) || !(await input.isEditable().catch(() => false))) continue
    if ((await input.inputValue().catch(() => 'x')) !== '') continue
    const described = await input.evaluate((el: HTMLInputElement | HTMLTextAreaElement) => {
      const labels = 'labels' in el && el.labels ? [...el.labels].map((l) => l.textContent ?? '') : []
      return [el.getAttribute('aria-label'), el.getAttribute('placeholder'), el.getAttribute('name'), el.id, el.getAttribute('type'), el.tagName, ...labels].filter(Boolean).join(' ')
    })
    const field = fields.find((f) => f.match.test(described))
    if (!field) continue
    await input.fill(field.value)
    filled += 1
  }
  return filled
}

export default defineDriver({
  name: 'generic (the widget\'s buttons by their accessible names)',

  async logIn({ widget }) {
    await fillEmpty(widget, [
      { match: /e-?mail/i, value: 'agent@example.com' },
      { match: /password/i, value: 'ringside-check' },
      { match: /user|login|account|name/i, value: 'agent' },
    ])
    await press(widget, 'logIn', 'log in')
  },

  async placeCall({ widget, dialedNumber }) {
    // The host's DIAL_NUMBER usually fills the number in; if the field is still empty, the user types it.
    await fillEmpty(widget, [{ match: /phone|number|dial|\bto\b|tel/i, value: dialedNumber }])
    await press(widget, 'placeCall', 'place the call')
  },

  async answer({ widget }) {
    // A widget with a simulated far end offers "Answer"; a real line answers by itself.
    await press(widget, 'answer', 'get the call answered', 3_000)
  },

  async hangUp({ widget }) {
    await press(widget, 'hangUp', 'hang up')
  },

  async completeWrapUp({ widget }, { notes }) {
    await fillEmpty(widget, [{ match: /note|comment|description|summary|textarea/i, value: notes }])
    await press(widget, 'completeWrapUp', 'save the call')
  },
})
