import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, DIAL_SCHEMES, PRODUCT_PAGES } from './page-policy.ts'

const directive = (csp: string, name: string) => csp.split(';').map((part) => part.trim().split(/\s+/)).find(([key]) => key === name)?.slice(1) ?? []
const page = (name: string) => PRODUCT_PAGES.find((p) => p.name === name)!

describe('the harness page frames the calling widget', () => {
  const csp = contentSecurityPolicy(page('harness'), { frameAncestors: [] })

  it('from any http(s) origin', () => {
    expect(directive(csp, 'frame-src')).toEqual(expect.arrayContaining(['http:', 'https:']))
  })

  it('and lets it dial through the phone app: a frame navigated to tel:, sip:, sips: or callto: stays the widget', () => {
    expect(directive(csp, 'frame-src')).toEqual(expect.arrayContaining([...DIAL_SCHEMES]))
  })

  it('but nothing else: no javascript:, data: or blob: frames', () => {
    expect(directive(csp, 'frame-src').filter((source) => !['http:', 'https:', ...DIAL_SCHEMES].includes(source as never))).toEqual([])
  })
})

it('the consent page and the widget page frame nothing', () => {
  for (const name of ['oauth', 'widget']) expect(directive(contentSecurityPolicy(page(name), { frameAncestors: [] }), 'frame-src')).toEqual(["'none'"])
})
