// @vitest-environment node
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { HOSTILE_URLS as HOSTILE } from '../testing/url-corpus.ts'
import { checkUrl, requireSafeUrl, safeUrl } from './safe-url.ts'

const RECORDING = /^\/_ringside\/v1\/calls\/\d+\/recording$/

describe('checkUrl', () => {
  it.each(HOSTILE)('refuses %j with a reason', (value) => {
    const verdict = checkUrl(value)
    expect(verdict.ok).toBe(false)
    if (!verdict.ok) expect(verdict.reason.length).toBeGreaterThan(5)
    // No place's paths make a hostile absolute value acceptable.
    expect(checkUrl(value, { paths: 'any', base: 'http://127.0.0.1:5173/' }).ok && !value.startsWith('/')).toBe(false)
  })

  it('refuses values that are not strings', () => {
    for (const value of [undefined, null, 42, {}, ['https://example.com/'], new URL('https://example.com/')]) expect(checkUrl(value).ok).toBe(false)
  })

  it.each([
    ['https://example.com', 'https://example.com/'],
    ['HTTP://Example.COM:8080/a?b=c#d', 'http://example.com:8080/a?b=c#d'],
    ['https://bücher.example/päth', 'https://xn--bcher-kva.example/p%C3%A4th'],
    ['http://127.0.0.1:5174/widget/?outcome=answer', 'http://127.0.0.1:5174/widget/?outcome=answer'],
    ['https://[::1]:8443/', 'https://[::1]:8443/'],
    ['https://example.com/a b', 'https://example.com/a%20b'],
  ])('accepts the absolute http(s) URL %j as %j', (value, href) => {
    expect(checkUrl(value)).toEqual({ ok: true, href, origin: new URL(href).origin })
  })

  it('names the scheme it refused', () => {
    expect(checkUrl('JaVaScRiPt:alert(1)')).toEqual({ ok: false, reason: 'uses the javascript: scheme; only http(s) URLs are accepted' })
  })

  it('accepts a path only where the caller lists it', () => {
    expect(checkUrl('/_ringside/v1/calls/12/recording').ok).toBe(false)
    expect(checkUrl('/_ringside/v1/calls/12/recording', { paths: [RECORDING] })).toEqual({ ok: true, href: '/_ringside/v1/calls/12/recording', origin: null })
    expect(checkUrl('/_ringside/v1/account', { paths: [RECORDING] }).ok).toBe(false)
    // the pattern sees the path as written, and a path the parser would rewrite is refused before it
    expect(checkUrl('/_ringside/v1/calls/12/recording/../../../account', { paths: [/^\/_ringside\/v1\/calls\//] }).ok).toBe(false)
    expect(checkUrl('/_ringside/v1/calls/%2e%2e/account', { paths: [/^\/_ringside\/v1\/calls\//] }).ok).toBe(false)
    expect(checkUrl('/a b', { paths: 'any', base: 'http://127.0.0.1/' }).ok).toBe(false)
  })

  it('resolves an accepted path against the base', () => {
    expect(checkUrl('/widget/?x=1', { paths: 'any', base: 'http://127.0.0.1:5173/page' })).toEqual({ ok: true, href: 'http://127.0.0.1:5173/widget/?x=1', origin: 'http://127.0.0.1:5173' })
    expect(checkUrl('/widget/', { paths: 'any' }).ok).toBe(false)
    expect(checkUrl('/widget/', { paths: 'any', base: 'about:blank' }).ok).toBe(false)
  })

  it('accepts only http(s) URLs for any string (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.string({ unit: 'grapheme' }), fc.constantFrom(...HOSTILE).chain((h) => fc.string().map((s) => h + s))), (value) => {
        const verdict = checkUrl(value, { paths: 'any', base: 'http://127.0.0.1:5173/' })
        if (!verdict.ok) return
        const url = new URL(verdict.href)
        expect(['http:', 'https:']).toContain(url.protocol)
        expect(url.username + url.password).toBe('')
        // what was accepted is accepted again unchanged (the check is stable on its own output)
        expect(safeUrl(verdict.href)).toBe(verdict.href)
      }),
      { numRuns: 300 },
    )
  }, 30_000)
})

describe('requireSafeUrl', () => {
  it('throws a sentence with what, the clipped value and the reason', () => {
    expect(() => requireSafeUrl('data:text/html,x', 'The widget URL')).toThrow('The widget URL "data:text/html,x" uses the data: scheme; only http(s) URLs are accepted.')
    expect(() => requireSafeUrl(`javascript:${'x'.repeat(500)}`, 'src')).toThrow(/^src "javascript:x+\.\.\." uses/)
  })
})
