/**
 * The standalone SVG: every arrow with its text alternative, one call alone, and hostile
 * traffic (the XSS corpus in types, payloads, paths and findings) drawn as inert text.
 */
import { XSS_CORPUS } from '../testing/xss-corpus.ts'
import { buildLadder } from './ladder.ts'
import { escapeXml, layoutLadder, renderLadderSvg, rowAt } from './ladder-svg.ts'
import { TrafficBuilder } from './testing/fixtures.ts'

/** The elements and attributes renderLadderSvg may write: anything else came from the traffic. */
const ELEMENTS = new Set(['svg', 'title', 'desc', 'style', 'rect', 'text', 'line', 'path', 'circle', 'g'])
const ATTRIBUTES = new Set(['xmlns', 'width', 'height', 'viewBox', 'role', 'aria-labelledby', 'id', 'class', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'd', 'cx', 'cy', 'r', 'fill'])

function markup(svg: string): { elements: string[]; attributes: string[] } {
  const elements: string[] = []
  const attributes: string[] = []
  // Outside the <style> element, every '<' opens markup the renderer wrote.
  const body = svg.replace(/<style>[^<]*<\/style>/, '<style></style>')
  for (const tag of body.matchAll(/<([a-zA-Z][\w:-]*)((?:\s+[^\s=>]+="[^"]*")*)\s*\/?>/g)) {
    elements.push(tag[1]!)
    for (const attr of tag[2]!.matchAll(/\s+([^\s=>]+)="/g)) attributes.push(attr[1]!)
  }
  const opened = (body.match(/<(?!\/)/g) ?? []).length
  expect(opened, 'every < starts a well-formed tag').toBe(elements.length)
  return { elements, attributes }
}

describe('renderLadderSvg', () => {
  it('is a standalone SVG document: lanes, one group per arrow with a title and a description', () => {
    const model = buildLadder(new TrafficBuilder().handshake().call('call-1', 501).file({ findings: [] }))
    const svg = renderLadderSvg(model, { title: 'My call' })
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true)
    expect(svg.trimEnd().endsWith('</svg>')).toBe(true)
    expect(svg).toContain('<title id="ladder-title">My call</title>')
    for (const lane of ['Widget', 'Host', 'CRM API']) expect(svg).toContain(`>${lane}</text>`)
    expect(svg.match(/<g class="arrow /g)).toHaveLength(model.rows.length)
    expect(svg.match(/<title>/g)).toHaveLength(model.rows.length)
    expect(svg.match(/<desc>/g)).toHaveLength(model.rows.length)
    expect(svg).toContain('<title>POST /crm/v3/objects/calls → 201</title>')
    expect(svg).toMatch(/<desc>Request POST \/crm\/v3\/objects\/calls → 201, host → CRM API, [^<]*caused by #6 OUTGOING_CALL_STARTED/)
    // The ring gap is drawn.
    expect(svg).toMatch(/⋯ 4\.\d s ringing/)
    // Nothing to fetch: no reference outside the document.
    expect(svg).not.toMatch(/href|url\(|@import|<image|<use|<script|<foreignObject/i)
    const { elements, attributes } = markup(svg)
    expect(elements.filter((e) => !ELEMENTS.has(e))).toEqual([])
    expect(attributes.filter((a) => !ATTRIBUTES.has(a))).toEqual([])
  })

  it('draws one call alone', () => {
    const model = buildLadder(new TrafficBuilder().handshake().call('call-a', 501).call('call-b', 502).file({ findings: [] }))
    const svg = renderLadderSvg(model, { callKey: 'call-b' })
    expect(svg).toContain('Outgoing call call-b · engagement 502')
    expect(svg).toContain('<title>PATCH /crm/v3/objects/calls/502 → 200</title>')
    expect(svg).not.toContain('/calls/501')
    expect(svg).not.toContain('<title>SYNC</title>')
  })

  it('keeps hostile traffic inert: every text escaped, no element or attribute of its own', () => {
    const b = new TrafficBuilder().handshake()
    const findings = []
    for (const [i, payload] of XSS_CORPUS.entries()) {
      const m = b.raw(i % 2 === 0 ? 'in' : 'out', { type: payload, messageId: payload, data: { note: payload } }, { reason: payload })
      const r = b.request('GET', `/crm/v3/objects/contacts/${payload}`, 200, m, { responseBody: payload })
      r.error = payload
      findings.push({ seq: m.seq, severity: 'error' as const, rule: payload, title: payload, message: payload })
    }
    // Characters XML forbids, and a lone surrogate, in a type.
    b.raw('in', { type: 'CTRL\u0000\u0008\u001b\ud800END' })
    const model = buildLadder(b.file({ findings, widgetUrl: XSS_CORPUS[0] }))
    const svg = renderLadderSvg(model, { title: XSS_CORPUS[1] })
    const { elements, attributes } = markup(svg)
    expect(elements.filter((e) => !ELEMENTS.has(e))).toEqual([])
    expect(attributes.filter((a) => !ATTRIBUTES.has(a))).toEqual([])
    const controls = [...svg].filter((c) => c.charCodeAt(0) < 0x20 && c !== '\n' && c !== '\r' && c !== '\t')
    expect(controls).toEqual([])
    expect(svg).not.toMatch(/[\ud800-\udbff](?![\udc00-\udfff])/)
    expect(svg).toContain('CTRL\ufffd\ufffd\ufffd\ufffdEND')
    expect(svg).toContain(escapeXml(clipForLabel(XSS_CORPUS[0]!)))
  })
})

function clipForLabel(text: string): string {
  return text.length > 46 ? `${text.slice(0, 45)}…` : text
}

describe('layoutLadder', () => {
  it('gives each row its height (more after a pause) and finds the row at a height', () => {
    const model = buildLadder(new TrafficBuilder().handshake().call('call-1', 501).file({ findings: [] }))
    const layout = layoutLadder(model)
    expect(layout.tops).toHaveLength(model.rows.length)
    const answered = model.rows.findIndex((r) => r.arrow.label === 'CALL_ANSWERED')
    expect(layout.tops[answered + 1]! - layout.tops[answered]!).toBeGreaterThan(layout.tops[1]! - layout.tops[0]!)
    for (const i of [0, 5, answered, model.rows.length - 1]) expect(rowAt(layout, layout.tops[i]! + 1)).toBe(i)
    expect(rowAt(layout, -100)).toBe(0)
    expect(rowAt(layout, layout.height + 100)).toBe(model.rows.length - 1)
  })
})
