/**
 * The page scanner: every product page Ringside serves (emulator/node/pages/page-policy.ts),
 * top-level and framed from other origins, with every URL parameter it reads
 * (e2e/support/page-params.ts, kept complete by emulator/node/test/page-params.test.ts
 * and by the names recorded here while the pages run) and some fuzzed names,
 * each given a hostile corpus: javascript: and data: URLs, a protocol-relative
 * and an absolute URL of another site, markup with script, very long values.
 *
 * A canary never runs (no dialog, no console line, no request to the canary
 * path except the harness framing a widget URL, which is its job); the page
 * never navigates off its origin, nothing is sent off Ringside's origins but
 * GETs of frames, no frame holds a javascript: or data: document, and the
 * policy headers are right. Values are batched: every parameter of a load gets
 * the same value, and framed pages share one host page per page.
 */
import { expect, test, type Page, type Request } from '@playwright/test'
import { PRODUCT_PAGES, type ProductPage } from '../emulator/node/pages/page-policy.ts'
import { ORIGINS, PORTS } from './origins.ts'
import { HARNESS_ROUTES, NOT_PAGE_PARAMS, PAGE_PARAMS } from './support/page-params.ts'
import { policyProblems } from './support/policy-check.ts'
import { PREVIEW_ORIGINS } from '../tools/build/static-headers.ts'

const CANARY = `${ORIGINS.hostile}/canary`
const RINGSIDE = [ORIGINS.harness, ORIGINS.widget]
/** Names no page reads, tried too: a page that starts reading one unchecked is caught before it is listed. */
const FUZZED_NAMES = ['url', 'redirect', 'next', 'returnTo', 'src', 'href', 'callback', 'target', 'iframe', 'hostile']

/** What a payload prints when it runs; the payloads build it at run time, so a page quoting a value shows no canary. */
const RAN = 'CANARY:ran'
const RUN = `'CANARY:'+'ran'`
const MARKUP = `"><script>alert(${RUN})</script><img src=x onerror="console.log(${RUN})"><svg onload="alert(${RUN})">`
const CORPUS: readonly { name: string; value: string }[] = [
  { name: 'javascript: URL', value: `javascript:alert(${RUN});fetch('${CANARY}/js')//` },
  { name: 'javascript: URL, mixed case after blanks', value: ` \tJaVaScRiPt:console.log(${RUN})` },
  { name: 'data: URL', value: `data:text/html,<script>parent.postMessage(${RUN},'*');alert(${RUN})</script>` },
  { name: 'protocol-relative URL of another site', value: `//127.0.0.1:${PORTS.hostile}/canary/relative` },
  { name: 'absolute URL of another site', value: `${CANARY}/absolute` },
  { name: 'markup with script', value: MARKUP },
]
/** Long values: in the query up to what the server's 16 KB request head takes, in a hash route far longer. */
const LONG_QUERY_VALUE = `javascript:alert(${RUN})//${'A'.repeat(1_900)}`
const LONG_HASH_VALUE = `${MARKUP}${'B'.repeat(100_000)}`

const urlOf = (page: ProductPage) => `${page.name === 'widget' ? ORIGINS.widget : ORIGINS.harness}${page.path}`

interface Findings {
  problems: string[]
  paramsRead: Set<string>
}

/** Watches `page` for the canary, navigations off origin and requests off Ringside's origins; records the URL parameters read. */
async function watch(page: Page, topOrigin: string): Promise<Findings> {
  const findings: Findings = { problems: [], paramsRead: new Set() }
  page.on('dialog', (dialog) => {
    findings.problems.push(`dialog: ${dialog.message()}`)
    void dialog.dismiss()
  })
  page.on('console', (message) => {
    if (message.text().includes(RAN)) findings.problems.push(`console: ${message.text().slice(0, 200)}`)
  })
  page.on('request', (request: Request) => {
    const url = request.url()
    const frame = request.frame()
    const isMain = frame === page.mainFrame()
    const framing = request.resourceType() === 'document' && !isMain && /^https?:/.test(url)
    if (url.startsWith(CANARY) && !framing) findings.problems.push(`request to the canary: ${request.method()} ${url.slice(0, 200)} (${request.resourceType()})`)
    if (isMain && request.isNavigationRequest() && !url.startsWith(`${topOrigin}/`)) findings.problems.push(`navigated to ${url.slice(0, 200)}`)
    const own = RINGSIDE.some((origin) => url.startsWith(`${origin}/`)) || url.startsWith(`${topOrigin}/`)
    if (!own && /^https?:/.test(url) && !(framing && request.method() === 'GET')) findings.problems.push(`sent off Ringside's origins: ${request.method()} ${url.slice(0, 200)} (${request.resourceType()})`)
  })
  // Names read by the page itself (its own origin), not by the frames it holds (scanned as pages of their own).
  await page.exposeBinding('__paramRead', (source, name: string) => {
    if (source.frame.url().startsWith(`${topOrigin}/`)) findings.paramsRead.add(name)
  })
  await page.addInitScript(() => {
    const record = (window as unknown as { __paramRead?: (name: string) => void }).__paramRead
    const proto = URLSearchParams.prototype
    for (const method of ['get', 'getAll', 'has'] as const) {
      const original = proto[method] as (this: URLSearchParams, name: string) => unknown
      Object.defineProperty(proto, method, {
        configurable: true,
        writable: true,
        value(this: URLSearchParams, name: string) {
          void record?.(String(name))
          return original.call(this, name)
        },
      })
    }
  })
  return findings
}

/** Every frame of the page holds an http(s) or about: document, never a javascript: or data: one. */
function scriptedFrames(page: Page): string[] {
  return page.frames().flatMap((frame) => (/^(javascript|data|blob):/i.test(frame.url()) ? [`a frame holds ${frame.url().slice(0, 120)}`] : []))
}

/** The query string giving every one of `names` the value. */
const query = (names: readonly string[], value: string) => new URLSearchParams(names.map((name) => [name, value])).toString()

/** Groups of names whose long values together stay under the server's 16 KB request head. */
function groups(names: readonly string[], size: number): string[][] {
  const out: string[][] = []
  for (let i = 0; i < names.length; i += size) out.push(names.slice(i, i + size))
  return out
}

async function load(page: Page, url: string, findings: Findings): Promise<void> {
  const response = await page.goto(url, { waitUntil: 'load' })
  // The page's scripts act on their parameters once loaded: give them a moment, then look.
  await page.waitForTimeout(400)
  findings.problems.push(...scriptedFrames(page))
  if (response && response.status() === 200) {
    const productPage = PRODUCT_PAGES.find((candidate) => new URL(response.url()).pathname === candidate.path)
    if (productPage) findings.problems.push(...policyProblems(await response.allHeaders(), productPage, [...RINGSIDE, ORIGINS.testPages]).map((problem) => `${url.slice(0, 80)}: ${problem}`))
  } else findings.problems.push(`${url.slice(0, 80)} answered ${response?.status()}`)
}

for (const productPage of PRODUCT_PAGES) {
  const params = PAGE_PARAMS[productPage.name as keyof typeof PAGE_PARAMS]
  const names = [...params.query, ...FUZZED_NAMES]
  const listed = new Set([...params.query, ...params.hashRoutes.flatMap((route) => route.params)])

  test(`page scanner: ${productPage.path} top-level, every parameter it reads and fuzzed names, hostile values`, async ({ page }) => {
    test.setTimeout(90_000)
    const origin = new URL(urlOf(productPage)).origin
    const findings = await watch(page, origin)
    const routes = productPage.name === 'harness' ? [...HARNESS_ROUTES, ...params.hashRoutes.map((route) => route.route)] : []
    for (const [i, { value }] of CORPUS.entries()) {
      // The harness: each value also on a hash route, its own parameters included.
      const route = routes.length > 0 ? routes[i % routes.length]! : null
      const routeParams = params.hashRoutes.find((candidate) => candidate.route === route)?.params ?? []
      const hash = route === null ? '' : `#${route}${routeParams.length > 0 ? `?${query(routeParams, value)}` : ''}`
      await load(page, `${urlOf(productPage)}?${query(names, value)}${hash}`, findings)
    }
    for (const group of groups(names, 6)) await load(page, `${urlOf(productPage)}?${query(group, LONG_QUERY_VALUE)}`, findings)
    for (const route of params.hashRoutes) await load(page, `${urlOf(productPage)}#${route.route}?${query(route.params, LONG_HASH_VALUE)}`, findings)
    // The rest of the harness's routes, each once (they read the location too).
    for (const route of routes.slice(CORPUS.length)) {
      // A new document each time: the same address with another fragment would be a same-document navigation.
      await page.goto('about:blank')
      await load(page, `${urlOf(productPage)}?${query(names, MARKUP)}#${route}`, findings)
    }

    expect(findings.problems).toEqual([])
    // Every parameter the page read while it ran is one the scanner knows (else list it in page-params.ts).
    expect([...findings.paramsRead].filter((name) => !listed.has(name) && !NOT_PAGE_PARAMS.has(name) && !FUZZED_NAMES.includes(name))).toEqual([])
    expect(findings.paramsRead.size).toBeGreaterThan(0)
  })

  test(`page scanner: ${productPage.path} framed from another origin`, async ({ page }) => {
    // The test pages origin is allowed to frame Ringside's pages (--frame-ancestor, the e2e server); the hostile one is not.
    const findings = await watch(page, ORIGINS.testPages)
    await page.goto(`${ORIGINS.testPages}/e2e/fixtures/blank/`)
    const sources = [...CORPUS.map(({ value }) => `${urlOf(productPage)}?${query(names, value)}`), `${urlOf(productPage)}?${query(names.slice(0, 6), LONG_QUERY_VALUE)}`]
    await page.evaluate((srcs) => {
      for (const src of srcs) {
        const frame = document.createElement('iframe')
        frame.src = src
        document.body.append(frame)
      }
    }, sources)
    await page.waitForTimeout(1_500)
    findings.problems.push(...scriptedFrames(page))
    expect(findings.problems).toEqual([])
    const loaded = page.frames().filter((frame) => frame !== page.mainFrame() && frame.url().startsWith(urlOf(productPage)))
    if (productPage.framing === 'none') {
      // The consent page refuses every frame: each one is an error page, none runs the page.
      for (const frame of page.frames().filter((candidate) => candidate !== page.mainFrame() && candidate.parentFrame() === page.mainFrame())) {
        expect(await frame.evaluate(() => document.title).catch(() => 'blocked')).not.toMatch(/Connect|Ringside/)
      }
    } else expect(loaded.length).toBeGreaterThanOrEqual(sources.length)

    // From an origin that is not Ringside's nor allowed, no page is framed.
    await page.goto(`${ORIGINS.hostile}/e2e/fixtures/blank/`)
    const blocked = page.waitForEvent('console', { predicate: (message) => /frame-ancestors|X-Frame-Options/.test(message.text()), timeout: 5_000 })
    await page.evaluate((src) => {
      const frame = document.createElement('iframe')
      frame.src = src
      document.body.append(frame)
    }, urlOf(productPage))
    expect((await blocked).text()).toContain('frame')
  })
}

test('page scanner: the static build (browser-only mode) serves every page with its headers file', async ({ request }) => {
  for (const productPage of PRODUCT_PAGES) {
    for (const origin of [ORIGINS.staticHarness, ORIGINS.staticWidget]) {
      const response = await request.get(`${origin}${productPage.path}?${query(PAGE_PARAMS[productPage.name as keyof typeof PAGE_PARAMS].query, MARKUP)}`)
      expect(response.status(), `${origin}${productPage.path}`).toBe(200)
      expect(policyProblems(response.headers(), productPage, [ORIGINS.staticHarness, ORIGINS.staticWidget, ...PREVIEW_ORIGINS]), `${origin}${productPage.path}`).toEqual([])
    }
  }
})
