/**
 * `npm start [-- options]`: parse the flags (commander), start the server,
 * print where everything is, and stop cleanly on SIGINT/SIGTERM.
 */
import { Command, InvalidArgumentError, Option } from 'commander'
import { relative } from 'node:path'
import { setFlagsFromString } from 'node:v8'
import { ACCOUNT } from '../shared/api/auth.ts'
import { SERVER_PATHS } from '../shared/api/api-paths.ts'
import { SERVED_PREFIX } from '../shared/sdk-cdn/cdn-urls.ts'
import { harnessCallbackUrl, redirectUrlProblem } from '../shared/api/oauth/redirect-urls.ts'
import { DEFAULT_PORT, PACKAGE_VERSION, StartupError, REPO_ROOT, startRingside, type RingsideServer } from './server.ts'
import { DataInUseError, StorageError } from './storage.ts'
import { nameOfWidget } from './widget-page.ts'

function portNumber(value: string): number {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 1 || port > 65534) throw new InvalidArgumentError('a port number from 1 to 65534 (the widget origin takes the next one)')
  return port
}

function httpUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError('an absolute http(s) URL')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new InvalidArgumentError('an http(s) URL')
  return url.href
}

/** A redirect URL the app may register (https, or http on localhost), for --redirect-url. */
function redirectUrl(value: string, previous: string[] | undefined): string[] {
  const problem = redirectUrlProblem(value)
  if (problem) throw new InvalidArgumentError(problem)
  return [...(previous ?? []), value]
}

function positive(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('a positive integer')
  return n
}

/**
 * The options of the server, added to `command`: `npm start` (from the
 * sources) and `ringside start` (the package, prebuilt pages only) share them.
 */
export function addStartOptions(command: Command, mode: { defaultData: string; packaged: boolean }): Command {
  command
    .addOption(new Option('--port <port>', 'port of the harness and the API; the widget origin uses the next one').default(DEFAULT_PORT).argParser(portNumber))
    .option('--host <host>', 'address to listen on (anything but loopback prints a warning: there is no real authentication)', '127.0.0.1')
    .addOption(
      new Option('--allowed-host <names...>', 'also serve requests for these host names (localhost, IP addresses and --host always are; .example.test allows its subdomains)').argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), ...value.split(',').map((name) => name.trim()).filter(Boolean)],
      ),
    )
    .option('--data <file or dir>', 'where the data lives: a folder, or a snapshot file (*.json)', mode.defaultData)
    .option('--fresh', 'start from the seed data; the data the location held is kept beside it as *.previous')
    .addOption(new Option('--widget <url>', "register this calling widget at startup (a fresh account registers the widget origin's /widget/)").argParser(httpUrl))
    .option('--widget-name <text>', "the --widget's name in the dock (default: its page's <title>, else \"Widget at host/path\")")
    .addOption(
      new Option('--redirect-url <urls...>', "register these OAuth redirect URLs for the app (https, or http on localhost; the harness's own callback always works)").argParser(redirectUrl),
    )
    .option('--import <file>', 'load this export (Developer → Database → Export, or GET /_ringside/v1/export) at startup, replacing the data')
    .option('--export-on-exit <file>', 'write an export of the data to this file when the server stops')
    .addOption(
      new Option('--cors [origins...]', "answer CORS for these origins (default when given alone: the registered widget's origin); without it, like the real API, none").argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), ...value.split(',').map((o) => new URL(httpUrl(o)).origin)],
      ),
    )
  if (!mode.packaged) command.option('--dist', 'serve the pages from the production build (dist/, `npm run build`) instead of the sources')
  else command.option('--open', 'open the harness in your browser once the server is up')
  return command
    .option('--no-pages', 'serve the API alone (a backend or CI needs no harness pages)')
    .option('--sandboxes', 'give each browser profile a fresh in-memory CRM of its own (for test suites running in parallel); backends and curl still use the main one')
    .addOption(new Option('--compact-every <n>', 'write a new snapshot after this many journal entries (it is also written once the journal reaches 8 MB or half the snapshot\'s size)').default(100_000).argParser(positive))
    .showHelpAfterError()
}

export function buildCommand(): Command {
  return addStartOptions(
    new Command('ringside').description(
      'Runs the emulated CRM as one local server: the harness pages and the CRM API on one origin, the reference widget on the next port,\n' +
        'one database on disk shared by every page, your widget backend, curl and @hubspot/api-client.',
    ),
    { defaultData: relative(process.cwd(), `${REPO_ROOT}/.ringside`) || '.ringside', packaged: false },
  )
}

export interface CliOptions {
  port: number
  host: string
  allowedHost?: string[]
  data: string
  fresh?: boolean
  widget?: string
  widgetName?: string
  import?: string
  redirectUrl?: string[]
  exportOnExit?: string
  cors?: string[] | true
  dist?: boolean
  open?: boolean
  pages: boolean
  sandboxes?: boolean
  compactEvery: number
}

function printStartup(server: RingsideServer, options: CliOptions): void {
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
  console.log(out.join('\n'))
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

/** How long SIGINT/SIGTERM may take before the process exits regardless. */
const STOP_DEADLINE_MS = 1500

/** Start the server with parsed options, print where everything is, stop on SIGINT/SIGTERM. Exits 1 when it cannot start. */
export async function runStart(options: CliOptions, onStarted?: (server: RingsideServer) => void): Promise<void> {
  collectEarlier()
  const port = options.port
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
      ...(widgetUrl && { widgetUrl, widgetName: options.widgetName?.trim() || (await nameOfWidget(widgetUrl)) }),
      ...(options.import && { importFile: options.import }),
      ...(options.redirectUrl && { redirectUrls: options.redirectUrl }),
      corsOrigins,
      pages: !options.pages ? 'none' : options.dist ? 'dist' : 'vite',
      sandboxes: options.sandboxes ?? false,
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
    // Whatever holds the close up, the process ends within STOP_DEADLINE_MS with the lock released.
    setTimeout(() => {
      server.storage?.releaseLockSync()
      console.error(`ringside: stopping took longer than ${STOP_DEADLINE_MS} ms; exiting anyway (${signal}).`)
      process.exit(code || 1)
    }, STOP_DEADLINE_MS).unref()
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
