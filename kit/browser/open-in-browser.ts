/**
 * Opens a URL or a file in the user's browser with the platform's own opener
 * (`open` on macOS, `start` on Windows, `xdg-open` elsewhere), and never
 * fails a command for it: with no desktop to open it on (CI, a container, an
 * SSH session without a display) or no opener, it says so and names what to
 * open instead.
 */
import { spawn } from 'node:child_process'

export interface OpenResult {
  opened: boolean
  /** Why it was not opened. */
  reason?: string
}

/** Why there is nowhere to open a browser, or null when there may be a desktop. */
export function noDesktop(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform): string | null {
  if (env.CI && env.CI !== 'false' && env.CI !== '0') return 'running in CI'
  if (platform === 'darwin' || platform === 'win32') return null
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return 'no desktop (neither DISPLAY nor WAYLAND_DISPLAY is set)'
  return null
}

/**
 * Starts the opener and waits at most `waitMs` for it to fail early (a
 * missing opener, or one that exits non-zero at once); it is left running
 * otherwise, detached from this process.
 */
export async function openInBrowser(target: string, options: { waitMs?: number; env?: NodeJS.ProcessEnv } = {}): Promise<OpenResult> {
  const why = noDesktop(options.env)
  if (why !== null) return { opened: false, reason: why }
  const [command, args] = process.platform === 'darwin' ? ['open', [target]] : process.platform === 'win32' ? ['cmd', ['/c', 'start', '', target]] : ['xdg-open', [target]]
  return new Promise((done) => {
    const child = spawn(command as string, args as string[], { stdio: 'ignore', detached: true })
    const timer = setTimeout(() => {
      child.unref()
      done({ opened: true })
    }, options.waitMs ?? 1_000)
    child.on('error', (error) => {
      clearTimeout(timer)
      done({ opened: false, reason: `${command} could not run (${error.message})` })
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      done(code === 0 ? { opened: true } : { opened: false, reason: `${command} exited with code ${code}` })
    })
  })
}
