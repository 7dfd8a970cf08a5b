import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { XSS_CORPUS } from '../../shared/testing/xss-corpus.ts'
import { callsTraffic, TrafficBuilder } from '../../shared/traffic/testing/fixtures.ts'
import { stringifyTrafficFile } from '../../shared/traffic/traffic-file.ts'
import { defaultReportPath, runReport, trafficReportModel } from './traffic-report.ts'

describe('ringside report <traffic-file>', () => {
  let dir: string
  let stderr: string[]
  let stdout: string[]
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ringside-report-'))
    stderr = []
    stdout = []
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => (stderr.push(String(chunk)), true))
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => (stdout.push(String(chunk)), true))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('draws the whole traffic and each call alone into one self-contained file beside the traffic file', async () => {
    const file = join(dir, 'two-calls.json')
    writeFileSync(file, stringifyTrafficFile(callsTraffic(2)))
    expect(await runReport(file, {}, 'test')).toBe(0)
    const out = join(dir, 'two-calls.html')
    expect(defaultReportPath(file)).toBe(out)
    expect(stdout.join('')).toContain(`HTML report: file://${out}`)
    const html = readFileSync(out, 'utf8')
    expect(html).toContain('<title>Traffic: two-calls.json</title>')
    expect(html).toContain('All traffic (2 calls)')
    expect(html.match(/<div class="ladder" role="figure"/g)).toHaveLength(3)
    expect(html).toContain('OUTGOING_CALL_STARTED')
    expect(html).toContain('POST /crm/v3/objects/calls')
    expect(html).toContain('call-2')
    // Three ladders in one document: each id names one element, and each ladder's label is its own.
    const ids = [...html.matchAll(/\sid="([^"]+)"/g)].map((m) => m[1])
    expect(new Set(ids).size).toBe(ids.length)
    for (const [, list] of html.matchAll(/aria-labelledby="([^"]+)"/g)) for (const id of list!.split(' ')) expect(ids).toContain(id)
    expect(html).not.toMatch(/<script|<link|https?:\/\/(?!www\.w3\.org\/2000\/svg)/)
  })

  it('lists each finding with the arrow it is pinned on, and the call\'s ring and talk time', () => {
    const b = new TrafficBuilder().handshake().call('call-1', 501, { ringMs: 3000, talkMs: 9000 })
    const bad = b.raw('in', { type: 'HANG_UP', messageId: 'x' }, { valid: false, reason: 'unknown type' })
    const model = trafficReportModel(b.file({ findings: [{ seq: bad.seq, severity: 'error', rule: 'unknown-type', title: 'Unknown message type', message: 'HANG_UP is no SDK message' }] }), 'f.json', 'test')
    expect(model.verdict).toEqual({ kind: 'not-ready', text: '1 error, 0 warnings' })
    expect(model.sections[0]!.findings).toContain(`error: HANG_UP (#${bad.seq}): Unknown message type: HANG_UP is no SDK message`)
    const call = model.sections[1]!
    expect(call.meta).toEqual(expect.arrayContaining([['externalCallId', 'call-1'], ['Engagement', '501']]))
    expect(call.meta!.find(([label]) => label === 'Ring time')).toBeDefined()
  })

  it('a malformed file gets one clear sentence and exit 2, and nothing is written', async () => {
    const cases: Array<[string, RegExp]> = [
      ['{ "format": "ringside-traffic", ', /is not JSON/],
      ['[1, 2]', /not a JSON object/],
      [JSON.stringify({ format: 'har', version: 1 }), /format: expected "ringside-traffic", got "har"/],
      [JSON.stringify({ ...callsTraffic(1), messages: [{ seq: 1, time: 1, direction: 'sideways', type: 'SYNC', message: {} }] }), /messages\[0\]\.direction/],
    ]
    for (const [text, why] of cases) {
      stderr.length = 0
      const file = join(dir, 'bad.json')
      writeFileSync(file, text)
      expect(await runReport(file, {}, 'test'), text).toBe(2)
      const said = stderr.join('')
      expect(said).toMatch(/^ringside report: .*bad\.json: Not a usable Ringside traffic file: /)
      expect(said).toMatch(why)
      expect(said).toContain('Nothing was written.')
      expect(existsSync(join(dir, 'bad.html'))).toBe(false)
    }
    expect(await runReport(join(dir, 'missing.json'), {}, 'test')).toBe(2)
    expect(stderr.join('')).toMatch(/cannot read .*missing\.json: ENOENT/)
  })

  it('hostile traffic stays text in the report', async () => {
    const b = new TrafficBuilder().handshake()
    // Types that are names of Object.prototype's members.
    for (const type of ['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf']) b.raw('in', { type, messageId: type, data: { createEngagement: true } })
    for (const payload of XSS_CORPUS) b.request('GET', `/crm/v3/objects/contacts/${payload}`, 200, b.raw('in', { type: payload, messageId: payload }), { responseBody: payload })
    const file = join(dir, 'hostile.json')
    writeFileSync(file, stringifyTrafficFile(b.file({ widgetUrl: XSS_CORPUS[0], source: XSS_CORPUS[1] })))
    const out = join(dir, 'out', 'report.html')
    expect(await runReport(file, { html: out }, 'test')).toBe(0)
    const html = readFileSync(out, 'utf8')
    for (const item of XSS_CORPUS.filter((i) => /[<>"]/.test(i))) expect(html).not.toContain(item)
    expect(html).toContain('<div class="ladder" role="figure"')
  })
})
