// A stored URL field is checked by one module (url-field.ts) whether it arrives by a route or by an import: the
// table's row schema uses the route's check. Walked here: every URL column an export holds, each value of the
// hostile corpus put in it, imported; the import is refused whole (400) when the route refuses the value, and the
// data is unchanged.
import { HOSTILE_URLS } from '../../../shared/testing/url-corpus.ts'
import { REDIRECT_URLS_PATH } from '../../../shared/crm/redirect-urls.ts'
import { urlFieldProblem, vendorUrlFieldProblem } from '../http/url-field.ts'
import { body, call, createTestService, developer, oauthCredential, privateApp, type TestService } from '../timeline/testing.ts'

type Row = Record<string, any>
interface Export {
  tables: Record<string, Array<[string, Row]>>
  exportedAt?: string
}

/** Each URL column: its table, how to put a URL in the row, and the route's check (null: the route takes it). */
const COLUMNS: Record<string, { table: string; set(row: Row, url: string): void; problem(url: string): string | null }> = {
  'calling settings url': { table: 'calling_settings', set: (row, url) => (row.url = url), problem: (url) => (url.length > 2048 ? 'too long' : urlFieldProblem(url)) },
  'timelineIFrame.url': { table: 'timeline_events', set: (row, url) => (row.timelineIFrame.url = url), problem: (url) => urlFieldProblem(url) },
  // A record's property values are checked on import by the store's integrity check, with the routes' normalizeValue.
  hs_call_recording_url: { table: 'crm_calls', set: (row, url) => (row.properties.hs_call_recording_url = url), problem: (url) => urlFieldProblem(url, true) },
  'registered redirect URL': { table: 'oauth_app_auth_settings', set: (row, url) => (row.redirectUrls = [url]), problem: (url) => urlFieldProblem(url) },
  'channel-connection webhook url': { table: 'calling_channel_connection', set: (row, url) => (row.url = url), problem: vendorUrlFieldProblem },
  'recording settings urlToRetrieveAuthedRecording': { table: 'calling_recording_settings', set: (row, url) => (row.urlToRetrieveAuthedRecording = url), problem: (url) => (url.includes('%s') ? vendorUrlFieldProblem(url.replaceAll('%s', 'id')) : 'no %s') },
  'recording authenticatedUrl': { table: 'calling_recordings', set: (row, url) => (row.authenticatedUrl = url), problem: vendorUrlFieldProblem },
}

let api: TestService
let baseline: Export

async function exported(): Promise<Export> {
  const response = await call(api, 'GET', '/_ringside/v1/export')
  expect(response.status).toBe(200)
  const { exportedAt: _, ...rest } = await body(response)
  return rest
}

/** A service with one row in every URL column, each written through its route (a recording's row by hand: only the vendor's answer writes one). */
beforeAll(async () => {
  api = createTestService()
  const oauth = await oauthCredential(api, 'timeline')
  const ok = async (response: Promise<Response>) => expect((await response).status).toBeLessThan(300)
  await ok(call(api, 'PATCH', '/crm/v3/extensions/calling/1001/settings', { auth: developer, json: { url: 'https://widget.example/' } }))
  const template = await body(await call(api, 'POST', '/crm/v3/timeline/1001/event-templates', { auth: developer, json: { name: 'Frame', headerTemplate: 'Framed', tokens: [] } }))
  await ok(call(api, 'POST', '/crm/v3/timeline/events', { auth: oauth, json: { eventTemplateId: template.id, objectId: '1', tokens: {}, timelineIFrame: { linkLabel: 'Open', headerLabel: 'Frame', url: 'https://frame.example/', width: 400, height: 300 } } }))
  await ok(call(api, 'POST', '/crm/v3/objects/calls', { auth: privateApp, json: { properties: { hs_call_recording_url: 'https://audio.example/a.mp3', hs_timestamp: '2026-01-15T12:00:00Z' } } }))
  await ok(call(api, 'POST', REDIRECT_URLS_PATH, { json: { url: 'https://app.example/callback' } }))
  await ok(call(api, 'POST', '/crm/v3/extensions/calling/1001/settings/channel-connection', { auth: developer, json: { url: 'https://vendor.example/numbers', isReady: true } }))
  await ok(call(api, 'POST', '/crm/v3/extensions/calling/1001/settings/recording', { auth: developer, json: { urlToRetrieveAuthedRecording: 'https://vendor.example/recordings/%s' } }))
  baseline = await exported()
  const call1 = baseline.tables.crm_calls?.[0]?.[0] as string
  const when = '2026-01-15T12:00:00.000Z'
  baseline.tables.calling_recordings = [[call1, { callId: call1, appId: 1001, externalId: 'x1', status: 'READY', attempt: 'a1', requestedAt: when, updatedAt: when, authenticatedUrl: 'https://vendor.example/files/x1.mp3', contentType: 'audio/mpeg', size: 10 }]]
  expect((await call(api, 'POST', '/_ringside/v1/import', { json: baseline })).status).toBe(200)
  baseline = await exported()
  for (const { table } of Object.values(COLUMNS)) expect(baseline.tables[table]?.length, table).toBeGreaterThan(0)
})

test.each(Object.keys(COLUMNS))('%s: an import with a hostile URL the route refuses is refused whole (400), and nothing changes', async (column) => {
  const { table, set, problem } = COLUMNS[column]!
  let refusedCount = 0
  for (const url of HOSTILE_URLS) {
    const changed = structuredClone(baseline)
    set(changed.tables[table]![0]![1], url)
    const response = await call(api, 'POST', '/_ringside/v1/import', { json: changed })
    if (problem(url) !== null) {
      refusedCount++
      expect(response.status, `${column} = ${JSON.stringify(url)}`).toBe(400)
      expect((await body(response)).message).toMatch(new RegExp(table))
    } else {
      // A value the route takes (a vendor URL with credentials, say) is taken by the import too; put the baseline back.
      expect(response.status, `${column} = ${JSON.stringify(url)}: ${await response.clone().text()}`).toBe(200)
      expect((await call(api, 'POST', '/_ringside/v1/import', { json: baseline })).status).toBe(200)
    }
    expect(await exported()).toEqual(baseline)
  }
  // Every script, data and scheme-relative spelling is among the refused.
  for (const url of ['javascript:alert(1)', 'data:text/html,<script>alert(1)</script>', '//other.site/']) expect(problem(url), url).not.toBeNull()
  expect(refusedCount).toBeGreaterThan(HOSTILE_URLS.length / 2)
})

test('the reported case: an imported calling-settings url of javascript:alert(1) is refused, and the settings still serve the old url', async () => {
  const changed = structuredClone(baseline)
  changed.tables.calling_settings![0]![1].url = 'javascript:alert(1)'
  expect((await call(api, 'POST', '/_ringside/v1/import', { json: changed })).status).toBe(400)
  const settings = await body(await call(api, 'GET', '/crm/v3/extensions/calling/1001/settings', { auth: developer }))
  expect(settings.url).toBe('https://widget.example/')
})
