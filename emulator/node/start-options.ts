/**
 * The options of the server (`npm start`, `ringside start`), in a module of
 * their own: the `ringside` CLI builds its help and parses its arguments with
 * them without loading the server.
 */
import { Command, InvalidArgumentError, Option } from 'commander'
import { redirectUrlProblem } from '../../shared/crm/redirect-urls.ts'
import { checkUrl } from '../../shared/url/safe-url.ts'
import { DEFAULT_PORTS } from '../../shared/ports.mjs'

function portNumber(value: string): number {
  const port = Number(value)
  if (!Number.isInteger(port) || port < 1 || port > 65534) throw new InvalidArgumentError('a port number from 1 to 65534 (the widget origin takes the next one)')
  return port
}

function httpUrl(value: string): string {
  const checked = checkUrl(value)
  if (!checked.ok) throw new InvalidArgumentError(`an absolute http(s) URL (this one ${checked.reason})`)
  return checked.href
}

/** A redirect URL the app may register (https, or http on localhost), for --redirect-url. */
function redirectUrl(value: string, previous: string[] | undefined): string[] {
  const problem = redirectUrlProblem(value)
  if (problem) throw new InvalidArgumentError(problem)
  return [...(previous ?? []), value]
}

/** The data location's name when --data is not given: `ringside start` uses it in the current folder, `npm start` in the repository. */
export const DEFAULT_DATA = '.ringside'

/** How many sandboxes a server holds at once unless --max-sandboxes says otherwise (see crms.ts). */
export const DEFAULT_MAX_SANDBOXES = 64

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
    .addOption(new Option('--port <port>', 'port of the harness and the API; the widget origin uses the next one').default(DEFAULT_PORTS.start).argParser(portNumber))
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
    .addOption(
      new Option('--frame-ancestor <origins...>', "also let pages on these origins frame Ringside's pages (a test's host page framing the widget); never the OAuth consent page").argParser(
        (value: string, previous: string[] | undefined) => [...(previous ?? []), ...value.split(',').map((o) => new URL(httpUrl(o)).origin)],
      ),
    )
  if (!mode.packaged) command.option('--dist', 'serve the pages from the production build (dist/, `npm run build`) instead of the sources')
  else command.option('--open', 'open the harness in your browser once the server is up')
  return command
    .option('--no-pages', 'serve the API alone (a backend or CI needs no harness pages)')
    .option('--sandboxes', 'give each browser profile a fresh in-memory CRM of its own (for test suites running in parallel); backends and curl still use the main one')
    .addOption(
      new Option('--max-sandboxes <n>', 'with --sandboxes: hold at most this many; at the cap a new one replaces the least recently used one not in use, or is refused (429) when all are in use')
        .default(DEFAULT_MAX_SANDBOXES)
        .argParser(positive),
    )
    .addOption(new Option('--compact-every <n>', 'write a new snapshot after this many journal entries (it is also written once the journal reaches 8 MB or half the snapshot\'s size)').default(100_000).argParser(positive))
    .showHelpAfterError()
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
  frameAncestor?: string[]
  dist?: boolean
  open?: boolean
  pages: boolean
  sandboxes?: boolean
  maxSandboxes: number
  compactEvery: number
}
