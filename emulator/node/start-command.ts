/**
 * `npm start [-- options]`: parse the flags (commander), start the server,
 * print where everything is, and stop cleanly on SIGINT/SIGTERM.
 */
import { Command } from 'commander'
import { relative } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { ACCOUNT } from '../core/index.ts'
import { SERVER_PATHS } from '../core/index.ts'
import { SERVED_PREFIX } from '../../shared/sdk-cdn/cdn-urls.ts'
import { harnessCallbackUrl } from '../../shared/crm/redirect-urls.ts'
import { PACKAGE_VERSION, REPO_ROOT } from './package-info.ts'
import { StartupError, startRingside, type RingsideServer } from './server.ts'
import { addStartOptions, DEFAULT_DATA, type CliOptions } from './start-options.ts'
import { refusedPortSentence, START_PORT_ROLES } from './bad-ports.ts'
import { DataInUseError, StorageError } from './storage/data-folder.ts'
import { nameOfWidget } from './pages/widget-page.ts'
import { waitMs, waitSentence } from '../../shared/waits.ts'

export type { CliOptions }

export function buildCommand(): Command {
  return addStartOptions(
    new Command('ringside').description(
      'Runs the emulated CRM as one local server: the harness pages and the CRM API on one origin, the reference widget on the next port,\n' +
        'one database on disk shared by every page, your widget backend, curl and @hubspot/api-client.',
    ),
    { defaultData: relative(process.cwd(), `${REPO_ROOT}/${DEFAULT_DATA}`) || DEFAULT_DATA, packaged: false },
  )
}


/** What `npm start` prints once it listens: where everything is (every URL in it answers), and the credentials. */
export function startupBanner(server: RingsideServer, options: Pick<CliOptions, 'fresh' | 'import' | 'exportOnExit'>): string {
  const out: string[] = []
  const row = (label: string, value: string) => out.push(`  ${label.padEnd(22)} ${value}`)
  out.push('', '  Ringside: the emulated CRM, one server for every client on this machine', '')
  row('Harness + CRM API', server.url)
  row('Widget origin', `${server.widgetOrigin}/   (registered widget: ${server.widgetUrl})`)
  row('Calling SDK (CDN URL)', `${server.url}sdk/${PACKAGE_VERSION}/calling-extensions.js   (.umd.js for a <script> tag; latest/ too)`)
  row('npm SDK (jsDelivr URL)', `${server.url.slice(0, -1)}${SERVED_PREFIX}@latest/dist/main.js   (0.9.x; \`ringside open\` answers the CDN URLs with it)`)
  row('Change stream (SSE)', `${server.url.slice(0, -1)}${SERVER_PATHS.changes}`)
  const storage = server.storage
  if (storage) {
    const what = options.fresh
      ? 'started fresh from the seed'
      : server.loaded
        ? `loaded the snapshot (${server.loaded.snapshotRows} rows) and ${server.loaded.journalEntries} journal entr${server.loaded.journalEntries === 1 ? 'y' : 'ies'} in ${(server.loaded.ms / 1000).toFixed(1)} s`
        : 'new: seeded'
    row('Data', `${storage.paths.location}  (${what}${options.import ? `, then imported ${options.import}` : ''})`)
  }
  row('CORS', server.corsOrigins.length > 0 ? `allowed for ${server.corsOrigins.join(', ')}` : 'none, like the real API (--cors to allow the widget origin)')
  if (options.exportOnExit) row('Export on exit', options.exportOnExit)
  out.push('', '  Credentials (also GET /_ringside/v1/account)')
  row('  Private app token', `${ACCOUNT.privateAppToken}   header  Authorization: Bearer ${ACCOUNT.privateAppToken}`)
  row('  Developer API key', `${ACCOUNT.developerApiKey}   query   ?hapikey=${ACCOUNT.developerApiKey}`)
  row('  OAuth client id', ACCOUNT.clientId)
  row('  OAuth client secret', ACCOUNT.clientSecret)
  row('  OAuth redirect URLs', `${harnessCallbackUrl(server.url.slice(0, -1))} and the registered ones (Developer → OAuth, --redirect-url)`)
  row('  App id', String(ACCOUNT.appId))
  row('  Hub id (portal)', `${ACCOUNT.hubId}  (${ACCOUNT.hubDomain}, user ${ACCOUNT.userEmail})`)
  out.push('', `  Try: curl -H 'authorization: Bearer ${ACCOUNT.privateAppToken}' '${server.url}crm/v3/objects/contacts?limit=2'`)
  out.push('  Stop with Ctrl+C.', '')
  return out.join('\n')
}

function printStartup(server: RingsideServer, options: CliOptions): void {
  console.log(startupBanner(server, options))
  for (const note of server.notes) console.log(`  ${note}`)
  for (const warning of server.warnings) console.warn(`  Warning: ${warning}`)
}

export async function main(argv: string[] = process.argv): Promise<void> {
  const command = buildCommand()
  command.parse(argv)
  await runStart(command.opts<CliOptions>())
}

/**
 * How far V8 lets the heap grow past what the last full collection found
 * live before it collects again, in percent. V8's own choice for a process
 * whose collections are cheap is up to four times the live size, so a server
 * that holds 100,000 records (about 60 MB live) could sit on well over
 * 100 MB of garbage and its resident size would hang on the timing of the
 * last collection. At 1.5 times, the server collects more often (a full
 * collection at 100k contacts takes some 50-150 ms, most of it marking in
 * steps between requests) and its resident size follows its data. No limit
 * is set: the heap grows as far as the data needs. A `--heap-growing-percent`
 * given to node on the command line wins.
 */
const HEAP_GROWING_PERCENT = 50

/** The server process's heap growth (see HEAP_GROWING_PERCENT); read by V8 at each full collection, so it holds from now on. */
function collectEarlier(): void {
  if (process.execArgv.some((arg) => /^--heap[-_]growing[-_]percent\b/.test(arg))) return
  setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`)
}

/** Start the server with parsed options, print where everything is, stop on SIGINT/SIGTERM. Exits 1 when it cannot start. */
export async function runStart(options: CliOptions, onStarted?: (server: RingsideServer) => void): Promise<void> {
  collectEarlier()
  const port = options.port
  // API clients work on any port; a browser would not load the harness or the widget there.
  const refused = refusedPortSentence(port, START_PORT_ROLES)
  if (refused !== null) console.warn(`ringside: warning: ${refused} The API still answers there; a browser will not load that origin.`)
  const widgetUrl = options.widget
  let corsOrigins: string[] = []
  if (options.cors === true) corsOrigins = [new URL(widgetUrl ?? `http://127.0.0.1:${port + 1}/`).origin]
  else if (Array.isArray(options.cors)) corsOrigins = options.cors

  let server: RingsideServer
  try {
    server = await startRingside({
      port,
      host: options.host,
      ...(options.allowedHost && { allowedHosts: options.allowedHost }),
      data: options.data,
      fresh: options.fresh ?? false,
      ...(widgetUrl && { widgetUrl, widgetName: options.widgetName?.trim() || (await nameOfWidget(widgetUrl, { timeoutMs: waitMs('widget-name', process.env), warn: (sentence) => console.warn(`ringside: warning: ${sentence}`) })) }),
      ...(options.import && { importFile: options.import }),
      ...(options.redirectUrl && { redirectUrls: options.redirectUrl }),
      corsOrigins,
      ...(options.frameAncestor && { frameAncestors: options.frameAncestor }),
      pages: !options.pages ? 'none' : options.dist ? 'dist' : 'vite',
      sandboxes: options.sandboxes ?? false,
      maxSandboxes: options.maxSandboxes,
      compactEvery: options.compactEvery,
    })
  } catch (error) {
    if (error instanceof StartupError || error instanceof StorageError) {
      console.error(`ringside: ${error.message}`)
      if (error instanceof StorageError && !(error instanceof DataInUseError)) console.error('ringside: the data files were left as they are. Move them aside, or start with --fresh (moves them aside as *.previous) or --data <another location>.')
      process.exit(1)
    }
    throw error
  }
  printStartup(server, options)
  onStarted?.(server)

  let stopping = false
  const stop = async (signal: string) => {
    if (stopping) return
    stopping = true
    let code = 0
    // Whatever holds the close up, the process ends within the `stop` bound with the lock released.
    const deadline = waitMs('stop', process.env)
    setTimeout(() => {
      server.storage?.releaseLockSync()
      console.error(`ringside: ${waitSentence('stop', deadline, { signal })}`)
      process.exit(code || 1)
    }, deadline).unref()
    try {
      if (options.exportOnExit) {
        server.exportTo(options.exportOnExit)
        console.log(`  Exported the data to ${options.exportOnExit}.`)
      }
    } catch (error) {
      console.error(`ringside: could not export to ${options.exportOnExit}: ${error instanceof Error ? error.message : String(error)}`)
      code = 1
    }
    await server.close()
    console.log(`  Stopped (${signal}).`)
    process.exit(code)
  }
  process.on('SIGINT', () => void stop('SIGINT'))
  process.on('SIGTERM', () => void stop('SIGTERM'))
}
