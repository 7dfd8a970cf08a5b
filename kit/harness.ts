/**
 * Page object for the Ringside harness (the emulated CRM host page), driven
 * only through its accessible UI, its address (`?widget=`, `?syncTimeoutMs=`,
 * hash routes) and the emulated CRM API (fetch from the page, answered by
 * MSW). It never reaches into the harness's modules.
 */
import { expect, type Frame, type FrameLocator, type Locator, type Page } from '@playwright/test'
import { WIDGET_IFRAME, widgetHostPage, type Placement } from './placements.ts'
import { isOnThisMachine } from '../shared/url/this-machine.ts'
import { HarnessInspector, openTool, toolsToggle, type ToolTab } from './harness-tools.ts'

export { HarnessInspector, openTool, type ToolTab } from './harness-tools.ts'

/** Engagement fault modes of the Faults panel. */
export type FaultMode = 'off' | 'next' | 'always'

/** One fault, applied through the Faults panel. */
export type HarnessFault =
  | { kind: 'engagement-create'; mode: FaultMode }
  | { kind: 'engagement-update'; mode: FaultMode }
  | { kind: 'delay'; ms: number }
  | { kind: 'drop'; type: string }
  | { kind: 'duplicate'; type: string }
  | { kind: 'withhold-sync'; on: boolean }
  | { kind: 'sync-timeout'; ms: number }
  | { kind: 'reload-widget' }

export interface OpenOptions {
  /** The widget under test (absolute http(s) URL); default: the harness's configured widget. */
  widgetUrl?: string
  /** Handshake timeout of the host (`?syncTimeoutMs=`); the harness default is 30000. */
  syncTimeoutMs?: number
  /** Hash route to open, e.g. `/contacts/1` (default `/contacts`). */
  route?: string
  /** What to wait for: the harness shell (default), the finished handshake, or nothing. */
  waitFor?: 'shell' | 'handshake' | 'none'
  /** Where the harness places the widget (`?placement=`); default: the Harness's own placement. */
  placement?: Placement
  /** `full`: every record navigation is a full page load (`?navigation=full`), as in parts of the real CRM. */
  navigation?: 'in-page' | 'full'
  /** The navigation's end (Playwright's `waitUntil`; default `load`, which also waits for the widget frame's loads). */
  waitUntil?: 'load' | 'domcontentloaded' | 'commit'
}

/** A call engagement as the CRM API returns it. */
export interface CallEngagement {
  id: string
  properties: Record<string, string | null>
  associations?: Record<string, { results: Array<{ id: string; type?: string }> }>
}

const MAIN_OBJECTS: Readonly<Record<string, string>> = { contact: 'contacts', company: 'companies', deal: 'deals', ticket: 'tickets' }

/** Properties read by engagements()/readCall() unless told otherwise. */
export const CALL_PROPERTIES = [
  'hs_call_status',
  'hs_call_direction',
  'hs_call_title',
  'hs_call_body',
  'hs_call_external_id',
  'hs_call_to_number',
  'hs_call_from_number',
  'hs_call_duration',
  'hs_call_disposition',
  'hs_timestamp',
] as const

interface ApiResult {
  status: number
  body: unknown
}


export interface HarnessOptions {
  /** Widget loaded by open() when it is given no widgetUrl (default: the harness's own setting). */
  defaultWidgetUrl?: string
  /** Called by open() with the widget URL it loads (the kit's message log follows it). */
  onOpen?(widgetUrl: string | undefined): void
  /** Where open() asks the harness to place the widget (`?placement=`, default `widget`). */
  placement?: Placement
}

export class Harness {
  readonly page: Page
  readonly inspector: HarnessInspector
  readonly #options: HarnessOptions
  /** Undefined: open() leaves the placement to the harness (its settings), which is `widget` unless changed. */
  #placement: Placement | undefined
  /** The calling window, once the harness opened it (window placement). */
  #popup: Promise<Page> | null = null
  /** A widget URL off this machine that the calling window still has to be told to load (see open()). */
  #confirmInWindow = false
  /** The page that holds the widget's iframe (see placements.ts). */
  #host: Page

  constructor(page: Page, options: HarnessOptions = {}) {
    this.page = page
    this.inspector = new HarnessInspector(this)
    this.#options = options
    this.#placement = options.placement
    this.#host = page
  }

  /** Where the widget is placed. */
  get placement(): Placement {
    return this.#placement ?? 'widget'
  }

  /** The page that holds the widget: the harness page, or the calling window (waits for it). */
  async widgetPage(timeout = 15_000): Promise<Page> {
    this.#host = await widgetHostPage(this.page, this.placement, this.#popup, timeout)
    if (this.#confirmInWindow && this.#host !== this.page) {
      this.#confirmInWindow = false
      await this.#host.getByRole('button', { name: 'Load this widget' }).click({ timeout })
    }
    return this.#host
  }

  /** The header's calling status ("Widget ready", "Logged in", …). */
  get statusBadge(): Locator {
    return this.page.getByRole('group', { name: 'Calling status' })
  }

  /** The dock's handshake pill ("Handshake ready", "Handshake failed: SYNC_ACK_FAILED (timeout)", …). */
  get handshakeStatus(): Locator {
    return this.page.getByRole('status').filter({ hasText: /^Handshake / })
  }

  /** The widget iframe (the CRM's id for it). */
  get widgetIframe(): Locator {
    return this.#host.locator(WIDGET_IFRAME)
  }

  /** The widget's frame, for locators (in the calling window once widgetPage() or widgetFrame() found it). */
  get widget(): FrameLocator {
    return this.#host.frameLocator(WIDGET_IFRAME)
  }

  /** The widget iframe's Frame, for evaluate() (waits for the iframe to exist, in its placement). */
  async widgetFrame(timeout = 10_000): Promise<Frame> {
    await this.widgetPage(timeout + 5_000)
    const handle = await this.widgetIframe.elementHandle({ timeout })
    const frame = await handle?.contentFrame()
    if (!frame) throw new Error('The widget iframe has no frame (is the widget loaded?)')
    return frame
  }

  /** Loads the harness with the widget under test. */
  async open(options: OpenOptions = {}): Promise<void> {
    const widgetUrl = options.widgetUrl ?? this.#options.defaultWidgetUrl
    this.#options.onOpen?.(widgetUrl)
    const query = new URLSearchParams()
    if (widgetUrl !== undefined) query.set('widget', widgetUrl)
    if (options.syncTimeoutMs !== undefined) query.set('syncTimeoutMs', String(options.syncTimeoutMs))
    this.#placement = options.placement ?? this.#placement
    if (this.#placement !== undefined) query.set('placement', this.#placement)
    if (options.navigation !== undefined) query.set('navigation', options.navigation)
    const search = query.toString()
    const route = options.route ?? '/contacts'
    this.#host = this.page
    this.#popup = null
    if (this.#placement === 'window') {
      const popup = this.page.waitForEvent('popup', { timeout: 60_000 })
      popup.catch(() => undefined)
      this.#popup = popup
    }
    await this.page.goto(`/${search ? `?${search}` : ''}#${route.startsWith('/') ? route : `/${route}`}`, { waitUntil: options.waitUntil ?? 'load' })
    const waitFor = options.waitFor ?? 'shell'
    if (waitFor === 'none') return
    await expect(this.statusBadge).toBeVisible({ timeout: 15_000 })
    // The harness loads a ?widget= URL off this machine only once the person at it says so: the kit is that person,
    // where the widget runs (the page's dock; in the window placement also the calling window, which asks when it
    // opens, besides the record page's remote).
    const confirm = widgetUrl !== undefined && !isOnThisMachine(widgetUrl)
    this.#confirmInWindow = confirm && this.#placement === 'window'
    if (confirm) await this.page.getByRole('button', { name: 'Load this widget' }).click({ timeout: 15_000 })
    if (waitFor === 'handshake') {
      if (this.#confirmInWindow) await this.widgetPage()
      await this.waitForHandshake()
    }
  }

  /** Waits until the host's handshake with the widget succeeded. */
  async waitForHandshake(timeout = 15_000): Promise<void> {
    await expect(this.statusBadge).toContainText('Widget ready', { timeout })
  }

  /** Opens a record page (`contact`/`contacts`, `company`, `deal`, `ticket`) without reloading the harness. */
  async openRecord(type: string, id: string | number): Promise<void> {
    const plural = MAIN_OBJECTS[type] ?? type
    await this.page.evaluate((hash) => {
      window.location.hash = hash
    }, `/${plural}/${encodeURIComponent(String(id))}`)
    // A record page: its breadcrumb links back to the list, its title is the record's name.
    await expect(this.page.locator('main .breadcrumb').getByRole('link', { name: capitalize(plural) })).toBeVisible()
    await expect(this.page.getByRole('main').getByRole('heading', { level: 1 })).toBeVisible()
  }

  /**
   * Presses a Call button of the open record page: the one for `phone`
   * (as displayed, e.g. "+1 617 555 0101") or the first one.
   */
  async pressCall(phone?: string): Promise<void> {
    const button = phone === undefined ? this.page.getByRole('button', { name: /^Call \+?\d/ }).first() : this.page.getByRole('button', { name: `Call ${phone}`, exact: true })
    await expect(button).toBeEnabled()
    await button.click()
  }

  /** Opens the tools drawer on a tab. */
  async openTool(tab: ToolTab): Promise<void> {
    await openTool(this.page, tab)
  }

  /** Closes the tools drawer (inspector, faults, composer), if open. */
  async closeTools(): Promise<void> {
    const { show, hide } = await toolsToggle(this.page)
    if (await hide.isVisible()) await hide.click()
    await expect(show).toBeVisible()
  }

  /** Applies a fault through the Faults panel, as a user would. */
  async injectFault(fault: HarnessFault): Promise<void> {
    await this.openTool('Faults')
    const panel = this.page.getByRole('region', { name: 'Faults' })
    switch (fault.kind) {
      case 'engagement-create':
      case 'engagement-update': {
        const legend = fault.kind === 'engagement-create' ? 'Engagement creation' : 'Engagement update (CALL_COMPLETED)'
        const label = { off: 'Off', next: 'Fail the next one', always: 'Fail every one' }[fault.mode]
        await panel.getByRole('group', { name: legend }).getByRole('radio', { name: label }).check()
        return
      }
      case 'delay':
        await panel.getByLabel('Delay host messages (ms)').fill(String(fault.ms))
        await panel.getByRole('button', { name: 'Apply delay' }).click()
        await expect(panel.getByText(`Current: ${fault.ms} ms`)).toBeVisible()
        return
      case 'drop':
      case 'duplicate': {
        const group = panel.getByRole('group', { name: fault.kind === 'drop' ? 'Drop host messages' : 'Duplicate host messages' })
        await group.getByLabel('Message type').selectOption(fault.type)
        await group.getByRole('button', { name: fault.kind === 'drop' ? 'Drop this type' : 'Duplicate this type' }).click()
        return
      }
      case 'withhold-sync': {
        const box = panel.getByRole('checkbox', { name: /Withhold SYNC/ })
        if (fault.on) await box.check()
        else await box.uncheck()
        return
      }
      case 'sync-timeout':
        await panel.getByLabel('Sync timeout (ms)').fill(String(fault.ms))
        await panel.getByRole('button', { name: 'Apply and reload widget' }).click()
        return
      case 'reload-widget':
        await panel.getByRole('button', { name: 'Reload widget now (mid-call)' }).click()
        return
    }
  }

  /** A request to the emulated CRM API from the harness page (MSW answers), with the private-app token. */
  async api(path: string, init: { method?: string; body?: unknown } = {}): Promise<ApiResult> {
    return this.page.evaluate(
      async ({ path, method, body }) => {
        const response = await fetch(path, {
          method,
          headers: { authorization: 'Bearer pat-local', ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        })
        const text = await response.text()
        let parsed: unknown = text
        try {
          parsed = text === '' ? null : (JSON.parse(text) as unknown)
        } catch {
          // not JSON: keep the text
        }
        return { status: response.status, body: parsed }
      },
      { path, method: init.method ?? 'GET', body: init.body },
    )
  }

  /** Every call engagement in the CRM (all pages), optionally only those of one externalCallId. */
  async engagements(filter: { externalCallId?: string } = {}): Promise<CallEngagement[]> {
    const found: CallEngagement[] = []
    let after: string | undefined
    for (let page = 0; page < 100; page++) {
      const query = new URLSearchParams({ limit: '100', properties: CALL_PROPERTIES.join(',') })
      if (after !== undefined) query.set('after', after)
      const { status, body } = await this.api(`/crm/v3/objects/calls?${query.toString()}`)
      if (status !== 200) throw new Error(`Listing calls failed with ${status}: ${JSON.stringify(body)}`)
      const result = body as { results: CallEngagement[]; paging?: { next?: { after?: string } } }
      found.push(...result.results)
      after = result.paging?.next?.after
      if (after === undefined) break
    }
    return filter.externalCallId === undefined ? found : found.filter((c) => c.properties.hs_call_external_id === filter.externalCallId)
  }

  /** One call engagement with its contact and company associations, or null if it does not exist. */
  async readCall(id: string | number, properties: readonly string[] = CALL_PROPERTIES): Promise<CallEngagement | null> {
    const query = new URLSearchParams({ properties: properties.join(','), associations: 'contacts,companies' })
    const { status, body } = await this.api(`/crm/v3/objects/calls/${encodeURIComponent(String(id))}?${query.toString()}`)
    if (status === 404) return null
    if (status !== 200) throw new Error(`Reading call ${id} failed with ${status}: ${JSON.stringify(body)}`)
    return body as CallEngagement
  }
}

function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}
