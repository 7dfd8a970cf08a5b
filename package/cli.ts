/**
 * `ringside`: the command of the npm package.
 *
 *   ringside start          the emulated CRM (server mode) with the prebuilt harness
 *   ringside check-widget   the conformance checks against any widget, by URL
 *   ringside open           Chromium at the harness, the SDK's CDN URLs answered offline
 *   ringside report         the ladders of a saved traffic file, as a self-contained HTML report
 *   ringside export|import|reset   the data, of a running emulator or a data location
 *
 * Each command loads what it needs when it runs (the server, the store,
 * Playwright), so `--help`, `--version` and `check-widget` start quickly.
 *
 * Exit codes: 0 success; 1 a check failed (check-widget) or the command
 * failed (the server could not start, the emulator refused the request);
 * 2 the command could not run (bad arguments, nothing reachable or no answer
 * within its bound, no Chromium). Every wait's bound, sentence and exit code:
 * shared/waits.ts.
 */
import { resolve } from 'node:path'
import { Command, InvalidArgumentError } from 'commander'
import { PACKAGE_VERSION } from '../emulator/node/package-info.ts'
import { addStartOptions, DEFAULT_DATA, type CliOptions } from '../emulator/node/start-options.ts'
import { DEFAULT_PORTS, loopbackUrl } from '../shared/ports.mjs'
import type { CrmService } from '../emulator/core/index.ts'
import { waitMs, waitSentence } from '../shared/waits.ts'

const DEFAULT_URL = `${loopbackUrl(DEFAULT_PORTS.start)}/`

function fail(message: string, code = 2): never {
  process.stderr.write(`ringside: ${message}\n`)
  process.exit(code)
}

function baseUrl(value: string): string {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error()
    return url.origin
  } catch {
    throw new InvalidArgumentError('the http(s) URL of a running `ringside start`')
  }
}

interface DataTarget {
  url: string
}

/** The emulator or data location of a data command (find-server.ts); exits 2 with its sentence when there is none. */
async function target(options: { url?: string; data?: string }, files: boolean) {
  const { findTarget } = await import('./find-server.ts')
  const found = findTarget(options, files)
  if ('problem' in found) fail(found.problem)
  return found
}

/** How a command's last line names where it worked: the URL, and which server that is when it was found by its data. */
const named = (found: { url?: string; data?: string; found?: string }) => (found.url ? `${found.url}${found.found ? ` (${found.found})` : ''}` : (found.data as string))

/** One admin request to a running emulator; exits 2 when nothing answers, 1 when it refuses. */
async function admin(target: DataTarget, method: 'GET' | 'POST', path: string, body?: { stream: ReadableStream<Uint8Array>; type: string }): Promise<string> {
  let response: Response
  let text: string
  // One bound for the request and its answer's body: an emulator that accepts and never answers gets a sentence.
  const deadline = waitMs('admin-request', process.env)
  const signal = AbortSignal.timeout(deadline)
  const timedOut = () => fail(waitSentence('admin-request', deadline, { url: target.url, request: `${method} ${path}` }))
  try {
    // A streamed request body needs `duplex: 'half'` (the Fetch standard's rule for a ReadableStream body).
    response = await fetch(`${target.url}${path}`, { method, signal, ...(body !== undefined && { body: body.stream, duplex: 'half', headers: { 'content-type': body.type } }) } as RequestInit)
    text = await response.text()
  } catch (error) {
    if (signal.aborted) timedOut()
    fail(`no emulator answers at ${target.url} (${error instanceof Error ? (error.cause as Error | undefined)?.message ?? error.message : String(error)}). Start one with \`ringside start\`, pass --url, or work on the files with --data <location>.`)
  }
  if (!response.ok) fail(`${method} ${path} was refused (${response.status}): ${text}`, 1)
  return text
}

/** A refusal raised inside withData's change: said once the data folder's lock is released. */
class CliFailure extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message)
  }
}

/** Change the data at a location (the server must not be running on it: its lock says so). */
async function withData(location: string, change: (service: CrmService) => void | Promise<void>, write: boolean, fresh = false): Promise<void> {
  const [{ DataInUseError, StorageError }, { DiskStorage }, { createCrmService }] = await Promise.all([
    import('../emulator/node/storage/data-folder.ts'),
    import('../emulator/node/storage/disk-storage.ts'),
    import('../emulator/core/index.ts'),
  ])
  const storage = new DiskStorage(location)
  let failure: { message: string; code: number } | null = null
  try {
    if (write) storage.lock()
    const fromDisk = !fresh && storage.hasData()
    const service = createCrmService({ seed: !fromDisk })
    if (fromDisk) storage.load(service.db)
    await change(service)
    if (write) await storage.compact(service.db)
  } catch (error) {
    // Said after the lock is released below: fail() exits the process, which would skip `finally`.
    if (error instanceof DataInUseError) failure = { message: `${error.message} Stop that server, or run the command against it with --url.`, code: 1 }
    else if (error instanceof StorageError) failure = { message: error.message, code: 1 }
    else if (error instanceof CliFailure) failure = { message: error.message, code: error.code }
    else throw error
  } finally {
    await storage.close()
    if (write) storage.releaseLockSync()
  }
  if (failure) fail(failure.message, failure.code)
}

const URL_HELP = `a running emulator, e.g. ${DEFAULT_URL} (default: the server that holds --data, found by its data folder)`

function dataOptions(command: Command): Command {
  return command
    .option('--url <url>', URL_HELP, baseUrl)
    .option('--data <file or dir>', `the data location (folder or snapshot file): the server that holds it, else its files (default: ${DEFAULT_DATA}, as \`ringside start\`)`)
}

export function buildPackageCommand(): Command {
  const program = new Command('ringside')
    .description('Ringside: an offline CRM for calling-widget developers (harness, API, SDK, conformance checks).')
    .version(PACKAGE_VERSION, '-v, --version')
    .showHelpAfterError()
    // Bad arguments exit 2 (commander's own default is 1, which here means "a check failed"); help and version exit 0.
    .exitOverride((error) => process.exit(error.exitCode === 0 ? 0 : 2))
    .addHelpText(
      'after',
      '\nExit codes: 0 success; 1 a check failed or the request was refused; 2 the command could not run (bad arguments, nothing reachable or no answer within its bound, no Chromium).\n' +
        'Every wait has a bound and a sentence (docs/waits.md); RINGSIDE_WAITS=name=ms,… changes them.\n' +
        `Ports: start ${DEFAULT_PORTS.start} (its widget origin ${DEFAULT_PORTS.start + 1}), check-widget ${DEFAULT_PORTS.checkWidget}–${DEFAULT_PORTS.checkWidget + 2}; --port moves them (docs/ports.md).\n` +
        'Every command and option: docs/cli.md.',
    )

  addStartOptions(program.command('start').description('Run the emulated CRM: the harness and the CRM API on --port, the reference widget on the next port.'), {
    defaultData: DEFAULT_DATA,
    packaged: true,
  }).action(async (options: CliOptions) => {
    const [{ runStart }, { openInBrowser }] = await Promise.all([import('../emulator/node/start-command.ts'), import('../kit/browser/open-in-browser.ts')])
    await runStart({ ...options, dist: true }, (server) => {
      if (options.open) {
        void openInBrowser(server.url).then((result) => {
          if (!result.opened) console.warn(`  Not opening a browser (${result.reason}); open ${server.url} yourself.`)
        })
      }
    })
  })

  program
    .command('check-widget')
    .description("Run the protocol conformance checks against the calling widget at <url>, loaded cross-origin in the harness.")
    .argument('<url>', 'the widget (it must answer from this machine, e.g. your dev server)')
    .option('--driver <name|path>', "how to operate the widget: auto (ours get theirs, any other widget the generic driver), generic, ringside, npm-fixture, none, or the path of your driver module", 'auto')
    .option('--placement <where>', 'where the harness places the widget: widget (docked), remote, window (the calling window), or all (one run each)', 'widget')
    .option('--junit <file>', 'write JUnit XML here', 'ringside-report/widget-check.junit.xml')
    .option('--html <file>', 'write the self-contained HTML report here (verdicts, ladders, screenshots; the JUnit XML links it)', 'ringside-report/index.html')
    .option('--open', 'open the HTML report in your browser when the run ends (with no desktop, e.g. in CI, it prints where it is)')
    .option('--sync-timeout <ms>', 'how long the host waits for SYNC_ACK', '10000')
    .option('--strict', 'warnings fail the check too')
    .option('--ignore-https-errors', "accept the widget's self-signed https certificate")
    .option('--port <n>', 'harness port (the widget and hostile origins use n+1, n+2)', String(DEFAULT_PORTS.checkWidget))
    .option('--name <text>', "the widget's name in the dock and the report (default: its page's <title>)")
    .addHelpText(
      'after',
      '\nIt prints each journey (outbound, inbound) and check as it finishes, then the readiness report.\nExit codes: 0 ready (or only skipped checks), 1 a check failed (the widget never answered SYNC, a call step failed or hung, an error finding), 2 the check could not run (bad arguments, the widget answers 404, is unreachable or its page does not finish loading within 10 s, an untrusted certificate, no @playwright/test, no Chromium).\nEach wait (the page, each step, the journey) has a bound: RINGSIDE_WAITS=name=ms,… changes them (docs/waits.md).',
    )
    .action(async (url: string, options) => {
      const { runCheckWidget } = await import('../kit/check-widget.ts')
      process.exit(await runCheckWidget(url, options))
    })

  program
    .command('open')
    .description("Open the harness of a running `ringside start` in Chromium, with the calling SDK's CDN URLs (jsDelivr, unpkg) answered offline by it.")
    .argument('[page]', 'a path of the harness (/contacts/1 opens its route /#/contacts/1), or any http(s) URL', '/')
    .option('--url <url>', URL_HELP, baseUrl)
    .option('--data <file or dir>', `find the running server by the data location it holds (default: ${DEFAULT_DATA})`)
    .option('--profile <dir>', 'keep the browser profile in this folder (default: a temporary one)')
    .option('--headless', 'no window (scripts and CI)')
    .option('--ignore-https-errors', "accept a widget's self-signed https certificate")
    .action(async (path: string, options: { url?: string; data?: string; profile?: string; headless?: boolean; ignoreHttpsErrors?: boolean }) => {
      const { url } = (await target(options, false)) as { url: string }
      // Loaded here, not at startup: it needs @playwright/test, an optional peer.
      const { runOpen } = await import('./open.ts')
      process.exit(await runOpen(path, { ...options, url }))
    })

  program
    .command('report')
    .description('Draw the ladders of a saved traffic file (the inspector\'s Export JSON, or a check-widget run\'s traffic.json) into a self-contained HTML report.')
    .argument('<traffic-file>', 'a saved traffic file')
    .option('--html <file>', 'write the report here (default: the traffic file\'s name with .html, beside it)')
    .option('--open', 'open the report in your browser (with no desktop, e.g. in CI, it prints where it is)')
    .addHelpText('after', '\nExit codes: 0 written; 2 the file cannot be read or is not a traffic file (the reason is printed; nothing is written).')
    .action(async (file: string, options: { html?: string; open?: boolean }) => {
      // Loaded here: the other commands need none of it.
      const { runReport } = await import('../kit/report/traffic-report.ts')
      process.exit(await runReport(file, options, `ringside report ${PACKAGE_VERSION}`))
    })

  dataOptions(program.command('export').description('Write the data as an export (the format `ringside import` and Developer → Database take).'))
    .argument('[file]', 'where to write it (default: stdout)')
    .action(async (file: string | undefined, options: { url?: string; data?: string }) => {
      const found = await target(options, true)
      let text = ''
      if (found.data !== undefined) {
        await withData(found.data, (service) => void (text = `${JSON.stringify(service.db.snapshot(), null, 2)}\n`), false)
      } else {
        text = await admin(found, 'GET', '/_ringside/v1/export')
      }
      if (file) (await import('../emulator/node/storage/atomic-write.ts')).writeFileAtomic(resolve(file), text)
      else process.stdout.write(text)
    })

  dataOptions(program.command('import').description('Replace the data with an export, or a data folder’s snapshot.ndjson (streamed; see docs/import.md for its limits).'))
    .argument('<file>', 'an export file')
    .action(async (file: string, options: { url?: string; data?: string }) => {
      const { createReadStream, statSync } = await import('node:fs')
      try {
        if (!statSync(file).isFile()) throw new Error('not a file')
      } catch (error) {
        fail(`cannot read ${file}: ${error instanceof Error ? error.message : String(error)}`)
      }
      const found = await target(options, true)
      if (found.data !== undefined) {
        const { importFile, ImportFileError } = await import('../emulator/node/storage/import-file.ts')
        await withData(
          found.data,
          async (service) => {
            try {
              await importFile(service.db, file)
            } catch (error) {
              if (error instanceof ImportFileError) throw new CliFailure(`${file}: ${error.message}`, 1)
              throw error
            }
          },
          true,
        )
        console.log(`Imported ${file} into ${found.data}.`)
      } else {
        const [{ Readable }, { importContentType }] = await Promise.all([import('node:stream'), import('../shared/crm/data-files.ts')])
        // A read error of the file is the file's, not the emulator's: said as such (exit 2).
        const source = createReadStream(file).on('error', (error) => fail(`cannot read ${file}: ${error.message}`))
        await admin(found, 'POST', '/_ringside/v1/import', { stream: Readable.toWeb(source) as ReadableStream<Uint8Array>, type: importContentType(file) })
        console.log(`Imported ${file} into ${named(found)}.`)
      }
    })

  dataOptions(program.command('reset').description('Back to the fresh seeded account.')).action(async (options: { url?: string; data?: string }) => {
    const found = await target(options, true)
    if (found.data !== undefined) {
      await withData(found.data, () => {}, true, true)
    } else {
      await admin(found, 'POST', '/_ringside/v1/reset')
    }
    console.log(`Reset ${named(found)} to the seed data.`)
  })

  return program
}

export async function main(argv: string[] = process.argv): Promise<void> {
  await buildPackageCommand().parseAsync(argv)
}
