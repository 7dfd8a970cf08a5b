// Every URL field the API stores and a page later frames, plays, links or follows refuses what the pages
// refuse (shared/url/safe-url.ts): the hostile corpus through each field's real route, and nothing is written.
import { HOSTILE_URLS } from '../../../shared/testing/url-corpus.ts'
import { checkUrl, OWN_PATHS } from '../../../shared/url/safe-url.ts'
import { recordingAudioPath } from '../calling/recordings.ts'
import { REDIRECT_URLS_PATH } from '../../../shared/crm/redirect-urls.ts'
import { tablesOf } from '../objects/testing.ts'
import { body, call, createTestService, developer, oauthCredential, privateApp, type Credential, type TestService } from '../timeline/testing.ts'

let api: TestService
let oauth: Credential
beforeEach(async () => {
  api = createTestService()
  oauth = await oauthCredential(api, 'timeline')
})

async function templateId(): Promise<string> {
  const response = await call(api, 'POST', '/crm/v3/timeline/1001/event-templates', {
    auth: developer,
    json: { name: 'Frame', headerTemplate: 'Framed', tokens: [] },
  })
  expect(response.status).toBe(201)
  return (await body(response)).id
}

/** Each stored URL field: a request that puts `url` in it. */
const FIELDS: Record<string, (url: string, template: string) => Promise<Response>> = {
  'calling settings url': (url) => call(api, 'PATCH', '/crm/v3/extensions/calling/1001/settings', { auth: developer, json: { url } }),
  'timelineIFrame.url': (url, template) =>
    call(api, 'POST', '/crm/v3/timeline/events', {
      auth: oauth,
      json: { eventTemplateId: template, objectId: '1', tokens: {}, timelineIFrame: { linkLabel: 'Open', headerLabel: 'Frame', url, width: 400, height: 300 } },
    }),
  hs_call_recording_url: (url) => call(api, 'POST', '/crm/v3/objects/calls', { auth: privateApp, json: { properties: { hs_call_recording_url: url, hs_timestamp: '2026-01-15T12:00:00Z' } } }),
  'registered redirect URL': (url) => call(api, 'POST', REDIRECT_URLS_PATH, { json: { url } }),
}

test.each(Object.keys(FIELDS))('%s: every value of the hostile URL corpus is 400 with a reason, and nothing is written', async (field) => {
  const template = await templateId()
  const send = FIELDS[field]!
  for (const url of HOSTILE_URLS) {
    expect(checkUrl(url).ok).toBe(false)
    // An empty string clears a CRM property (the real API's rule for every property), so it stores no URL.
    if (url === '' && field === 'hs_call_recording_url') continue
    const before = tablesOf(api)
    const response = await send(url, template)
    const answer = await body(response)
    expect(response.status, `${field} ${JSON.stringify(url.slice(0, 60))}: ${JSON.stringify(answer).slice(0, 300)}`).toBe(400)
    expect(JSON.stringify(answer)).toMatch(/URL|url/)
    expect(tablesOf(api), JSON.stringify(url.slice(0, 60))).toBe(before)
  }
}, 60_000)

test('each field still takes a plain https URL', async () => {
  const template = await templateId()
  for (const [field, send] of Object.entries(FIELDS)) {
    const response = await send('https://app.example/path?x=1', template)
    expect(response.status, field).toBeLessThan(300)
  }
})

test("the recording player's same-origin path is the path the API hands out", () => {
  for (const id of ['1', '123456789', 'abc_DEF-9']) expect(OWN_PATHS.recordingAudio.test(recordingAudioPath(id)), id).toBe(true)
  expect(OWN_PATHS.recordingAudio.test(recordingAudioPath('../account'))).toBe(false)
})
