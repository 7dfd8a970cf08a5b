#!/usr/bin/env node
// The start-and-call smoke (.ci/run runs it on the older supported Node line): what a newcomer does first, under the
// `node` and `npm` that come first on PATH.
//   1. `npm start -- --port <free pair> --data <new folder>` answers GET /_ringside/v1/server (deadline 60 s);
//   2. a call is created with the private app token, associated with contact 1 (POST /crm/v3/objects/calls,
//      association type 194, call to contact), as a calling widget's backend does when the call starts;
//   3. it is logged: PATCH its status COMPLETED, duration and notes, as the backend does when the call ends;
//   4. it is read back (GET with ?associations=contacts) with those properties and the contact.
//
//   node tools/test/start-smoke.mjs [--major 22] [--report reports/smoke-node22.json]
// --major fails the smoke when another Node line runs it (a PATH that did not take). Prints each step and its time;
// the report is {"passed":1,"failed":0} or the reverse (one check in the totals of tools/test/summary.mjs). Exits 1 on
// the first failure, after stopping the server and removing its data folder.
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { freePortPair } from '../../emulator/testing/free-ports.mjs'

const { values } = parseArgs({ options: { major: { type: 'string' }, report: { type: 'string' } } })
const root = resolve(import.meta.dirname, '../..')
const TOKEN = 'pat-local'
const START_DEADLINE_MS = 60_000
const REQUEST_DEADLINE_MS = 10_000
const t0 = Date.now()
const step = (text) => console.log(`smoke: ${text} (${((Date.now() - t0) / 1000).toFixed(1)}s)`)
const expect = (condition, message) => {
  if (!condition) throw new Error(message)
}

/** One API request with the token, on a connection of its own, within its deadline; the parsed JSON answer. */
async function api(base, method, path, body) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, connection: 'close', ...(body && { 'content-type': 'application/json' }) },
    body: body && JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_DEADLINE_MS),
  })
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null, text }
}

async function waitForServer(base, server, output) {
  const until = Date.now() + START_DEADLINE_MS
  while (Date.now() < until) {
    if (server.exitCode !== null) throw new Error(`npm start exited ${server.exitCode} before it answered:\n${output()}`)
    try {
      const response = await fetch(`${base}/_ringside/v1/server`, { headers: { connection: 'close' }, signal: AbortSignal.timeout(2_000) })
      if (response.ok) return response.json()
    } catch {
      // not listening yet
    }
    await new Promise((done) => setTimeout(done, 200))
  }
  throw new Error(`npm start did not answer ${base}/_ringside/v1/server within its ${START_DEADLINE_MS / 1000} s deadline:\n${output()}`)
}

const work = mkdtempSync(join(tmpdir(), 'ringside-smoke-'))
let server
let passed = false
try {
  step(`Node ${process.version}, in ${root}`)
  if (values.major !== undefined) expect(process.versions.node.split('.')[0] === values.major, `this is Node ${process.version}, not Node ${values.major}: the pinned Node is not first on PATH`)

  const port = await freePortPair()
  const base = `http://127.0.0.1:${port}`
  step(`1. npm start -- --port ${port} --data <new folder>`)
  let output = ''
  server = spawn('npm', ['start', '--', '--port', String(port), '--data', join(work, 'data')], { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], detached: true })
  server.stdout.on('data', (chunk) => (output += chunk))
  server.stderr.on('data', (chunk) => (output += chunk))
  const info = await waitForServer(base, server, () => output)
  expect(info.mode === 'server', `GET /_ringside/v1/server answered ${JSON.stringify(info)}`)
  step(`   answered at ${base}/`)

  step('2. create a call to contact 1 (POST /crm/v3/objects/calls)')
  const title = `Smoke call on Node ${process.versions.node}`
  const created = await api(base, 'POST', '/crm/v3/objects/calls', {
    properties: { hs_call_title: title, hs_call_direction: 'OUTBOUND', hs_call_status: 'IN_PROGRESS', hs_call_to_number: '+16175550106', hs_call_from_number: '+16175550100', hs_timestamp: new Date().toISOString() },
    associations: [{ to: { id: '1' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: 194 }] }],
  })
  expect(created.status === 201 && typeof created.body?.id === 'string', `creating the call answered ${created.status}: ${created.text}`)
  const id = created.body.id

  step(`3. log it (PATCH /crm/v3/objects/calls/${id}: COMPLETED, 65 s, notes)`)
  const logged = await api(base, 'PATCH', `/crm/v3/objects/calls/${id}`, { properties: { hs_call_status: 'COMPLETED', hs_call_duration: '65000', hs_call_body: 'Logged by the start smoke' } })
  expect(logged.status === 200, `logging the call answered ${logged.status}: ${logged.text}`)

  step(`4. read it back (GET /crm/v3/objects/calls/${id}?associations=contacts)`)
  const read = await api(base, 'GET', `/crm/v3/objects/calls/${id}?properties=hs_call_title,hs_call_status,hs_call_duration,hs_call_body&associations=contacts`)
  expect(read.status === 200, `reading the call answered ${read.status}: ${read.text}`)
  const { properties, associations } = read.body
  expect(
    properties.hs_call_title === title && properties.hs_call_status === 'COMPLETED' && properties.hs_call_duration === '65000' && properties.hs_call_body === 'Logged by the start smoke',
    `the call read back is not the one logged: ${read.text}`,
  )
  expect(associations?.contacts?.results?.some((contact) => contact.id === '1'), `the call read back is not associated with contact 1: ${read.text}`)
  passed = true
  step('passed')
} catch (error) {
  console.error(`smoke: FAILED: ${error.message}`)
} finally {
  // npm start runs in a process group of its own (detached): stop the group, npm and the server under it.
  if (server && server.exitCode === null) {
    try {
      process.kill(-server.pid, 'SIGTERM')
    } catch {
      // already gone
    }
    await new Promise((done) => {
      const timer = setTimeout(() => {
        try {
          process.kill(-server.pid, 'SIGKILL')
        } catch {
          // already gone
        }
        done()
      }, 5_000)
      server.once('close', () => {
        clearTimeout(timer)
        done()
      })
    })
  }
  rmSync(work, { recursive: true, force: true })
  if (values.report) {
    mkdirSync(dirname(resolve(values.report)), { recursive: true })
    writeFileSync(resolve(values.report), JSON.stringify(passed ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 }) + '\n')
  }
}
process.exitCode = passed ? 0 : 1
