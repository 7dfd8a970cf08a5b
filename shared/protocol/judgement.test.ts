import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { FAILURE_REPLY, LENIENCY_RULES, judgeWidgetMessage, type Judgement, type LeniencyRule } from './judgement.ts'
import { getEntry, validateMessage } from './catalogue.ts'
import { sampleMessage } from './testing/samples.ts'

const msg = (type: string, data?: unknown) => (data === undefined ? { type, messageId: 'w1' } : { type, messageId: 'w1', data })

function acted(judgement: Judgement) {
  if (!judgement.act) throw new Error(`ignored: ${judgement.reason}`)
  return judgement
}
const rules = (j: Judgement) => j.deviations.map((d) => [d.severity, d.rule ?? null, d.path])

describe('judgeWidgetMessage: act as the real CRM, report what the SDK types say', () => {
  it('acts on a valid message as received (same object), with no deviations', () => {
    const raw = sampleMessage('CALL_ENDED')
    const j = acted(judgeWidgetMessage(raw))
    expect(j.message).toBe(raw)
    expect(j.deviations).toEqual([])
  })

  it('demo shape: CALL_ENDED without engagementId is acted on; warning, rule engagement-by-call-id', () => {
    const j = acted(judgeWidgetMessage(msg('CALL_ENDED', { externalCallId: 'c1', callEndStatus: 'COMPLETED' })))
    expect(j.message).toMatchObject({ data: { externalCallId: 'c1', callEndStatus: 'COMPLETED' } })
    expect(rules(j)).toEqual([['warning', 'engagement-by-call-id', 'data.engagementId']])
    // the SDK's own types say otherwise
    expect(validateMessage(msg('CALL_ENDED', { externalCallId: 'c1' }), 'from-widget').ok).toBe(false)
  })

  it('demo shape: callEnded() with no payload at all applies to the current call (one finding: no data)', () => {
    const j = acted(judgeWidgetMessage(msg('CALL_ENDED')))
    expect(j.message).toMatchObject({ data: {} })
    expect(rules(j)).toEqual([['warning', 'current-call', 'data']])
  })

  it('demo shape: CALL_COMPLETED with hs_call_recording_url null and no hs_timestamp is acted on, values untouched', () => {
    const properties = { hs_call_body: 'notes', hs_call_duration: '4200', hs_call_status: 'COMPLETED', hs_call_recording_url: null }
    const j = acted(judgeWidgetMessage(msg('CALL_COMPLETED', { externalCallId: 'c1', engagementId: 7, hideWidget: false, engagementProperties: properties })))
    expect(j.message).toMatchObject({ data: { engagementProperties: properties } })
    expect(rules(j)).toEqual([
      ['warning', 'property-null-or-empty', 'data.engagementProperties.hs_call_recording_url'],
      ['warning', 'timestamp-missing', 'data.engagementProperties.hs_timestamp'],
    ])
  })

  it('engagementId null or 0 names no engagement (warning), a non-id is an error; both fall back to externalCallId', () => {
    for (const id of [null, 0, '']) {
      const j = acted(judgeWidgetMessage(msg('CALL_COMPLETED', { externalCallId: 'c1', engagementId: id })))
      expect((j.message as { data: object }).data).not.toHaveProperty('engagementId')
      expect(rules(j)).toEqual([['warning', 'engagement-by-call-id', 'data.engagementId']])
    }
    const j = acted(judgeWidgetMessage(msg('CALL_ENDED', { externalCallId: 'c1', engagementId: 'abc' })))
    expect(rules(j)).toEqual([['error', 'engagement-by-call-id', 'data.engagementId']])
  })

  it('numeric strings: coerced, a warning where the type says number, nothing where it allows strings', () => {
    const ended = acted(judgeWidgetMessage(msg('CALL_ENDED', { externalCallId: 'c1', engagementId: '42' })))
    expect(ended.message).toMatchObject({ data: { engagementId: 42 } })
    expect(rules(ended)).toEqual([['warning', 'numeric-string', 'data.engagementId']])
    const completed = acted(judgeWidgetMessage(msg('CALL_COMPLETED', { externalCallId: 'c1', engagementId: '42' })))
    expect(completed.message).toMatchObject({ data: { engagementId: 42 } })
    expect(completed.deviations).toEqual([])
    const started = acted(judgeWidgetMessage(msg('OUTGOING_CALL_STARTED', { externalCallId: 'c1', toNumber: '+1', callStartTime: '1700000000000' })))
    expect(started.message).toMatchObject({ data: { callStartTime: 1_700_000_000_000 } })
    const navigate = acted(judgeWidgetMessage(msg('NAVIGATE_TO_RECORD', { objectCoordinates: { portalId: '123', objectId: '5', objectTypeId: '0-1' } })))
    expect(navigate.message).toMatchObject({ data: { objectCoordinates: { portalId: 123, objectId: 5 } } })
  })

  it('property values that are numbers are passed on with a warning (hs_timestamp may be a number)', () => {
    const j = acted(judgeWidgetMessage(msg('CALL_COMPLETED', { externalCallId: 'c1', engagementProperties: { hs_timestamp: 1, hs_call_duration: 5000 } })))
    expect(j.message).toMatchObject({ data: { engagementProperties: { hs_call_duration: 5000 } } })
    expect(rules(j)).toEqual([['warning', 'property-not-string', 'data.engagementProperties.hs_call_duration']])
  })

  it('a property sent as undefined is a missing one: no finding, not passed on (postMessage keeps the key)', () => {
    const raw = structuredClone(msg('CALL_COMPLETED', { externalCallId: 'c1', engagementProperties: { hs_timestamp: 1, hs_call_body: undefined, hs_call_status: undefined } }))
    expect(Object.keys((raw.data as { engagementProperties: object }).engagementProperties)).toEqual(['hs_timestamp', 'hs_call_body', 'hs_call_status'])
    const j = acted(judgeWidgetMessage(raw))
    expect(j.deviations).toEqual([])
    expect((j.message as { data: { engagementProperties: object } }).data.engagementProperties).toStrictEqual({ hs_timestamp: 1 })
    // hs_timestamp sent as undefined is missing too: the usual warning for a missing one, no "Invalid input"
    const noTimestamp = acted(judgeWidgetMessage(msg('CALL_COMPLETED', { externalCallId: 'c1', engagementProperties: { hs_timestamp: undefined } })))
    expect(rules(noTimestamp)).toEqual([['warning', 'timestamp-missing', 'data.engagementProperties.hs_timestamp']])
  })

  it('an unknown callEndStatus is dropped with an error; the call still ends', () => {
    const j = acted(judgeWidgetMessage(msg('CALL_ENDED', { externalCallId: 'c1', engagementId: 3, callEndStatus: 'HUNG_UP' })))
    expect((j.message as { data: object }).data).not.toHaveProperty('callEndStatus')
    expect(rules(j)).toEqual([['error', 'unknown-end-status', 'data.callEndStatus']])
  })

  it('a deviation no rule covers still becomes a finding (warning when acted on)', () => {
    const j = acted(judgeWidgetMessage(msg('CALL_COMPLETED', { externalCallId: 'c1', hideWidget: 'false' })))
    expect(rules(j)).toEqual([['warning', null, 'data.hideWidget']])
  })

  it('ignores what the real CRM would ignore, with errors: unknown types, broken envelopes, unusable payloads', () => {
    const unknown = judgeWidgetMessage(msg('SOMETHING_NEW', {}))
    expect(unknown).toMatchObject({ act: false, reason: 'unknown type', type: 'SOMETHING_NEW' })
    expect(unknown.deviations).toEqual([expect.objectContaining({ severity: 'error' })])
    // no messageId: not a calling-SDK message at all (not-sdk.test.ts), dropped without a finding
    expect(judgeWidgetMessage({ type: 'CALL_ENDED' })).toMatchObject({ act: false, notSdk: true, deviations: [] })
    // externalCallId sent but unusable (a missing one is the older SDKs' shape: old-sdk.test.ts)
    const noId = judgeWidgetMessage(msg('OUTGOING_CALL_STARTED', { toNumber: '+1', externalCallId: 42 }))
    expect(noId).toMatchObject({ act: false, type: 'OUTGOING_CALL_STARTED' })
    expect(noId.deviations.every((d) => d.severity === 'error')).toBe(true)
    expect(judgeWidgetMessage(msg('RESIZE_WIDGET', { width: 'wide', height: 10 }))).toMatchObject({ act: false })
  })

  it('never throws on hostile input', () => {
    const hostile = new Proxy({}, { get: () => { throw new Error('boom') }, getPrototypeOf: () => { throw new Error('boom') } })
    expect(judgeWidgetMessage(hostile)).toMatchObject({ act: false })
    expect(judgeWidgetMessage(msg('CALL_ENDED', 'text'))).toMatchObject({ act: false })
  })

  it('a finding quotes a huge value short: every deviation text stays a sentence, whatever the widget sent', () => {
    // Shapes postMessage can deliver (what the widget serialized, each string written out in full).
    const big = 'q'.repeat(1_000_000)
    const deep: Record<string, unknown> = {}
    let at = deep
    for (let i = 0; i < 1_000; i += 1) at = at.d = { s: 'x'.repeat(100) }
    const messages = [
      msg('CALL_ENDED', { externalCallId: 'c1', engagementId: big, callEndStatus: big }),
      msg('CALL_ENDED', { externalCallId: 'c1', engagementId: deep }),
      msg('CALL_ENDED', { externalCallId: 'c1', engagementId: new Array(1_000_000).fill(7) }),
      msg('CALL_COMPLETED', { externalCallId: 'c1', engagementId: 5, engagementProperties: big }),
    ]
    for (const message of messages) {
      const judgement = judgeWidgetMessage(message)
      expect(judgement.deviations.length).toBeGreaterThan(0)
      for (const deviation of judgement.deviations) expect(deviation.message.length, deviation.message.slice(0, 80)).toBeLessThan(400)
    }
  })

  it('every failure reply is a host → widget type of the catalogue', () => {
    for (const [request, reply] of Object.entries(FAILURE_REPLY)) {
      expect(getEntry(request)?.acceptedFrom).toContain('widget')
      expect(getEntry(reply)?.direction).toBe('host-to-widget')
    }
  })

  it('the protocol README has a row with evidence for every leniency rule', () => {
    const readme = readFileSync(resolve(import.meta.dirname, 'README.md'), 'utf8')
    for (const rule of Object.keys(LENIENCY_RULES) as LeniencyRule[]) {
      expect(readme, rule).toMatch(new RegExp(`^\\| \`${rule}\` \\|`, 'm'))
      expect(LENIENCY_RULES[rule].evidence.length).toBeGreaterThan(40)
    }
  })
})
