/**
 * Where the harness places the widget, as the CRM does (the calling settings'
 * `usesCallingWindow` and `usesRemote`, and the user's choice):
 *
 * - `widget`: the docked widget on the record page;
 * - `remote`: the remote under the navigation bar;
 * - `window`: the calling window, a separate browser window that the CRM
 *   page opens (window.open) and that holds the call while the page
 *   navigates.
 *
 * The harness takes `?placement=` in its URL for one page load. A check run
 * covers one placement or all three: one Playwright project each, named
 * "<placement> placement".
 */
import type { Page } from '@playwright/test'

export const PLACEMENTS = ['widget', 'remote', 'window'] as const
export type Placement = (typeof PLACEMENTS)[number]

export const isPlacement = (value: unknown): value is Placement => (PLACEMENTS as readonly unknown[]).includes(value)

/**
 * `--placement` (and $WIDGET_PLACEMENT): one placement, a comma-separated
 * list, or `all`. The placements in order, or the sentence saying what is wrong.
 */
export function parsePlacementOption(value: string | undefined): Placement[] | string {
  const raw = (value ?? '').trim()
  if (raw === '') return ['widget']
  if (raw === 'all') return [...PLACEMENTS]
  const parts = raw.split(',').map((part) => part.trim())
  const wrong = parts.filter((part) => !isPlacement(part))
  if (wrong.length > 0) return `--placement ${JSON.stringify(raw)}: ${wrong.map((w) => JSON.stringify(w)).join(', ')} is not a placement; use ${PLACEMENTS.join(', ')} or all`
  return PLACEMENTS.filter((placement) => parts.includes(placement))
}

export const projectName = (placement: Placement) => `${placement} placement`

/** The Playwright projects of a check run: one per placement of $WIDGET_PLACEMENT (default: widget). */
export function placementProjects(env: NodeJS.ProcessEnv = process.env): Array<{ name: string; use: { placement: Placement } }> {
  const placements = parsePlacementOption(env.WIDGET_PLACEMENT)
  if (typeof placements === 'string') throw new Error(placements)
  return placements.map((placement) => ({ name: projectName(placement), use: { placement } }))
}

/** The placement of the running test's project (`use.placement`), default `widget`. */
export function placementOf(use: object): Placement {
  const value = (use as { placement?: unknown }).placement
  return isPlacement(value) ? value : 'widget'
}

/** The CRM's id for the widget's iframe, in every placement. */
export const WIDGET_IFRAME = '#hubspot-calling-extension-iframe'

/**
 * THE lookup of the widget: the page that holds the widget's iframe in a
 * placement. `widget` and `remote` are layouts of the harness page itself;
 * `window` is the calling window the harness page opened (`popup`, caught by
 * Harness.open()). Every part of the kit finds the widget through this.
 */
export async function widgetHostPage(page: Page, placement: Placement, popup: Promise<Page> | null, timeoutMs = 15_000): Promise<Page> {
  if (placement !== 'window') return page
  if (popup === null) throw new Error('The calling window was not awaited: open the harness with Harness.open() in the window placement')
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`The harness opened no calling window (window.open) within ${timeoutMs / 1000} s of ?placement=window; the widget cannot be checked in the window placement`)),
      timeoutMs,
    )
  })
  try {
    return await Promise.race([popup, timeout])
  } finally {
    clearTimeout(timer)
  }
}
