/**
 * Entry point of the consent page. zod must not compile schemas with
 * `new Function` under this page's CSP (no 'unsafe-eval'), and it reads that
 * setting when schemas are built, so it is set here first and the page itself
 * (whose imports build schemas) is loaded afterwards with a dynamic import.
 */
import { z } from 'zod'

z.config({ jitless: true })

import('./consent-page.ts')
  .then(async ({ start, showStartupError }) => {
    await start().catch(showStartupError)
  })
  .catch((error: unknown) => {
    const root = document.querySelector('#consent')
    if (root) root.textContent = `The consent page failed to load: ${error instanceof Error ? error.message : String(error)}`
  })
