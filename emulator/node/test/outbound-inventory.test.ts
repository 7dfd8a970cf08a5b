/**
 * Every place the product's code could open a request (fetch, Node's http or
 * https clients, a raw socket), found by its text, must be in this one list:
 * the outbound module itself and its transports, or a request to Ringside's
 * own server (the page to its own origin, the CLI to the server it was pointed
 * at). A new call site fails here until it goes through `Outbound`
 * (emulator/core/outbound/read.ts) or is listed with why it need not.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { REPO } from './support.ts'

const DIRS = ['emulator', 'shared', 'package', 'kit', 'widget', 'host-harness', 'bin']

/** The text that opens a request. */
const OPENS = /\bfetch\(|\bhttps?\.(?:request|get)\(|\brequest as https?Request\b|\bget as https?Get\b|\b(?:net|tls)\.(?:connect|createConnection)\(|\bimport \{[^}]*\b(?:connect|createConnection|Socket)\b[^}]*\} from 'node:(?:net|tls)'|\bfrom 'undici'|\bnew (?:XMLHttpRequest|WebSocket|EventSource)\(|\bnavigator\.sendBeacon\(|\broute\.fetch\(/

/** file → why its requests are allowed (each hit in it is one of these). */
const ALLOWED: Record<string, string> = {
  'emulator/core/outbound/read.ts': 'the outbound module: it calls its transport, one hop at a time',
  'emulator/node/outbound-transport.ts': "the server's transport: Node's http(s), connecting to the addresses it checked",
  'emulator/browser/host.ts': "browser-only mode's transport (the page's fetch), handed to Outbound",
  'emulator/browser/connect.ts': "the page asks its own origin's server whether it runs (same origin, Ringside's own)",
  'emulator/browser/server-changes.ts': "the page's change feed from its own origin's server (Ringside's own)",
  'package/cli.ts': 'the CLI\'s admin requests to the Ringside it was pointed at (--url), not a vendor',
  'package/open.ts': '`ringside open` asks the Ringside at --url whether it runs, within 5 s',
  'emulator/testing/hostile-requests.ts': "the hostile suite's requests to the Ringside under test (test support for npm run fuzz)",
  'emulator/testing/ringside-server.mjs': "the tests' and the bench's requests to the Ringside server they started (test support)",
  'emulator/testing/big-export.mjs': "the export of the Ringside server under test, as the big export's base (test support)",
  'kit/harness.ts': "a harness page's request to its own origin's API, inside page.evaluate",
  'kit/sdk-cdn.ts': "Playwright's route.fetch of the SDK from Ringside's own server",
  'host-harness/lib/api-client.ts': "the harness's API client: the page's own origin's API (Ringside's own)",
}

function sources(dir: string): string[] {
  return readdirSync(join(REPO, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(?:ts|tsx|mjs|js)$/.test(file) && !/(?:^|\/)(?:node_modules|test)\//.test(file) && !/\.test\.tsx?$|(?:^|\/)testing\.ts$/.test(file))
    .map((file) => `${dir}/${file}`)
}

test('every request the product makes is the outbound module, one of its transports, or a request to Ringside itself', () => {
  const found = new Map<string, string[]>()
  for (const dir of DIRS) {
    for (const file of sources(dir)) {
      const lines = readFileSync(join(REPO, file), 'utf8').split('\n')
      const hits = lines.flatMap((line, i) => (OPENS.test(line) && !/^\s*(?:\/\/|\*)/.test(line) ? [`${i + 1}: ${line.trim()}`] : []))
      if (hits.length > 0) found.set(file, hits)
    }
  }
  const unlisted = [...found].filter(([file]) => !(file in ALLOWED)).map(([file, hits]) => `${file}\n  ${hits.join('\n  ')}`)
  expect(unlisted, 'a request outside the outbound module: send it through Outbound (emulator/core/outbound/read.ts), or list it here with why').toEqual([])
  // The list holds no file that no longer makes a request (it would hide a new one there).
  expect(Object.keys(ALLOWED).filter((file) => !found.has(file))).toEqual([])
})

test('the service reaches vendors only through ServiceDeps.outbound: no route module holds a transport', () => {
  const routes = sources('emulator/core').filter((file) => !file.startsWith('emulator/core/outbound/') && !file.startsWith('emulator/browser/'))
  const holders = routes.filter((file) => /outboundFetch\s*\(|\.#?fetch\(/.test(readFileSync(join(REPO, file), 'utf8')))
  expect(holders).toEqual([])
})
