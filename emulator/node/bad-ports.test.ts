import { describe, expect, it } from 'vitest'
import { firstAllowedBlock, isRestrictedPort, refusedPortSentence, restrictedPortAmong } from './bad-ports.ts'

describe('the ports Chromium refuses (net::ERR_UNSAFE_PORT)', () => {
  it('knows the well-known ones and leaves the ports around them', () => {
    for (const port of [22, 25, 6000, 6665, 6669, 6697, 10080]) expect(isRestrictedPort(port), String(port)).toBe(true)
    for (const port of [80, 443, 3000, 4173, 5173, 5999, 6001, 6670, 8080, 10081, 4190, 6679]) expect(isRestrictedPort(port), String(port)).toBe(false)
  })

  it('names the first refused port of a block, and finds the next block Chromium loads', () => {
    expect(restrictedPortAmong([5998, 5999, 6000])).toBe(6000)
    expect(restrictedPortAmong([4173, 4174, 4175])).toBeNull()
    expect(firstAllowedBlock(5998, 3)).toBe(6001)
    expect(firstAllowedBlock(6663, 3)).toBe(6670)
    expect(firstAllowedBlock(4173, 3)).toBe(4173)
  })

  it('says which role of a --port block lands on a refused port, and a --port that works', () => {
    expect(refusedPortSentence(5999, ['the harness', 'the widget origin'])).toBe(
      '--port 5999 puts the widget origin on port 6000, which Chromium refuses to load (net::ERR_UNSAFE_PORT); choose another port, e.g. --port 6001.',
    )
    expect(refusedPortSentence(6665, ['the harness', 'the widget origin', 'the hostile origin'])).toContain('puts the harness on port 6665')
    expect(refusedPortSentence(5173, ['the harness', 'the widget origin'])).toBeNull()
  })
})
