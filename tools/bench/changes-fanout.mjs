// Section "Change stream fan-out": what open change streams cost a write. The
// `npm start` server runs in a child process (--no-pages, a scratch data
// folder); this process opens N streams of GET /_ringside/v1/changes on plain
// sockets, reads them, and makes single ticket creates, one at a time, with 0
// streams (the baseline, in the same run) and with N. Two figures per N: the
// server's CPU time per write (user + system, from /proc/<pid>/stat), whose
// growth over the baseline divided by N is the cost per stream; and the
// median time to the 201 (which also pays for this process reading N streams
// on the same cores). Run alone: `node tools/bench/changes-fanout.mjs`.
import { readFileSync } from 'node:fs'
import { Agent, request } from 'node:http'
import { connect } from 'node:net'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import { percentile } from './table.mjs'

const STREAM_COUNTS = [0, 100, 1000]
const WRITES = 200
const WARMUP_WRITES = 10

/** Open `count` streams; resolves once each has read its `ready` (every later frame is read and dropped). */
async function openStreams(port, count) {
  const sockets = []
  const opened = []
  for (let i = 0; i < count; i++) {
    opened.push(
      new Promise((resolveReady, reject) => {
        const socket = connect(port, '127.0.0.1', () => socket.write(`GET /_ringside/v1/changes HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n\r\n`))
        let head = ''
        const onData = (chunk) => {
          head += chunk.toString('latin1')
          if (!head.startsWith('HTTP/1.1 200')) return head.length > 12 ? reject(new Error(`stream ${i}: ${head.slice(0, 200)}`)) : undefined
          if (!head.includes('event: ready')) return
          socket.off('data', onData)
          socket.on('data', () => {})
          resolveReady()
        }
        socket.on('data', onData)
        socket.on('error', reject)
        sockets.push(socket)
      }),
    )
  }
  await Promise.all(opened)
  return { close: () => sockets.forEach((socket) => socket.destroy()) }
}

/** CPU time (user + system) the process has used, in ms. */
function cpuMs(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')
  // utime and stime are fields 14 and 15 of the whole line, in clock ticks (100 per second on Linux).
  return (Number(fields[11]) + Number(fields[12])) * 10
}

/** Create one ticket; resolves with the time to its 201, in ms. */
function createTicket(port, agent, n) {
  const body = JSON.stringify({ properties: { subject: `Fan-out ${n}`, hs_pipeline_stage: '1' } })
  const started = performance.now()
  return new Promise((resolveTime, reject) => {
    const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/crm/v3/objects/tickets', agent, headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' } }, (res) => {
      res.resume()
      res.on('end', () => (res.statusCode === 201 ? resolveTime(performance.now() - started) : reject(new Error(`create: HTTP ${res.statusCode}`))))
    })
    req.on('error', reject)
    req.end(body)
  })
}

async function measureWrites(port, pid, agent) {
  for (let n = 0; n < WARMUP_WRITES; n++) await createTicket(port, agent, n)
  const samples = []
  const cpuBefore = cpuMs(pid)
  for (let n = 0; n < WRITES; n++) samples.push(await createTicket(port, agent, n))
  return { median: percentile(samples.sort((a, b) => a - b), 50), cpuPerWrite: (cpuMs(pid) - cpuBefore) / WRITES }
}

const round = (x) => Math.round(x * 100) / 100

export async function changesFanoutSection() {
  const started = Date.now()
  // The server tests' helpers: `npm start` as a child process, free ports, scratch folders.
  const { freePortPair, removeScratchDirs, runCli, scratchDir, waitForServer } = await tsImport('../../emulator/node/test/support.ts', import.meta.url)
  const port = await freePortPair()
  const run = runCli(['--no-pages', '--fresh', '--data', scratchDir('fanout'), '--port', String(port)])
  await waitForServer(`http://127.0.0.1:${port}`, run)
  const server = { port, pid: run.child.pid }
  const writes = new Agent({ keepAlive: true, maxSockets: 1 })
  const rows = []
  const results = {}
  try {
    let baseline
    for (const count of STREAM_COUNTS) {
      const streams = await openStreams(server.port, count)
      try {
        const { median, cpuPerWrite } = await measureWrites(server.port, server.pid, writes)
        baseline ??= { median, cpuPerWrite }
        const perStream = count > 0 ? ((cpuPerWrite - baseline.cpuPerWrite) * 1000) / count : null
        results[count] = { write_median_ms: round(median), server_cpu_per_write_ms: round(cpuPerWrite), ...(perStream !== null && { server_cpu_per_stream_us: round(perStream) }) }
        rows.push([count.toLocaleString('en'), `${cpuPerWrite.toFixed(2)} ms`, perStream === null ? 'baseline' : `${perStream.toFixed(1)} µs`, `${median.toFixed(2)} ms`])
      } finally {
        streams.close()
      }
      // Let the server hear the closed streams before the next count.
      await new Promise((r) => setTimeout(r, 300))
    }
  } finally {
    writes.destroy()
    run.child.kill('SIGTERM')
    await run.exited
    removeScratchDirs()
  }
  return {
    title: 'Change stream fan-out: a write with N open streams (server mode)',
    header: ['open streams', 'server CPU per write', 'per stream (over 0)', 'write median (to the 201)'],
    rows,
    notes: [
      `Single ticket creates over HTTP, one at a time, ${WRITES} after ${WARMUP_WRITES} of warm-up per row; each is journaled and fsynced before its 201, and written to every open stream.`,
      'Server CPU from /proc/<pid>/stat (10 ms ticks, over the whole row). The streams are read by the bench process, on the same cores; 1,000 is the server\'s cap on open streams.',
      `${((Date.now() - started) / 1000).toFixed(1)} s incl. setup.`,
    ],
    results,
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { printSection } = await import('./table.mjs')
  const section = await changesFanoutSection()
  printSection(section)
  console.log(JSON.stringify(section.results))
}
