/**
 * Which Chromium the package's Playwright runs use: $CHROMIUM_PATH, else
 * Playwright's own download (`npx playwright install chromium`), else a
 * system Chromium on the PATH or in the usual places; null when none exists.
 *
 * This module does not import @playwright/test (an optional peer): the
 * caller that has it passes Playwright's own executable path.
 */
import { existsSync } from 'node:fs'
import { delimiter, join } from 'node:path'

const SYSTEM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable']
const SYSTEM_PATHS = ['/Applications/Chromium.app/Contents/MacOS/Chromium', '/Applications/Google Chrome.app/Contents/MacOS/Google Chrome']

/** `playwrightExecutable`: Playwright's `chromium.executablePath`, when @playwright/test is loaded. */
export function findChromium(env: NodeJS.ProcessEnv = process.env, playwrightExecutable?: () => string): string | null {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : null
  try {
    const own = playwrightExecutable?.()
    if (own && existsSync(own)) return own
  } catch {
    // Playwright has no browser of its own here.
  }
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    for (const name of SYSTEM_NAMES) if (dir && existsSync(join(dir, name))) return join(dir, name)
  }
  return SYSTEM_PATHS.find((path) => existsSync(path)) ?? null
}

export const NO_CHROMIUM =
  'no Chromium found. Set CHROMIUM_PATH to a Chromium or Chrome binary, run `npx playwright install chromium`, or install your system\'s chromium package.'
