// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { XSS_CORPUS } from '../../shared/testing/xss-corpus.ts'
import { buildLadder } from '../../shared/traffic/ladder.ts'
import { renderLadderSvg } from '../../shared/traffic/ladder-svg.ts'
import { TrafficBuilder } from '../../shared/traffic/testing/fixtures.ts'
import type { StoredJourney } from '../journey-runner.ts'
import { newJourneyResult } from '../journey.ts'
import type { GroupSummary } from '../readiness-reporter.ts'
import { checkSection, explainFailure } from './check-report.ts'
import { escapeHtml, isPlainSvg, REPORT_CSP, REPORT_LIMITS, renderReportHtml, type ReportImage, type ReportModel } from './html-report.ts'

const jpeg = (size: number): ReportImage => {
  const data = new Uint8Array(size)
  data.set([0xff, 0xd8, 0xff, 0xe0])
  return { contentType: 'image/jpeg', data }
}

const model = (patch: Partial<ReportModel> = {}): ReportModel => ({ title: 'Widget readiness check', sections: [], generator: 'test', generatedAt: new Date(0), ...patch })

const parse = (html: string) => new DOMParser().parseFromString(html, 'text/html')

/** Elements and attributes the report itself writes (the ladder's SVG is checked on its own). */
const REPORT_ELEMENTS = new Set('html head meta title style body main header h1 h2 h3 h4 div span p ol ul li a pre strong br section table thead tbody tr th td figure figcaption img details summary footer'.split(' '))

describe('the HTML report', () => {
  it('escapes every untrusted text: nothing of the XSS corpus becomes markup', () => {
    const hostile = XSS_CORPUS.join(' ')
    const html = renderReportHtml(
      model({
        title: hostile,
        subtitle: hostile,
        why: hostile,
        notes: [...XSS_CORPUS],
        sections: [
          {
            title: hostile,
            verdict: { kind: 'not-ready', text: hostile },
            meta: [['URL', hostile]],
            why: hostile,
            notes: [...XSS_CORPUS],
            checks: XSS_CORPUS.map((item) => ({ title: item, status: 'failed', details: [item], warnings: [item] })),
            steps: XSS_CORPUS.map((item) => ({ name: item, status: 'failed', detail: item, screenshot: null })),
            ladders: [{ title: hostile, svg: `<svg xmlns="http://www.w3.org/2000/svg"><text>${escapeHtml(hostile)}</text></svg>` }],
            findings: [...XSS_CORPUS],
            console: [...XSS_CORPUS],
            errors: [...XSS_CORPUS],
          },
        ],
      }),
    )
    for (const item of XSS_CORPUS.filter((i) => /[<>"']/.test(i))) expect(html).not.toContain(item)
    const document = parse(html)
    for (const element of document.querySelectorAll('*')) {
      const name = element.localName
      const inLadder = element.closest('svg') !== null
      expect(inLadder ? ['svg', 'text'] : [...REPORT_ELEMENTS], `<${name}>`).toContain(name)
      for (const attribute of element.getAttributeNames()) expect(attribute.startsWith('on'), `${name}[${attribute}]`).toBe(false)
      const link = element.getAttribute('href') ?? element.getAttribute('src')
      if (link !== null) expect(link).toMatch(/^(#section-\d+|data:image\/(jpeg|png|svg\+xml);base64,)/)
    }
    // The corpus is still there, as text.
    expect(document.querySelector('h1')!.textContent).toBe(hostile)
    expect(document.querySelector('section svg text')!.textContent).toBe(hostile)
  })

  it('forbids scripts and every load but data: images, whatever got through', () => {
    const document = parse(renderReportHtml(model()))
    expect(document.querySelector('meta[http-equiv="Content-Security-Policy"]')!.getAttribute('content')).toBe(REPORT_CSP)
    expect(REPORT_CSP).toContain("default-src 'none'")
    expect(REPORT_CSP).toContain('img-src data:')
    expect(REPORT_CSP).not.toMatch(/script-src|https?:/)
    expect(document.querySelectorAll('script, link, iframe, object, embed, base, form')).toHaveLength(0)
    // The styles are inline, from the design tokens, and import nothing.
    expect(document.querySelector('style')!.textContent).toContain('--color-canvas')
    expect(document.querySelector('style')!.textContent).not.toMatch(/@import\s+(url\(|['"])/)
  })

  it('inlines a ladder only when it is plain SVG; otherwise it goes in as an image, where SVG runs nothing', () => {
    const plain = '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" role="img"><title>Call</title><defs><marker id="m"><path d="M0 0"/></marker></defs><line x1="0" marker-end="url(#m)"/><text>a &lt;b&gt; onerror=x</text></svg>'
    expect(isPlainSvg(plain)).toBe(true)
    const unsafe = [
      '<svg><script>alert(1)</script></svg>',
      '<svg onload="alert(1)"></svg>',
      '<svg><g title="x>" onclick="alert(1)"></g></svg>',
      '<svg><a href="javascript:alert(1)"><text>x</text></a></svg>',
      '<svg><use href="https://evil.example/x.svg#a"/></svg>',
      '<svg><foreignObject><div>x</div></foreignObject></svg>',
      '<svg><style>@import "https://evil.example/x.css";</style></svg>',
      '<svg><rect style="fill:url(https://evil.example/p)"/></svg>',
      '<svg><!-- --><text>x</text></svg>',
      '<svg><text>unclosed',
      '<div><svg></svg></div>',
    ]
    for (const svg of unsafe) expect(isPlainSvg(svg), svg).toBe(false)
    const html = renderReportHtml(model({ sections: [{ title: 's', ladders: [{ title: 'inline', svg: plain }, { title: 'as image', svg: unsafe[0]! }] }] }))
    const document = parse(html)
    const ladders = document.querySelectorAll('.ladder')
    expect(ladders[0]!.querySelector('svg title')!.textContent).toBe('Call')
    expect(ladders[1]!.querySelector('svg')).toBeNull()
    expect(ladders[1]!.querySelector('img')!.getAttribute('src')).toMatch(/^data:image\/svg\+xml;base64,/)
    expect(html).not.toContain('<script>')
  })

  it("inlines the shared renderer's ladder of hostile traffic, which stays text", () => {
    const b = new TrafficBuilder().handshake().call('call-1', 501)
    for (const payload of XSS_CORPUS) {
      const m = b.raw('in', { type: payload, messageId: payload, data: { note: payload } }, { reason: payload })
      b.request('GET', `/crm/v3/objects/contacts/${payload}`, 200, m, { responseBody: payload })
    }
    const svg = renderLadderSvg(buildLadder(b.file()), { title: XSS_CORPUS[0] })
    expect(isPlainSvg(svg)).toBe(true)
    const document = parse(renderReportHtml(model({ sections: [{ title: 'traffic', ladders: [{ title: 'call', svg }] }] })))
    const drawn = document.querySelector('.ladder svg')!
    expect(drawn.textContent).toContain('OUTGOING_CALL_STARTED')
    expect(drawn.textContent).toContain('POST /crm/v3/objects/calls')
    expect(document.querySelectorAll('script, img, iframe, a, foreignObject')).toHaveLength(0)
    for (const element of document.querySelectorAll('*')) for (const attribute of element.getAttributeNames()) expect(attribute.startsWith('on'), `${element.localName}[${attribute}]`).toBe(false)
  })

  it('bounds its size: screenshots within a budget, each list and line clipped, sections capped', () => {
    const limits = { ...REPORT_LIMITS, imageBudgetBytes: 10_000, maxImageBytes: 6_000, maxListItems: 5, maxItemChars: 50, maxSections: 3, maxSvgChars: 100 }
    const steps = [jpeg(4_000), jpeg(4_000), jpeg(4_000), jpeg(7_000), { contentType: 'image/png' as const, data: jpeg(100).data }].map((screenshot, i) => ({ name: `step ${i}`, status: 'passed' as const, screenshot }))
    const html = renderReportHtml(
      model({
        sections: [
          { title: 'one', steps, findings: Array.from({ length: 12 }, (_, i) => `finding ${i} ${'x'.repeat(80)}`), ladders: [{ title: 'big', svg: `<svg>${'<g/>'.repeat(100)}</svg>` }] },
          { title: 'two' },
          { title: 'three' },
          { title: 'four' },
          { title: 'five' },
        ],
      }),
      limits,
    )
    const document = parse(html)
    const figures = [...document.querySelectorAll('figure')]
    expect(figures.map((f) => (f.querySelector('img') ? 'img' : f.querySelector('.no-shot')!.textContent))).toEqual([
      'img',
      'img',
      "screenshot left out: the report's 10 KB for screenshots is spent",
      'screenshot of 7 KB left out (over 6 KB)',
      'not a image/png image: left out',
    ])
    const findings = [...document.querySelectorAll('ul.lines li')].map((li) => li.textContent)
    expect(findings).toHaveLength(6)
    expect(findings[0]).toBe(`finding 0 ${'x'.repeat(40)}… (90 characters)`)
    expect(findings[5]).toBe('… and 7 more, not shown')
    expect(document.querySelectorAll('section')).toHaveLength(3)
    expect(html).toContain('2 more sections are not in this report (it holds 3).')
    expect(html).toContain('This ladder is 411 characters of SVG, more than the report holds (100)')
  })
})

describe("check-widget's report of a failed run", () => {
  const failedHandshake = (): { summary: GroupSummary; journey: StoredJourney } => {
    const result = newJourneyResult('http://127.0.0.1:4174/widget/', 'generic', 1500)
    result.stages.handshake = { status: 'failed', error: 'The host gave up after 1500 ms (Handshake failed); the widget never sent SYNC_ACK\nmore' }
    result.widgetErrors = ['console.error: <img src=x onerror=alert(1)> missing configuration']
    const group = {
      name: 'Acme <b>Dialer</b> › outbound journey · widget placement',
      widget: 'http://127.0.0.1:4174/widget/?"><script>alert(1)</script>',
      driver: 'generic',
      widgetErrors: result.widgetErrors,
      journeyFile: '/nowhere',
      rows: [
        { status: 'failed' as const, title: "answers the host's SYNC with SYNC_ACK within the sync timeout (1500 ms)", detail: 'handshake: The host gave up after 1500 ms (Handshake failed); the widget never sent SYNC_ACK', warnings: [] },
        { status: 'passed' as const, title: 'sends nothing before SYNC_ACK', detail: '', warnings: [] },
      ],
    }
    const summary: GroupSummary = { group, failed: 1, skipped: 0, warnings: 0, verdict: { kind: 'not-ready', text: 'NOT READY: 1 of 2 checks failed, 1 passed, 0 skipped' }, problem: null, wholeSkip: null }
    const journey: StoredJourney = { file: '/nowhere', result, logJson: '[]', findings: ['SYNC_ACK: never arrived'], tracePath: null, screenshotPath: null, steps: [{ stage: 'handshake', screenshotPath: null }], console: ['log: starting'], trafficPath: null, ladderPath: null }
    return { summary, journey }
  }

  it('says which check failed, why, and at which step', () => {
    const { summary, journey } = failedHandshake()
    expect(explainFailure(summary, journey)).toBe(
      `the check "answers the host's SYNC with SYNC_ACK within the sync timeout (1500 ms)" failed: handshake: The host gave up after 1500 ms (Handshake failed); the widget never sent SYNC_ACK — the journey failed at step 1 (handshake): The host gave up after 1500 ms (Handshake failed); the widget never sent SYNC_ACK`,
    )
    const fatal = { ...journey, result: { ...newJourneyResult('u', 'd', 1, 'Could not load the widget driver x.ts'), widgetErrors: [] } }
    expect(explainFailure(summary, fatal)).toMatch(/ — the journey stopped: Could not load the widget driver x\.ts$/)
    expect(explainFailure({ ...summary, group: { ...summary.group, rows: [summary.group.rows[1]!] } }, journey)).toBeNull()
  })

  it('shows the failed check, the failed step and everything the widget said, escaped', () => {
    const { summary, journey } = failedHandshake()
    const document = parse(renderReportHtml(model({ sections: [checkSection(summary, journey)] })))
    const section = document.querySelector('section')!
    expect(section.querySelector('.why')!.textContent).toMatch(/^Why: the check "answers the host's SYNC.*failed at step 1 \(handshake\)/)
    expect(section.querySelector('tr.failed')!.textContent).toContain('the widget never sent SYNC_ACK')
    expect(section.querySelector('figure.failed figcaption')!.textContent).toMatch(/^✖ 1\. handshake failed/)
    expect(section.querySelectorAll('figure')).toHaveLength(11)
    expect(section.querySelector('.sub .mono')!.textContent).toBe(summary.group.widget)
    expect(section.textContent).toContain('console.error: <img src=x onerror=alert(1)> missing configuration')
    expect(section.textContent).toContain('SYNC_ACK: never arrived')
    expect(section.textContent).toContain('log: starting')
    expect(section.querySelectorAll('img, script, b')).toHaveLength(0)
  })

  it('a journey whose record cannot be read still shows its checks, and says why the rest is missing', () => {
    const { summary } = failedHandshake()
    const section = checkSection(summary, 'its record could not be read (ENOENT)')
    expect(section.checks).toHaveLength(2)
    expect(section.notes).toEqual(['No steps, screenshots or ladder: its record could not be read (ENOENT).'])
    expect(section.why).toMatch(/^the check .* failed: handshake: /)
  })
})
