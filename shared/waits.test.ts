// @vitest-environment node
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parseWaits, showMs, WAITS, waitMs, waitSentence, WaitExpired, within } from './waits.ts'

describe('the waits table and $RINGSIDE_WAITS', () => {
  it('every wait has a bound, a sentence and an exit code the CLI documents (0, 1, 2, or none: the command goes on)', () => {
    for (const [name, wait] of Object.entries(WAITS)) {
      expect(wait.ms, name).toBeGreaterThan(0)
      expect(wait.sentence.length, name).toBeGreaterThan(10)
      expect([null, 0, 1, 2], name).toContain(wait.exit)
    }
  })

  it('docs/waits.md lists every wait with its default bound', () => {
    const page = readFileSync(new URL('../docs/waits.md', import.meta.url), 'utf8')
    for (const [name, wait] of Object.entries(WAITS)) expect(page, name).toContain(`| \`${name}\` | ${showMs(wait.ms)} |`)
  })

  it('sets bounds by name, and refuses an unknown name or a bound out of range with one sentence', () => {
    expect(parseWaits(undefined)).toEqual({})
    expect(parseWaits(' journey-step=3000, widget-page=1500 ')).toEqual({ 'journey-step': 3000, 'widget-page': 1500 })
    expect(parseWaits('toString=5')).toMatch(/^RINGSIDE_WAITS: "toString" is not a wait; the waits are widget-page, /)
    expect(parseWaits('journey=5s')).toBe('RINGSIDE_WAITS: journey must be a whole number of milliseconds from 100 to 600000, got "5s"')
    expect(parseWaits('journey=10')).toMatch(/from 100 to 600000, got "10"/)
    expect(waitMs('journey', { RINGSIDE_WAITS: 'journey=2000' })).toBe(2000)
    expect(waitMs('journey', { RINGSIDE_WAITS: 'nonsense' })).toBe(WAITS.journey.ms)
  })

  it('fills a sentence with the bound and the fields; leaves an unknown field as it is', () => {
    expect(showMs(10_000)).toBe('10 s')
    expect(showMs(1_500)).toBe('1.5 s')
    expect(showMs(250)).toBe('250 ms')
    expect(waitSentence('journey-message', 10_000, { missing: 'did not send OUTGOING_CALL_STARTED', after: 'DIAL_NUMBER' })).toBe(
      'the widget answered the handshake, then did not send OUTGOING_CALL_STARTED within 10 s after DIAL_NUMBER',
    )
    expect(waitSentence('open-server', 5_000)).toContain('{url}')
  })

  it('within: the work when it ends in time, else WaitExpired with the sentence at the bound', async () => {
    expect(await within(Promise.resolve(7), 'journey', 1_000)).toBe(7)
    const never = new Promise<never>(() => undefined)
    const error = await within(never, 'admin-request', 150, { url: 'http://127.0.0.1:5173', request: 'POST /_ringside/v1/import' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(WaitExpired)
    expect((error as WaitExpired).message).toBe('the emulator at http://127.0.0.1:5173 did not answer POST /_ringside/v1/import within 150 ms; it may still apply it: look with `ringside export`')
  })
})
