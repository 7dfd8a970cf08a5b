/**
 * Opens a self-contained HTML report from disk (file://) as a reviewer would,
 * with the network cut: every request but the report file itself is aborted
 * and recorded, and so is every Content-Security-Policy violation, every
 * dialog and every script a hostile text might manage to run (the usual
 * alert/confirm/prompt are replaced by recorders before the report loads).
 */
import { pathToFileURL } from 'node:url'
import type { Browser, BrowserContext, Page } from '@playwright/test'

export interface OfflineReport {
  context: BrowserContext
  page: Page
  /** Requests the page attempted (all aborted). */
  attempted: () => string[]
  /** Dialogs, CSP violations and calls of alert/confirm/prompt. */
  ran: () => Promise<string[]>
}

export async function openReportOffline(browser: Browser, file: string): Promise<OfflineReport> {
  const url = pathToFileURL(file).href
  const context = await browser.newContext()
  const attempted: string[] = []
  const dialogs: string[] = []
  await context.route('**', (route) => {
    if (route.request().url() === url) return route.continue()
    attempted.push(route.request().url())
    return route.abort('internetdisconnected')
  })
  await context.addInitScript(() => {
    const w = window as unknown as { __ran: string[] }
    w.__ran = []
    document.addEventListener('securitypolicyviolation', (e) => w.__ran.push(`CSP: ${e.violatedDirective} ${e.blockedURI}`))
    const fired = (name: string) => () => void w.__ran.push(name)
    window.alert = fired('alert')
    window.confirm = () => (fired('confirm')(), false)
    window.prompt = () => (fired('prompt')(), null)
  })
  const page = await context.newPage()
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message())
    void dialog.dismiss()
  })
  page.on('request', (request) => {
    if (request.url() !== url && !request.url().startsWith('data:') && !attempted.includes(request.url())) attempted.push(request.url())
  })
  await page.goto(url)
  return {
    context,
    page,
    attempted: () => [...attempted],
    ran: async () => [...dialogs.map((d) => `dialog: ${d}`), ...(await page.evaluate(() => (window as unknown as { __ran: string[] }).__ran))],
  }
}
