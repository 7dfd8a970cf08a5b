/**
 * The saved traffic file: what parseTrafficFile accepts (this format and the inspector's
 * earlier export), and the clear error of every kind of malformed file.
 */
import { boundBody, boundMessage, isTruncatedBody, parseTrafficFile, stringifyTrafficFile, TRAFFIC_LIMITS, type TrafficFile } from './traffic-file.ts'
import { TrafficBuilder } from './testing/fixtures.ts'

const oneCall = () => new TrafficBuilder().handshake().call('call-1', 501).file({ findings: [{ seq: 6, severity: 'warning', rule: 'deprecated', message: 'old field' }] })

function error(text: string): string {
  const result = parseTrafficFile(text)
  if (result.ok) throw new Error('expected an error')
  return result.error
}

describe('parseTrafficFile', () => {
  it('reads back what stringifyTrafficFile wrote', () => {
    const file = oneCall()
    const result = parseTrafficFile(stringifyTrafficFile(file))
    expect(result).toEqual({ ok: true, file: JSON.parse(JSON.stringify(file)) as TrafficFile })
  })

  it("reads the inspector's earlier export (entries, ISO times, no requests)", () => {
    const legacy = {
      exportedAt: '2026-01-05T10:00:00.000Z',
      widgetUrl: 'http://127.0.0.1:5174/widget/',
      entries: [
        { seq: 1, time: '2026-01-05T10:00:00.000Z', direction: 'out', type: 'SYNC', valid: true, linkedTo: [2], message: { type: 'SYNC', messageId: 'a' } },
        { seq: 2, time: '2026-01-05T10:00:00.250Z', direction: 'in', type: 'SYNC_ACK', valid: true, linkedTo: [1], message: { type: 'SYNC_ACK', messageId: 'a' } },
      ],
      findings: [{ id: 1, rule: 'before-handshake', severity: 'error', seq: 2, message: 'early' }],
      openCalls: [],
    }
    const result = parseTrafficFile(JSON.stringify(legacy))
    if (!result.ok) throw new Error(result.error)
    expect(result.file.requests).toEqual([])
    expect(result.file.messages.map((m) => [m.seq, m.time, m.linkedTo])).toEqual([
      [1, Date.parse('2026-01-05T10:00:00.000Z'), [2]],
      [2, Date.parse('2026-01-05T10:00:00.250Z'), [1]],
    ])
    expect(result.file.findings).toEqual([{ rule: 'before-handshake', severity: 'error', seq: 2, message: 'early' }])
    expect(result.file.widgetUrl).toBe('http://127.0.0.1:5174/widget/')
  })

  it('says what is wrong and where', () => {
    expect(error('{"format": "ringside-traffic", ')).toMatch(/^Not a usable Ringside traffic file: it is not JSON/)
    expect(error('[1, 2]')).toMatch(/it is not a JSON object/)
    expect(error('{"hello": 1}')).toMatch(/format: expected "ringside-traffic"/)
    expect(error('{"format": "har"}')).toMatch(/format: expected "ringside-traffic", got "har"/)
    expect(error(JSON.stringify({ ...oneCall(), version: 2 }))).toMatch(/version: expected 1, got 2/)
    const file = oneCall()
    ;(file.messages[2] as { direction: string }).direction = 'sideways'
    expect(error(JSON.stringify(file))).toMatch(/messages\[2\]\.direction: /)
    const noStatus = oneCall()
    delete (noStatus.requests[1] as Partial<typeof noStatus.requests[1]>).status
    expect(error(JSON.stringify(noStatus))).toMatch(/requests\[1\]\.status: /)
    const badTime = oneCall() as unknown as { messages: Array<{ time: unknown }> }
    badTime.messages[0]!.time = 'yesterday'
    expect(error(JSON.stringify(badTime))).toMatch(/messages\[0\]\.time: .*not a date/)
  })

  it('refuses a repeated seq or request id (a link, a cause or a finding must name one entry)', () => {
    const file = oneCall()
    file.messages[3]!.seq = file.messages[1]!.seq
    expect(error(JSON.stringify(file))).toBe('Not a usable Ringside traffic file: messages[3].seq: 2 is also the seq of messages[1]')
    const requests = oneCall()
    requests.requests[2]!.id = requests.requests[0]!.id
    expect(error(JSON.stringify(requests))).toMatch(/requests\[2\]\.id: 1 is also the id of requests\[0\]/)
  })

  it('keeps to its budgets', () => {
    expect(error(' '.repeat(TRAFFIC_LIMITS.maxChars + 1))).toMatch(/more than the \d+ allowed/)
    const many = new TrafficBuilder().file()
    const message = { seq: 0, time: 0, direction: 'in', type: 'X', message: {} }
    many.messages = Array.from({ length: TRAFFIC_LIMITS.maxMessages + 1 }, (_, seq) => ({ ...message, seq })) as TrafficFile['messages']
    expect(error(JSON.stringify(many))).toMatch(/^Not a usable Ringside traffic file: messages: Too big/)
  })

  it('never lets a name in the file reach Object.prototype', () => {
    const text = JSON.stringify(oneCall()).replace('"messages":[', '"__proto__":{"polluted":true},"messages":[{"seq":999,"time":1,"direction":"in","type":"X","message":{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}},')
    const result = parseTrafficFile(text)
    if (!result.ok) throw new Error(result.error)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    const payload = result.file.messages[0]!.message as object
    expect(Object.getPrototypeOf(payload)).toBe(Object.prototype)
    expect(Object.prototype.hasOwnProperty.call(payload, '__proto__')).toBe(false)
  })
})

describe('boundBody', () => {
  it('keeps a body within the budget as it is and cuts a longer one to a marked preview', () => {
    const small = { id: '1' }
    expect(boundBody(small)).toBe(small)
    const big = { text: 'x'.repeat(100) }
    const cut = boundBody(big, 20)
    expect(isTruncatedBody(cut)).toBe(true)
    expect(cut).toEqual({ 'ringside:truncated': true, chars: JSON.stringify(big).length, preview: `{"text":"${'x'.repeat(8)}…"}` })
    const cyclic: Record<string, unknown> = {}
    cyclic.self = cyclic
    expect(boundBody(cyclic, 5)).toMatchObject({ 'ringside:truncated': true })
  })
})

describe('huge messages in a file', () => {
  const file = (message: unknown, extra: Record<string, unknown> = {}) =>
    JSON.stringify({ format: 'ringside-traffic', version: 1, exportedAt: '2026-01-05T10:00:20.000Z', messages: [{ seq: 1, time: 1, direction: 'in', type: 'CALL_ENDED', message, ...extra }], requests: [] })

  it('loads an entry the recorder truncated, with its size', () => {
    const truncated = { chars: 16 * 1024 * 1024, keptChars: 65536 }
    const result = parseTrafficFile(file({ type: 'CALL_ENDED', data: { note: 'x…' } }, { truncated }))
    expect(result.ok && result.file.messages[0]).toMatchObject({ message: { type: 'CALL_ENDED', data: { note: 'x…' } }, truncated })
  })

  it('bounds a huge message a file holds as the live log would, and every body', () => {
    const big = 'y'.repeat(TRAFFIC_LIMITS.maxMessageChars * 4)
    const text = JSON.stringify({
      ...JSON.parse(file({ type: 'CALL_ENDED', messageId: 'w1', data: { note: big } })),
      requests: [{ id: 1, time: 1, method: 'POST', path: '/x', status: 200, durationMs: 1, requestBody: { 'ringside:truncated': true, chars: 9, preview: big } }],
    })
    const result = parseTrafficFile(text)
    if (!result.ok) throw new Error(result.error)
    const [message] = result.file.messages
    expect(message!.truncated).toEqual({ chars: JSON.stringify({ type: 'CALL_ENDED', messageId: 'w1', data: { note: big } }).length, keptChars: TRAFFIC_LIMITS.maxMessageChars })
    expect(message!.message).toMatchObject({ type: 'CALL_ENDED', messageId: 'w1' })
    expect(JSON.stringify(result.file.requests[0]!.requestBody).length).toBeLessThan(TRAFFIC_LIMITS.maxBodyChars + 100)
  })

  it('a malformed truncated note is refused with where it is', () => {
    const result = parseTrafficFile(file({ type: 'X' }, { truncated: { chars: 'big' } }))
    expect(result.ok ? '' : result.error).toMatch(/messages\[0\]\.truncated\.chars/)
  })
})

describe('what the log keeps of a message, the file reads back', () => {
  it('long texts and too many deviations are cut to the file\'s budgets, so an export always imports', () => {
    const big = 'r'.repeat(TRAFFIC_LIMITS.maxTextChars * 10)
    const deviations = Array.from({ length: 300 }, (_, i) => ({ severity: 'error' as const, path: `data.${big}`, message: `field ${i}: ${big}` }))
    const { kept, chars } = boundMessage({ message: { type: 'X' }, reason: big, deprecation: big, deviations })
    expect(kept.reason!.length).toBe(TRAFFIC_LIMITS.maxTextChars)
    expect(kept.reason!.endsWith('…')).toBe(true)
    expect(kept.deviations).toHaveLength(100)
    expect(chars).toBeLessThan(103 * 2 * TRAFFIC_LIMITS.maxTextChars)
    const file = { format: 'ringside-traffic', version: 1, exportedAt: 'x', messages: [{ seq: 1, time: 1, direction: 'in', type: 'X', ...kept }], requests: [] }
    const result = parseTrafficFile(JSON.stringify(file))
    expect(result.ok ? '' : result.error).toBe('')
  })

  it('a message that fits keeps its texts and its object', () => {
    const entry = { message: { type: 'X' }, reason: 'short', deviations: [{ severity: 'warning' as const, path: 'data', message: 'm' }] }
    expect(boundMessage(entry).kept).toBe(entry)
  })
})
