#!/usr/bin/env node
// The install test (part of `npm test`): the package as a widget developer
// gets it, packed from the repository's committed HEAD.
//   0. a checkout whose working tree is HEAD (git status clean: a CI clone,
//      or a developer's tree with everything committed) and whose build is up
//      to date (`npm test` has just built it; `tools/build/prepack.mjs --check`
//      decides) packs itself, rather than build HEAD a second time in a clone.
//      Otherwise (changed or untracked files, no build or a stale one, or
//      INSTALL_TEST_CLONE=1) git clone into a temporary folder (no build, no
//      lib/, no dist/); its dependencies are the repository's own node_modules,
//      linked, when the clone's package-lock.json is the same file (what npm ci
//      would install there is then exactly that tree), else npm ci, whose log
//      must hold no warning;
//   1. npm pack: its prepack builds the package when there is no build (the clone);
//   2. install the tarball into a temporary project outside the repository,
//      WITHOUT the optional peers (@playwright/test, msw);
//   3. npx ringside --version;
//   4. ringside start --port <free> serves the harness, the API and the SDK
//      (4b: export, reset and import, against it and its data folder);
//      ringside check-widget says which command installs @playwright/test;
//   then install the peers, and:
//   5. Node scripts there import ringside/api, ringside/sdk and ringside/msw;
//   5b. a widget-only bundle of ringside/sdk/widget leaves the host side out;
//   5c. TypeScript compiles a file using the entry points (their .d.ts types);
//   6. a Playwright spec there imports ringside/playwright and runs the
//      conformance checks (one call through the harness) against the reference widget;
//      the kit attaches each test's ladder (ladder.svg);
//   7. ringside check-widget runs the same checks with the package's own config,
//      and writes the HTML report (ringside-report/index.html) the JUnit XML links;
//   8. ringside report draws a traffic file that check kept; a malformed one exits 2.
// Prints each step and its time; exits 1 on the first failure.
import { execFileSync, spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { freePortPair } from '../../emulator/testing/free-ports.mjs'
import { installWarnings } from './install-log.mjs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

const root = resolve(import.meta.dirname, '../..')
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
const playwrightVersion = manifest.devDependencies['@playwright/test']
const mswVersion = manifest.devDependencies.msw
const t0 = Date.now()
const work = mkdtempSync(join(tmpdir(), 'ringside-install-'))
const project = join(work, 'my-widget')
const children = []

function step(text) {
  console.log(`install test: ${text} (${((Date.now() - t0) / 1000).toFixed(1)}s)`)
}

function run(command, args, options = {}) {
  return execFileSync(command, args, { cwd: project, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...options })
}

/** Is this port free on loopback right now? */
/**
 * fetch on a connection of its own: one left idle while a CLI step runs can be closed by the server (its keep-alive
 * timeout) just as it is reused, which fails the request ("fetch failed") on a busy machine.
 */
function request(url, init = {}) {
  return fetch(url, { ...init, headers: { ...init.headers, connection: 'close' } })
}

async function waitFor(url, ms = 20_000) {
  const until = Date.now() + ms
  while (Date.now() < until) {
    try {
      const response = await request(url)
      if (response.ok) return
    } catch {
      // not up yet
    }
    await new Promise((done) => setTimeout(done, 200))
  }
  throw new Error(`${url} did not answer within ${ms} ms`)
}

function expect(condition, message) {
  if (!condition) throw new Error(message)
}

/**
 * Is this checkout its committed HEAD (a git work tree with nothing changed and nothing untracked) with an up-to-date
 * build? Then that build is a build of HEAD, and a clone would only build the same files a second time. A missing or
 * stale build is never rebuilt here: the browser tests may be using it (npm test runs them side by side).
 */
function builtHead() {
  try {
    const clean = execFileSync('git', ['status', '--porcelain', '--untracked-files=normal'], { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }) === ''
    return clean && spawnSync(process.execPath, [join(root, 'tools', 'build', 'prepack.mjs'), '--check'], { cwd: root, stdio: 'ignore' }).status === 0
  } catch {
    return false
  }
}

try {
  let packFrom = root
  if (process.env.INSTALL_TEST_CLONE !== '1' && builtHead()) {
    step('0. this checkout is its committed HEAD (git status is clean) and its build is up to date: it packs itself')
  } else {
    step('0. git clone (committed HEAD, no build) and its dependencies')
    packFrom = join(work, 'clone')
    execFileSync('git', ['clone', '--quiet', '--depth', '1', `file://${root}`, packFrom], { stdio: ['ignore', 'pipe', 'pipe'] })
    expect(!existsSync(join(packFrom, 'lib')) && !existsSync(join(packFrom, 'dist', 'index.html')), 'the clone already has a build')
    const sameLock = existsSync(join(root, 'node_modules')) &&
      readFileSync(join(root, 'package-lock.json'), 'utf8') === readFileSync(join(packFrom, 'package-lock.json'), 'utf8')
    if (sameLock) symlinkSync(join(root, 'node_modules'), join(packFrom, 'node_modules'), 'dir')
    else {
      // A fresh clone's install on a supported Node prints no warning (scripts/install-log.mjs judges the log).
      const ci = spawnSync('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn'], { cwd: packFrom, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
      expect(ci.status === 0, `npm ci in the clone exited ${ci.status}:\n${ci.stdout}${ci.stderr}`)
      const warnings = installWarnings(`${ci.stdout}\n${ci.stderr}`)
      expect(warnings.length === 0, `npm ci in the clone printed warnings:\n${warnings.join('\n')}`)
    }
  }

  step(`1. npm pack ${packFrom === root ? 'in this checkout' : 'in the clone (prepack builds)'}`)
  const packed = JSON.parse(run('npm', ['pack', '--json', '--pack-destination', work], { cwd: packFrom }))
  const tarball = join(work, packed[0].filename)

  step('2. install the tarball into a new project, without the optional peers')
  execFileSync('mkdir', ['-p', project])
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'my-widget', private: true, type: 'module' }, null, 2))
  const install = (...packages) => run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error', '-D', ...packages])
  install(tarball)
  expect(!existsSync(join(project, 'node_modules', '@playwright', 'test')), '@playwright/test was installed with the package, though it is an optional peer')

  step('3. npx ringside --version')
  const version = run('npx', ['--no-install', 'ringside', '--version']).trim()
  expect(version === manifest.version, `ringside --version printed ${JSON.stringify(version)}, expected ${manifest.version}`)

  // From here on the installed bin is called directly: the same file npx runs, without npm's startup each time.
  const ringsideBin = join(project, 'node_modules', '.bin', 'ringside')

  const exitOf = (args, env = process.env) => {
    try {
      run(ringsideBin, args, { env })
      return { code: 0, stderr: '' }
    } catch (error) {
      return { code: error.status, stderr: String(error.stderr) }
    }
  }
  expect(exitOf(['start', '--port', 'abc']).code === 2, 'ringside start --port abc did not exit 2')

  step('4. ringside start')
  const port = await freePortPair()
  const server = spawn(ringsideBin, ['start', '--port', String(port), '--data', join(work, 'data')], { cwd: project, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  children.push(server)
  let serverOutput = ''
  server.stdout.on('data', (chunk) => (serverOutput += chunk))
  server.stderr.on('data', (chunk) => (serverOutput += chunk))
  const base = `http://127.0.0.1:${port}`
  try {
    await waitFor(`${base}/_ringside/v1/server`)
  } catch (error) {
    throw new Error(`${error.message}\n${serverOutput}`, { cause: error })
  }
  const harnessPage = await request(`${base}/`)
  const page = await harnessPage.text()
  expect(page.includes('<div id="root">') || page.includes('<script'), 'the harness page is not served')
  // Each page's policy (emulator/node/pages/page-policy.ts) comes with the package too.
  const consent = await request(`${base}/oauth/authorize/`)
  await consent.arrayBuffer()
  for (const [name, response, ancestors] of [['the harness', harnessPage, "frame-ancestors 'self'"], ['the consent page', consent, "frame-ancestors 'none'"]]) {
    const policy = response.headers.get('content-security-policy') ?? ''
    expect(policy.includes("object-src 'none'") && policy.includes("base-uri 'none'") && policy.includes(ancestors), `${name} is served without its policy: ${policy || 'no Content-Security-Policy'}`)
  }
  const contacts = await request(`${base}/crm/v3/objects/contacts?limit=1`, { headers: { authorization: 'Bearer pat-local' } })
  expect(contacts.status === 200, `the API answered ${contacts.status}`)
  const info = await (await request(`${base}/_ringside/v1/server`)).json()
  expect(info.mode === 'server', 'GET /_ringside/v1/server is not the server')
  for (const path of [`/sdk/${manifest.version}/calling-extensions.js`, '/sdk/latest/calling-extensions.umd.js']) {
    const sdk = await request(`${base}${path}`)
    expect(sdk.status === 200 && (sdk.headers.get('content-type') ?? '').includes('javascript'), `${path} answered ${sdk.status}`)
  }
  const widgetPage = await request(`http://127.0.0.1:${port + 1}/widget/`)
  expect(widgetPage.status === 200, `the widget origin answered ${widgetPage.status}`)
  const noPeer = exitOf(['check-widget', `http://127.0.0.1:${port + 1}/widget/`])
  expect(noPeer.code === 2 && noPeer.stderr.includes('npm i -D @playwright/test'), `check-widget without @playwright/test: exit ${noPeer.code}, ${noPeer.stderr}`)
  const fixture = await request(`${base}/e2e/fixtures/plain-host/`)
  expect(fixture.status === 404, `the package serves the e2e fixture pages (${fixture.status})`)

  step('4b. ringside export | reset | import against the running emulator and its data folder')
  const exportFile = join(work, 'export.json')
  run(ringsideBin, ['export', exportFile, '--url', base])
  const exported = JSON.parse(readFileSync(exportFile, 'utf8'))
  expect(typeof exported === 'object' && exported !== null && Object.keys(exported).length > 0, 'ringside export wrote no data')
  const created = await request(`${base}/crm/v3/objects/contacts`, {
    method: 'POST',
    headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
    body: JSON.stringify({ properties: { email: 'install-test@example.com' } }),
  })
  expect(created.status === 201, `creating a contact answered ${created.status}`)
  const contactCount = async () => (await (await request(`${base}/crm/v3/objects/contacts?limit=100`, { headers: { authorization: 'Bearer pat-local' } })).json()).results.length
  const withNew = await contactCount()
  run(ringsideBin, ['reset', '--url', base])
  expect((await contactCount()) === withNew - 1, 'ringside reset did not go back to the seed')
  run(ringsideBin, ['import', exportFile, '--url', base])
  // The data folder is the running server's: the CLI finds that server from the folder (its server.json) and goes
  // through it, so reading the folder and resetting it both work while the server runs.
  const fromFolder = JSON.parse(run(ringsideBin, ['export', '--data', join(work, 'data')]))
  expect(JSON.stringify(Object.keys(fromFolder)) === JSON.stringify(Object.keys(exported)), 'ringside export --data differs from the export')
  run(ringsideBin, ['reset', '--data', join(work, 'data')])
  expect((await contactCount()) === withNew - 1, 'ringside reset --data did not reset the server that holds the folder')
  let noServerExit = 0
  try {
    run(ringsideBin, ['export', '--url', `http://127.0.0.1:${port + 5}`])
  } catch (error) {
    noServerExit = error.status
    expect(String(error.stderr).includes('no emulator answers'), `no clear message without a server: ${error.stderr}`)
  }
  expect(noServerExit === 2, `ringside export with nothing at --url exited ${noServerExit}, expected 2`)

  step('4c. install the peers: @playwright/test and msw')
  install(`@playwright/test@${playwrightVersion}`, `msw@${mswVersion}`)
  const noChromium = exitOf(['check-widget', `http://127.0.0.1:${port + 1}/widget/`], { ...process.env, CHROMIUM_PATH: join(work, 'no-such-chromium') })
  expect(noChromium.code === 2 && noChromium.stderr.includes('CHROMIUM_PATH'), `check-widget without a Chromium: exit ${noChromium.code}, ${noChromium.stderr}`)

  step('5. Node scripts import ringside/api, ringside/sdk and ringside/msw')
  writeFileSync(
    join(project, 'use-msw.mjs'),
    `import { setupServer } from 'msw/node'
import { crmHandlers } from 'ringside/msw'
const server = setupServer(...crmHandlers())
server.listen({ onUnhandledRequest: 'error' })
const response = await fetch('https://api.hubapi.com/crm/v3/objects/contacts?limit=1', { headers: { authorization: 'Bearer pat-local' } })
const body = await response.json()
server.close()
if (response.status !== 200 || body.results.length !== 1) throw new Error('msw: ' + response.status + ' ' + JSON.stringify(body))
console.log('ok')
`,
  )
  const mswOut = run('node', ['use-msw.mjs']).trim()
  expect(mswOut === 'ok', `use-msw.mjs printed ${mswOut}`)
  writeFileSync(
    join(project, 'use-api.mjs'),
    `import { createCrmService, ACCOUNT } from 'ringside/api'
import { CallingExtensions, CallingHost, SDK_VERSION } from 'ringside/sdk'
import { CallingExtensions as WidgetOnly } from 'ringside/sdk/widget'
const crm = createCrmService()
const response = await crm.handle(new Request('http://crm.local/crm/v3/objects/contacts?limit=2', { headers: { authorization: 'Bearer ' + ACCOUNT.privateAppToken } }))
const body = await response.json()
if (response.status !== 200 || body.results.length !== 2) throw new Error('contacts: ' + response.status)
if (typeof CallingExtensions !== 'function' || typeof CallingHost !== 'function' || WidgetOnly !== CallingExtensions) throw new Error('sdk exports')
console.log('ok', SDK_VERSION, body.results.length)
`,
  )
  const apiOut = run('node', ['use-api.mjs']).trim()
  expect(apiOut.startsWith('ok '), `use-api.mjs printed ${apiOut}`)

  step('5b. a widget importing ringside/sdk/widget does not bundle the host side (esbuild)')
  writeFileSync(join(project, 'widget-entry.mjs'), `import { CallingExtensions } from 'ringside/sdk/widget'\nwindow.sdk = new CallingExtensions({ eventHandlers: {} })\n`)
  writeFileSync(join(project, 'both-entry.mjs'), `import { CallingExtensions, CallingHost } from 'ringside/sdk'\nwindow.sdk = [CallingExtensions, CallingHost]\n`)
  const esbuild = join(root, 'node_modules', '.bin', 'esbuild')
  const bundle = (entry) => run(esbuild, [entry, '--bundle', '--format=esm', '--platform=browser', '--log-level=error'])
  const widgetOnly = bundle('widget-entry.mjs')
  const both = bundle('both-entry.mjs')
  const defines = (name, code) => new RegExp(`class ${name}\\b|\\b${name} = class\\b`).test(code)
  expect(defines('CallingHost', both), 'the host side is missing from a bundle that imports it')
  expect(!defines('CallingHost', widgetOnly) && defines('CallingExtensions', widgetOnly), 'a widget-only bundle of ringside/sdk/widget contains the host side (CallingHost)')
  console.log(`install test:    widget-only bundle ${(widgetOnly.length / 1024).toFixed(0)} KB, both sides ${(both.length / 1024).toFixed(0)} KB (unminified)`)

  step('5c. the entry points have types: a TypeScript file using them compiles (nodenext), and a wrong type is reported')
  writeFileSync(
    join(project, 'typed.ts'),
    `import { test, expect, type Harness } from 'ringside/playwright'
import { createCrmService } from 'ringside/api'
import { CallingExtensions } from 'ringside/sdk/widget'
import { crmHandlers } from 'ringside/msw'
const crm = createCrmService()
const sdk = new CallingExtensions({ eventHandlers: { onReady: () => {} } })
test('typed', async ({ harness }) => {
  const h: Harness = harness
  await expect(h.page).toHaveTitle(/Ringside/)
})
void crmHandlers
void sdk
// @ts-expect-error: the routes' count is a number (if the types were missing, this line would be an unused directive)
const wrong: string = crm.routes.length
void wrong
`,
  )
  writeFileSync(
    join(project, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, target: 'es2022', lib: ['es2022', 'dom'], skipLibCheck: true, types: [] }, files: ['typed.ts'] }),
  )
  // The repository's compiler (TypeScript 7's native tsc, as `npm run typecheck`): the same check in a fraction of the CPU.
  run(process.execPath, [join(root, 'node_modules', 'typescript-native', 'bin', 'tsc'), '-p', '.'])

  step('6. a Playwright spec imports ringside/playwright and runs the conformance checks')
  writeFileSync(
    join(project, 'playwright.config.mjs'),
    `import { defineConfig } from '@playwright/test'
import { BROWSER_ARGS, findChromium } from 'ringside/playwright'
export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.mjs',
  workers: 1,
  reporter: [['line'], ['json', { outputFile: 'pw-results.json' }]],
  use: { baseURL: '${base}', launchOptions: { executablePath: findChromium() ?? undefined, args: BROWSER_ARGS } },
})
`,
  )
  writeFileSync(
    join(project, 'widget.spec.mjs'),
    `import { test, expect, CHECKS, evaluateCheck, journeyFor } from 'ringside/playwright'

test('the reference widget passes the conformance checks', async ({ browser, widgetUrl }, testInfo) => {
  const { result } = await journeyFor({ name: 'reference widget', url: () => widgetUrl, driver: 'ringside' }, browser, testInfo, 10_000)
  const failed = CHECKS.map((check) => [check.id, evaluateCheck(check, result)]).filter(([, outcome]) => outcome.status === 'failed')
  expect(failed).toEqual([])
  expect(CHECKS.filter((check) => evaluateCheck(check, result).status === 'passed').length).toBeGreaterThan(3)
})

test('the harness loads the reference widget, which logs in', async ({ harness }) => {
  await harness.open({ route: '/contacts/1', waitFor: 'handshake' })
  await expect(harness.statusBadge).toContainText('Logged in')
})
`,
  )
  run(join(project, 'node_modules', '.bin', 'playwright'), ['test'], { env: { ...process.env, CI: '1', FORCE_COLOR: '0' } })
  // The kit attached the ladder of each test's traffic, as SVG.
  const results = JSON.parse(readFileSync(join(project, 'pw-results.json'), 'utf8'))
  const attachments = results.suites.flatMap(function tests(suite) { return [...(suite.specs ?? []).flatMap((spec) => spec.tests), ...(suite.suites ?? []).flatMap(tests)] }).flatMap((t) => t.results.flatMap((r) => r.attachments))
  const ladder = attachments.find((a) => a.name === 'ladder.svg' && a.contentType === 'image/svg+xml')
  expect(ladder !== undefined && Buffer.from(ladder.body ?? '', 'base64').toString('utf8').includes('SYNC_ACK'), `the kit's ladder.svg attachment: ${JSON.stringify(attachments.map((a) => a.name))}`)

  step('7. ringside check-widget <the reference widget> (its own server, the package config)')
  const checkPort = await freePortPair()
  const junit = join(project, 'reports', 'check.junit.xml')
  run(ringsideBin, ['check-widget', `http://127.0.0.1:${checkPort + 1}/widget/?autoLogin=1&outcome=answer&answerAfterMs=300`, '--port', String(checkPort), '--junit', junit])
  const xml = readFileSync(junit, 'utf8')
  expect(/<testsuites[^>]*failures="0"/.test(xml) && /<testcase /.test(xml), `check-widget JUnit: ${xml.slice(0, 300)}`)
  // The self-contained HTML report, in its default place, linked from the JUnit XML.
  const report = readFileSync(join(project, 'ringside-report', 'index.html'), 'utf8')
  expect(report.includes('READY: all 8 checks passed') && report.includes('<div class="ladder" role="figure"') && report.includes('data:image/jpeg;base64,'), 'the HTML report has the verdicts, the ladder and the screenshots')
  expect(xml.includes('<property name="ringside-report" value="../ringside-report/index.html"'), 'the JUnit XML links the HTML report')

  step('8. ringside report <a traffic file the check kept> draws it; a malformed file gets exit 2')
  const traffic = readdirSync(join(project, 'reports'), { recursive: true }).find((path) => String(path).endsWith('traffic.json'))
  expect(traffic !== undefined, 'check-widget kept no traffic.json')
  run(ringsideBin, ['report', join(project, 'reports', String(traffic)), '--html', join(project, 'traffic.html')])
  expect(readFileSync(join(project, 'traffic.html'), 'utf8').includes('SYNC_ACK'), 'ringside report drew no ladder')
  writeFileSync(join(project, 'broken.json'), '{"format":"ringside-traffic"')
  const broken = exitOf(['report', join(project, 'broken.json')])
  expect(broken.code === 2 && broken.stderr.includes('is not JSON'), `ringside report of a malformed file: exit ${broken.code}, ${broken.stderr}`)
  step('done')
} catch (error) {
  console.error(`install test FAILED: ${error.stdout ?? ''}${error.stderr ?? ''}${error.message}${error.cause ? ` (${error.cause.message ?? error.cause})` : ''}`)
  process.exitCode = 1
} finally {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGTERM')
    } catch {
      // already gone
    }
  }
  await new Promise((done) => setTimeout(done, 300))
  rmSync(work, { recursive: true, force: true })
}
