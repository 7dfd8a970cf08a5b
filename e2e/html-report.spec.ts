/**
 * The self-contained HTML report in a real browser, opened from disk with every
 * request refused (no server involved): hostile content in every field runs
 * nothing and loads nothing, and `ringside report`'s drawing of a saved traffic
 * file shows its ladders. check-widget's own report is opened in
 * check-widget.spec.ts, after a real run.
 */
import { writeFileSync } from 'node:fs'
import { expect, test } from '@playwright/test'
import { renderReportHtml, escapeHtml } from '../kit/report/html-report.ts'
import { runReport } from '../kit/report/traffic-report.ts'
import { XSS_CORPUS } from '../shared/testing/xss-corpus.ts'
import { TrafficBuilder } from '../shared/traffic/testing/fixtures.ts'
import { stringifyTrafficFile } from '../shared/traffic/traffic-file.ts'
import { openReportOffline } from './support/offline-report.ts'

const hostile = XSS_CORPUS.join(' ')
/** A tiny real JPEG (1×1), so a screenshot decodes. */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////2wBDAf//////////////////////////////////////////////////////////////////////////////////////wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAP/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/AKAP/9k=',
  'base64',
)

test('hostile text in every field of the report runs nothing and loads nothing', async ({ browser }, testInfo) => {
  const file = testInfo.outputPath('hostile.html')
  writeFileSync(
    file,
    renderReportHtml({
      title: hostile,
      subtitle: hostile,
      why: hostile,
      notes: [...XSS_CORPUS],
      verdict: { kind: 'not-ready', text: hostile },
      sections: [
        {
          title: hostile,
          verdict: { kind: 'not-ready', text: hostile },
          meta: [[hostile, hostile]],
          why: hostile,
          checks: XSS_CORPUS.map((item) => ({ title: item, status: 'failed', details: [item], warnings: [item] })),
          steps: XSS_CORPUS.map((item) => ({ name: item, status: 'failed', detail: item, screenshot: { contentType: 'image/jpeg', data: JPEG } })),
          ladders: [
            { title: hostile, svg: `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40"><text x="4" y="20">${escapeHtml(hostile)}</text></svg>` },
            // Not plain SVG: it goes in as an image, where it runs nothing.
            { title: 'a ladder with a script', svg: '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(2)</script><image href="https://evil.example/x.png"/></svg>' },
          ],
          findings: [...XSS_CORPUS],
          console: [...XSS_CORPUS],
          errors: [...XSS_CORPUS],
        },
      ],
      generator: hostile,
      generatedAt: new Date(),
    }),
  )
  const report = await openReportOffline(browser, file)
  try {
    const { page } = report
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(hostile)
    await expect(page.locator('figure img').first()).toBeVisible()
    expect(await page.locator('figure img').evaluateAll((images) => images.every((i) => (i as HTMLImageElement).naturalWidth === 1))).toBe(true)
    // Give anything that might fire (onerror, onload, autofocus, …) its chance.
    await page.locator('details summary').first().click()
    await page.mouse.move(300, 300)
    await page.waitForTimeout(300)
    expect(await report.ran()).toEqual([])
    expect(report.attempted()).toEqual([])
    expect(await page.locator('script, iframe, object, embed, form, a[href^="javascript"]').count()).toBe(0)
  } finally {
    await report.context.close()
  }
})

test('ringside report draws a saved traffic file: the whole traffic and each call, opened offline', async ({ browser }, testInfo) => {
  const traffic = testInfo.outputPath('calls.json')
  const b = new TrafficBuilder().handshake().call('call-1', 501).call('call-2', 502)
  b.raw('in', { type: XSS_CORPUS[0], messageId: XSS_CORPUS[1] }, { reason: XSS_CORPUS[2] })
  writeFileSync(traffic, stringifyTrafficFile(b.file()))
  expect(await runReport(traffic, {}, 'test')).toBe(0)
  const report = await openReportOffline(browser, testInfo.outputPath('calls.html'))
  try {
    const { page } = report
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Traffic: calls.json')
    const ladders = page.locator('.ladder svg')
    await expect(ladders).toHaveCount(3)
    const call = page.getByRole('region', { name: /call-1/ })
    await expect(call.locator('.ladder svg').getByRole('listitem', { name: 'OUTGOING_CALL_STARTED', exact: true }).filter({ has: page.locator('desc', { hasText: /^#\d+ OUTGOING_CALL_STARTED, widget → host/ }) })).toHaveCount(1)
    await expect(call.locator('.ladder svg text').filter({ hasText: 'POST /crm/v3/objects/calls' })).toHaveCount(1)
    expect(await report.ran()).toEqual([])
    expect(report.attempted()).toEqual([])
  } finally {
    await report.context.close()
  }
})
