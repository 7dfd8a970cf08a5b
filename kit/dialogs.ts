/**
 * alert(), confirm(), prompt() and beforeunload dialogs of a journey's pages.
 * Playwright dismisses dialogs by itself only while nobody listens for them;
 * the kit listens, so it answers them itself: each is counted, and the first
 * MAX_DIALOGS are dismissed (a beforeunload one accepted, so a page can be left).
 * A page that loops on alert() would keep the run answering dialogs for as long
 * as it runs, so the next one is left open: it stops that page's scripts (as a
 * real dialog stops a CRM page until the user closes it), and the journey's
 * bounds (shared/waits.ts) end the step it hangs.
 */
import type { BrowserContext, Dialog } from '@playwright/test'

export const MAX_DIALOGS = 20
const clip = (text: string) => (text.length > 80 ? `${text.slice(0, 80)}…` : text)

export interface Dialogs {
  /** How many dialogs opened. */
  count(): number
  /** The finding, or null when no dialog opened. */
  sentence(): string | null
}

export function answerDialogs(context: BrowserContext): Dialogs {
  let count = 0
  let first: string | null = null
  context.on('dialog', (dialog: Dialog) => {
    count += 1
    first ??= `${dialog.type()} ${JSON.stringify(clip(dialog.message()))}`
    if (count > MAX_DIALOGS) return
    void (dialog.type() === 'beforeunload' ? dialog.accept() : dialog.dismiss()).catch(() => undefined)
  })
  return {
    count: () => count,
    sentence: () => {
      if (count === 0) return null
      const opened = `a page of the journey opened ${count} dialog${count === 1 ? '' : 's'} (the first: ${first})`
      if (count <= MAX_DIALOGS) return `${opened}; the kit dismissed ${count === 1 ? 'it' : 'them'}, and a CRM page would wait for the user to close each`
      return `${opened}; the kit dismissed ${MAX_DIALOGS} and left the next one open, which stops that page's scripts as it would stop a CRM page`
    },
  }
}
