/**
 * Entry point of the harness page.
 *
 * zod must be told not to compile schemas with `new Function` before any
 * schema exists (see lib/security/zod-jitless.ts). Static imports are evaluated
 * before this module's body and the bundler may move them into shared
 * chunks that run first, so everything else is loaded with a dynamic import,
 * after the setting is in place.
 */
import { turnOffZodJit } from './lib/security/zod-jitless.ts'

turnOffZodJit()

import('./start.tsx')
  .then(({ start }) => start())
  .catch((error: unknown) => {
    // React may be what failed to load: report with the DOM alone.
    const root = document.getElementById('root')
    if (!root) return
    const message = document.createElement('p')
    message.setAttribute('role', 'alert')
    message.textContent = `The harness failed to load: ${error instanceof Error ? error.message : String(error)}`
    root.replaceChildren(message)
  })
