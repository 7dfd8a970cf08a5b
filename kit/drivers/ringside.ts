/**
 * Driver for Ringside's reference widget (/widget/), through its accessible
 * UI only, as a user would. It places the call on DIAL_NUMBER by itself
 * (unless its "Confirm before dialling" setting is on: then the driver
 * presses Call). Its simulated phone line answers by itself
 * (`?outcome=answer&answerAfterMs=…`), so `answer` only waits for it. It
 * rings the widget through the widget's line simulator (its developer tool),
 * so the inbound journey runs too.
 */
import { expect, type FrameLocator } from '@playwright/test'
import { pressSteadily } from '../press.ts'
import { defineDriver } from './types.ts'

/**
 * What each press of the reference widget shows when it worked: the `until` of pressSteadily, for this driver
 * and for the specs that press the widget's buttons themselves.
 */
export const REFERENCE_WIDGET_SHOWS = {
  /** After Log in. */
  loggedIn: (widget: FrameLocator) => widget.getByRole('button', { name: 'Log out' }),
  /** After Call: ringing out, answered, or already in wrap-up (a busy or failed line). */
  callPlaced: (widget: FrameLocator) =>
    widget
      .getByRole('region', { name: 'Outgoing call' })
      .or(widget.getByRole('region', { name: 'Call in progress' }))
      .or(widget.getByRole('heading', { name: 'Wrap-up' })),
  /** After Answer. */
  inCall: (widget: FrameLocator) => widget.getByRole('region', { name: 'Call in progress' }),
  /** After Hang up. */
  wrapUp: (widget: FrameLocator) => widget.getByRole('heading', { name: 'Wrap-up' }),
  /** After Save: the completed screen (the harness may hide the whole dock on CALL_COMPLETED; the press then ends there). */
  saved: (widget: FrameLocator) => widget.getByRole('heading', { name: 'Call finished' }),
  /** After Simulate incoming call. */
  ringing: (widget: FrameLocator) => widget.getByRole('region', { name: 'Incoming call' }),
}
const SHOWS = REFERENCE_WIDGET_SHOWS

// Every press goes through pressSteadily: the widget asks the host for a new size after each screen change, and
// the harness's dock moves the frame when it applies it, sometimes under the press (see ../press.ts).

export default defineDriver({
  name: 'ringside (reference widget UI)',

  async logIn({ widget }) {
    const logIn = widget.getByRole('button', { name: 'Log in' })
    const logOut = SHOWS.loggedIn(widget)
    // One of the two, once the widget has drawn its account bar: a probe before that would skip the press.
    await expect(logIn.or(logOut)).toBeVisible()
    if (await logIn.isVisible()) await pressSteadily(logIn, { until: logOut })
    await expect(logOut).toBeVisible()
  },

  async placeCall({ widget }) {
    // DIAL_NUMBER places the call by itself; with "Confirm before dialling" on, it fills the number in and says so.
    const confirm = widget.getByText(/^The CRM asked to call .*\. Press Call to dial\.$/)
    await expect(SHOWS.callPlaced(widget).or(confirm)).toBeVisible()
    if (await SHOWS.callPlaced(widget).isVisible()) return
    await pressSteadily(widget.getByRole('button', { name: 'Call', exact: true }), { until: SHOWS.callPlaced(widget) })
  },

  async answer({ widget }) {
    // The simulated far end answers after answerAfterMs (default 2500 ms),
    // unless the line is set to be busy, fail or not answer (then: wrap-up).
    const answered = widget.getByRole('region', { name: 'Call in progress' })
    await expect(answered.or(widget.getByRole('heading', { name: 'Wrap-up' }))).toBeVisible({ timeout: 15_000 })
  },

  async hangUp({ widget }) {
    const hangUp = widget.getByRole('button', { name: 'Hang up' })
    // A call the line ended by itself is already in wrap-up.
    if (await hangUp.isVisible()) await pressSteadily(hangUp, { until: SHOWS.wrapUp(widget) })
  },

  async completeWrapUp({ widget }, { notes }) {
    await expect(widget.getByRole('heading', { name: 'Wrap-up' })).toBeVisible()
    await widget.getByLabel('Notes').fill(notes)
    // No disposition: the widget's codes are not this portal's hs_call_disposition options.
    await widget.getByLabel('Disposition').selectOption('')
    await pressSteadily(widget.getByRole('button', { name: 'Save' }), { until: SHOWS.saved(widget) })
  },

  async ring({ widget, dialedNumber }) {
    const from = widget.getByLabel('Incoming call from')
    if (!(await from.isVisible())) await pressSteadily(widget.getByText('Line simulator (developer tool)'), { until: from })
    await from.fill(dialedNumber)
    const simulate = widget.getByRole('button', { name: 'Simulate incoming call' })
    // The simulator has just opened, and the widget asks the host for a new size: the press that follows is the
    // one most likely to have the frame move under it.
    await pressSteadily(simulate, { until: SHOWS.ringing(widget) })
  },

  async answerIncoming({ widget }) {
    await pressSteadily(widget.getByRole('region', { name: 'Incoming call' }).getByRole('button', { name: 'Answer' }), { until: SHOWS.inCall(widget) })
  },
})
