// @vitest-environment node
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkUrl, MAX_URL_LENGTH, requireSafeUrl, safeUrl } from './safe-url.ts'

const RECORDING = /^\/_ringside\/v1\/calls\/\d+\/recording$/

/** Values that must never become a src or href, whatever place asks. */
const HOSTILE = [
  'javascript:alert(1)',
  'JaVaScRiPt:alert(1)',
  'javascript://%0aalert(1)',
  ' javascript:alert(1)',
  '\u0000javascript:alert(1)',
  '\u0001javascript:alert(1)',
  'java\tscript:alert(1)',
  'java\nscript:alert(1)',
  'java\rscript:alert(1)',
  '\u00a0javascript:alert(1)',
  '\ufeffjavascript:alert(1)',
  'javascript\u200b:alert(1)',
  'https://example.com/\u202egnp.exe',
  'jav&#x09;ascript:alert(1)',
  'data:text/html,<script>alert(1)</script>',
  'DATA:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==',
  'data:image/svg+xml,<svg onload=alert(1)>',
  'vbscript:msgbox(1)',
  'blob:http://127.0.0.1/0d8c5f1e-2d2a-4b8e-a1c2-7f1b1d6d1e11',
  'file:///etc/passwd',
  'about:blank',
  'mailto:a@example.com',
  'ftp://example.com/',
  'ws://example.com/',
  'chrome://settings',
  '//other.site/',
  '///other.site/',
  '\\\\other.site\\x',
  '/\\other.site/',
  'https:\\\\other.site',
  'http:other.site',
  'http:/other.site',
  'https://user:pass@example.com/',
  'https://good.example@other.site/',
  'http://',
  'https://[::1',
  'other.site/path',
  './relative',
  '../relative',
  '?query',
  '#fragment',
  '',
  `https://example.com/${'a'.repeat(MAX_URL_LENGTH)}`,
  'https://example.com/ ',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
]

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
