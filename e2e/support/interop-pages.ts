import { expect, type Frame, type Page } from '@playwright/test'
import { ORIGINS } from '../origins.ts'

/** URL of `e2e/fixtures/<name>/` on `origin`, with a query string. */
export function fixtureUrl(origin: string, name: string, query: Record<string, string> = {}): string {
  const search = new URLSearchParams(query).toString()
  return `${origin}/e2e/fixtures/${name}/${search ? `?${search}` : ''}`
}

export interface InteropPage {
  readonly widget: Frame
  /** The hostile frame, when `hostile: true`. */
  readonly hostile: Frame | null
}

export interface InteropOptions {
  host: 'sdk-host' | 'plain-host'
  widget: 'npm-widget' | 'sdk-widget'
  /** Extra query parameters of the host page (e.g. `sync: 'manual'`). */
  hostQuery?: Record<string, string>
  /** Embed the hostile fixture (third origin) next to the widget. */
  hostile?: boolean
}

/** The frame of `page` loaded from `origin` (waits until it is attached). */
export async function frameFrom(page: Page, origin: string): Promise<Frame> {
  const find = () => page.frames().find((frame) => frame.url().startsWith(`${origin}/`))
  await expect.poll(() => find() !== undefined, { message: `a frame from ${origin}` }).toBe(true)
  const frame = find()
  if (!frame) throw new Error(`no frame from ${origin}`)
  return frame
}

/**
 * Opens a host fixture on the test pages origin with a widget fixture from the
 * test widgets origin (and optionally the hostile fixture from a third origin),
 * and waits until their scripts have run.
 */
export async function openInterop(page: Page, options: InteropOptions): Promise<InteropPage> {
  const query: Record<string, string> = { ...options.hostQuery, widget: fixtureUrl(ORIGINS.testWidgets, options.widget) }
  if (options.hostile) query.hostile = fixtureUrl(ORIGINS.hostile, 'hostile')
  await page.goto(fixtureUrl(ORIGINS.testPages, options.host, query))
  const widget = await frameFrom(page, ORIGINS.testWidgets)
  await widget.waitForFunction(() => '__call' in window)
  let hostile: Frame | null = null
  if (options.hostile) {
    hostile = await frameFrom(page, ORIGINS.hostile)
    await hostile.waitForFunction(() => '__attack' in window)
  }
  return { widget, hostile }
}
