/**
 * The harness's integration tools, driven through its accessible UI: the tools drawer
 * (openTool) and the Message inspector (HarnessInspector, `harness.inspector`).
 */
import { expect, type Locator, type Page } from '@playwright/test'
import type { Harness } from './harness.ts'

/** The tabs of the harness's integration tools drawer. */
export type ToolTab = 'Message inspector' | 'Faults' | 'Composer'

/**
 * Opens the harness's tools drawer on a tab. It waits for the page to draw the drawer's bar
 * first: right after a navigation the bar is not there yet, and a check that does not wait
 * would skip the toggle and then wait in vain for a tab of a closed drawer.
 */
export async function openTool(page: Page, tab: ToolTab): Promise<void> {
  const { show } = await toolsToggle(page)
  if (await show.isVisible()) await show.click()
  const tabButton = page.getByRole('tab', { name: tab })
  if ((await tabButton.getAttribute('aria-selected')) !== 'true') await tabButton.click()
  await expect(tabButton).toHaveAttribute('aria-selected', 'true')
}

/** The tools drawer's two toggle buttons, once the page has drawn one of them (right after a navigation neither is there yet). */
export async function toolsToggle(page: Page): Promise<{ show: Locator; hide: Locator }> {
  const show = page.getByRole('button', { name: 'Show integration tools' })
  const hide = page.getByRole('button', { name: 'Hide integration tools' })
  await expect(show.or(hide)).toBeVisible()
  return { show, hide }
}

export class HarnessInspector {
  readonly #harness: Harness
  constructor(harness: Harness) {
    this.#harness = harness
  }

  /** The inspector region. */
  get region(): Locator {
    return this.#harness.page.getByRole('region', { name: 'Message inspector' })
  }

  /** The conformance summary at the top of the inspector. */
  get summary(): Locator {
    return this.region.getByRole('region', { name: 'Conformance summary' })
  }

  /** Opens the tools drawer on the Message inspector tab. */
  async open(): Promise<void> {
    await this.#harness.openTool('Message inspector')
  }

  /** Inspector entries (labelled "<TYPE>, <direction>, #<seq>"), optionally of one type. */
  entries(type?: string): Locator {
    const list = this.region.getByRole('list', { name: 'Messages' })
    return type === undefined ? list.getByRole('listitem') : list.getByRole('listitem', { name: new RegExp(`^${escapeRegExp(type)}, `) })
  }

  /** The counter line: total messages, and how many the filters show. */
  async counts(): Promise<{ shown: number; total: number }> {
    await this.open()
    const text = (await this.region.getByText(/^\d+( of \d+)? messages/).first().textContent()) ?? ''
    const both = /^(\d+) of (\d+) messages/.exec(text)
    if (both) return { shown: Number(both[1]), total: Number(both[2]) }
    const one = /^(\d+) messages/.exec(text)
    if (!one) throw new Error(`Unexpected inspector counter: ${JSON.stringify(text)}`)
    return { shown: Number(one[1]), total: Number(one[1]) }
  }

  /** How many entries the inspector marks as problems (invalid/rejected, deprecated, faults, findings). */
  async problemCount(direction: 'both' | 'widget → host' | 'host → widget' = 'both'): Promise<number> {
    await this.open()
    const only = this.region.getByLabel('Only problems')
    const select = this.region.getByLabel('Direction')
    await only.check()
    if (direction !== 'both') await select.selectOption({ label: direction })
    try {
      return (await this.counts()).shown
    } finally {
      await only.uncheck()
      if (direction !== 'both') await select.selectOption({ label: 'Both ways' })
    }
  }

  /** The conformance findings as shown ("<severity>: <rule title>: <count>" lines, "N errors, M warnings", lifecycle findings). */
  async findings(): Promise<string[]> {
    await this.open()
    if (await this.summary.getByText('No conformance findings.').isVisible()) return []
    const lines = await this.summary.locator('li, p').allTextContents()
    return lines.map((line) => line.trim()).filter((line) => line !== '')
  }

  /** Clears the inspector (messages and findings). */
  async clear(): Promise<void> {
    await this.open()
    await this.region.getByRole('button', { name: 'Clear' }).click()
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

