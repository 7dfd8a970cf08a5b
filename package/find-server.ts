/**
 * Which emulator a data command (`ringside export`, `import`, `reset`, `open`)
 * works on, found by itself: --url when given; else the running server that
 * holds the data location (--data, default `.ringside`, as `ringside start`),
 * which says where it answers in the folder (emulator/node/storage/data-owner.ts); else, for
 * the commands that can, the location's files directly.
 */
import { existsSync } from 'node:fs'
import { relative } from 'node:path'
import { runningServer } from '../emulator/node/storage/data-owner.ts'
import { DEFAULT_DATA } from '../emulator/node/start-options.ts'
import { dataPaths } from '../emulator/node/storage/data-folder.ts'

export type Target = { url: string; data?: undefined; found?: string } | { url?: undefined; data: string } | { problem: string }

/**
 * Where to send the command. `files` says whether it may work on the data
 * location's files when no server holds it (export, import and reset can; open needs a server).
 */
export function findTarget(options: { url?: string; data?: string }, files: boolean): Target {
  if (options.url !== undefined) return { url: options.url }
  const location = options.data ?? DEFAULT_DATA
  const paths = dataPaths(location)
  const shown = relative(process.cwd(), paths.location) || '.'
  const server = runningServer(paths)
  if (server?.url) return { url: new URL(server.url).origin, found: `the server of ${shown}, pid ${server.pid}` }
  if (server) return { problem: `${shown} is in use by a Ringside server (pid ${server.pid}) that does not say where it answers (an older build): pass --url <its URL>.` }
  if (files && (options.data !== undefined || existsSync(paths.location))) return { data: location }
  const where = options.data === undefined ? `the data location ${shown} (the default; --data names another)` : shown
  return {
    problem: `no Ringside server holds ${where}${files ? ', and there is no data there' : ''}: start one with \`ringside start${options.data === undefined ? '' : ` --data ${location}`}\`, or pass --url <the URL of a running one>.`,
  }
}
