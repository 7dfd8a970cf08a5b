/**
 * pressSteadily against a page whose button moves under the press, the way a
 * widget's frame moves when the host applies its RESIZE_WIDGET.
 */
import { expect, test, type Page } from '@playwright/test'
import { pressSteadily } from '../../kit/press.ts'

/** A button that jumps 40 px down at its first mouse-down, before the mouse-up; `#done` shows once it is clicked. */
const JUMPS_AT_FIRST_PRESS = `
  <div style="padding: 40px"><div id="slot" style="height: 0"></div>
  <button id="b" style="height: 34px; width: 200px">Call</button><p id="done" hidden>Calling</p></div>
  <script>{
    let jumped = false
    b.addEventListener('pointerdown', () => { if (!jumped) { jumped = true; slot.style.height = '40px' } })
    b.addEventListener('click', () => { window.clicks = (window.clicks || 0) + 1; done.hidden = false })
  }</script>`

test('a press the button moved under is lost with a plain click, and pressed again until it shows', async ({ page }) => {
  await page.setContent(JUMPS_AT_FIRST_PRESS)
  // The lost press the helper exists for: mouse-down on the button, mouse-up below it, no click.
  await page.getByRole('button', { name: 'Call' }).click()
  await expect(page.getByText('Calling')).toBeHidden()
  expect(await page.evaluate(() => (window as unknown as { clicks?: number }).clicks ?? 0)).toBe(0)

  await page.setContent(JUMPS_AT_FIRST_PRESS)
  await pressSteadily(page.getByRole('button', { name: 'Call' }), { until: page.getByText('Calling') })
  await expect(page.getByText('Calling')).toBeVisible()
  expect(await page.evaluate(() => (window as unknown as { clicks?: number }).clicks)).toBe(1)
})

test('a button that did not move is pressed once, even when nothing shows', async ({ page }) => {
  await page.setContent(`<button id="b">Save</button><script>b.onclick = () => { window.clicks = (window.clicks || 0) + 1 }</script>`)
  await pressSteadily(page.getByRole('button', { name: 'Save' }), { until: page.getByText('never shown') })
  expect(await page.evaluate(() => (window as unknown as { clicks?: number }).clicks)).toBe(1)
})

/** A button that moves down 2 px every 100 ms (on timers, as a host applying sizes moves a frame) 20 times, then stays. */
const MOVES_ON_TIMERS = `
  <div id="slot" style="height: 0"></div><button id="b">Dial</button>
  <script>{
    let moves = 0
    const step = () => { moves += 1; window.moves = moves; slot.style.height = (2 * moves) + 'px'; window.lastMove = performance.now(); if (moves < 20) setTimeout(step, 100) }
    setTimeout(step, 100)
    b.onclick = () => { window.clickedAt = performance.now() }
  }</script>`

const clickAndLastMove = (page: Page) =>
  page.evaluate(() => {
    const w = window as unknown as { lastMove: number; clickedAt: number; moves: number }
    return { lastMove: w.lastMove, clickedAt: w.clickedAt, moves: w.moves }
  })

test('without `until`, the press waits for the button to keep its place', async ({ page }) => {
  // Playwright's own click waits only for two animation frames without a move: it presses between two moves.
  await page.setContent(MOVES_ON_TIMERS)
  await page.getByRole('button', { name: 'Dial' }).click()
  await expect.poll(async () => (await clickAndLastMove(page)).moves).toBe(20)
  const plain = await clickAndLastMove(page)
  expect(plain.clickedAt).toBeLessThan(plain.lastMove)

  await page.setContent(MOVES_ON_TIMERS)
  await pressSteadily(page.getByRole('button', { name: 'Dial' }), { steadyMs: 300 })
  const steady = await clickAndLastMove(page)
  expect(steady.moves).toBe(20)
  expect(steady.clickedAt).toBeGreaterThan(steady.lastMove)
})
