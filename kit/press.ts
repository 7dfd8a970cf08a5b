/**
 * Pressing a widget's control the way a user does: where it is when the
 * mouse goes down and still is when it comes up.
 *
 * A widget's controls move on the page when the widget's content changes:
 * first inside its frame, then again when the host applies the size the
 * widget asked for with RESIZE_WIDGET (the reference widget asks 150 ms after
 * its content settles, and the harness docks the frame bottom-right, so a
 * taller widget moves up). Playwright's click waits for the control to stand
 * still inside its own frame, not for the frame to stand still in the page.
 * When the frame moves between the mouse-down and the mouse-up, Chromium
 * sends the click to the element under both (the form around the button),
 * nothing happens, and Playwright reports the click done. This happened in
 * CI to the reference widget's Call button right after DIAL_NUMBER, under
 * load.
 *
 * `pressSteadily` compares the control's place on the page just before and
 * just after the press:
 * - it did not move: the press is done (if nothing happened, the caller's
 *   next wait fails, as it should);
 * - it moved and `until` is given: it waits for `until` to show, and presses
 *   again while the control is still there and `until` is not shown;
 * - without `until` it first waits for the control to hold its place for
 *   `steadyMs` (at most 3 s, then it presses anyway), as a user who looks
 *   before pressing, since it cannot tell a lost press from a press that did
 *   nothing visible.
 * `until` must be what stays after the press (the next screen), not a moment
 * that may already have passed when it is looked for.
 */
import { expect, type Locator } from '@playwright/test'

export interface PressOptions {
  /**
   * What the press shows when it worked (the next screen, a message). With it,
   * a press the control moved under is repeated until this is visible.
   */
  readonly until?: Locator
  /** Without `until`: how long the control must keep its place before the press. */
  readonly steadyMs?: number
  /** The whole press, retries included. */
  readonly timeout?: number
}

type Box = { x: number; y: number; width: number; height: number }

/** Presses at most this many times when the control keeps moving under the press. */
const MAX_PRESSES = 3
/** How long a press the control moved under gets to show `until`; also the bound of a repeated press. */
const SHOW_MS = 2_000
const SAMPLE_MS = 50
/** Without `until`: the longest wait for the control to keep its place; a control that never does is pressed anyway, as a user would. */
const STEADY_AT_MOST_MS = 3_000

const sameBox = (a: Box, b: Box) => Math.abs(a.x - b.x) < 0.5 && Math.abs(a.y - b.y) < 0.5 && Math.abs(a.width - b.width) < 0.5 && Math.abs(a.height - b.height) < 0.5

/** The control's box on the page now, without waiting for it: null when it is gone or hidden. */
async function boxNow(control: Locator): Promise<Box | null> {
  if (!(await control.isVisible().catch(() => false))) return null
  return control.boundingBox({ timeout: 500 }).catch(() => null)
}

/** Waits until the control's box has not changed for `steadyMs` (sampled every 50 ms), for at most `atMost` ms. */
async function waitUntilSteady(control: Locator, steadyMs: number, atMost: number): Promise<void> {
  const stopAt = Date.now() + atMost
  let last = await control.boundingBox({ timeout: Math.max(1, atMost) })
  let since = Date.now()
  while (Date.now() - since < steadyMs && Date.now() < stopAt) {
    await new Promise((done) => setTimeout(done, SAMPLE_MS))
    const now = await boxNow(control)
    if (now === null) return // gone: the click reports it
    if (last === null || !sameBox(last, now)) {
      last = now
      since = Date.now()
    }
  }
}

export async function pressSteadily(control: Locator, { until, steadyMs = 300, timeout = 10_000 }: PressOptions = {}): Promise<void> {
  const deadline = Date.now() + timeout
  const left = () => Math.max(1, deadline - Date.now())
  if (!until) await waitUntilSteady(control, steadyMs, Math.min(STEADY_AT_MOST_MS, timeout / 2))
  let before = await control.boundingBox({ timeout: left() })
  await control.click({ timeout: left() })
  for (let press = 1; until; press++) {
    const after = await boxNow(control)
    if (after === null || before === null || sameBox(before, after)) return
    // It moved under the press: the press may have been lost.
    try {
      await expect(until).toBeVisible({ timeout: Math.min(SHOW_MS, left()) })
      return
    } catch (error) {
      if (press >= MAX_PRESSES || Date.now() >= deadline) throw error
    }
    // Pressed again only while the control is still there; a press that worked late (the control went, or `until`
    // showed, meanwhile) ends here.
    before = await boxNow(control)
    if (before === null) return
    try {
      await control.click({ timeout: Math.min(SHOW_MS, left()) })
    } catch (error) {
      if (await until.isVisible().catch(() => false)) return
      if ((await boxNow(control)) === null) return
      throw error
    }
  }
}
