import { client, ISO, tablesOf, type Client } from '../../testing/objects.ts'
import { createTestService, developer, expectError, T0, type TestService } from '../../testing/timeline.ts'
import { DEFAULT_WIDGET_URL } from '../../../shared/crm/reference-widget.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const PATH = '/crm/v3/extensions/calling/1001/settings'
const send = (method: string, json?: unknown, path = PATH) => c.req(method, path, json, developer)
const ok = (method: string, json?: unknown, status = 200) => c.ok(method, PATH, json, status, developer)
/** Start from an app without settings. */
const removeSeeded = () => ok('DELETE', undefined, 204)

test('the seeded settings are the reference widget, with every SettingsResponse field', async () => {
  expect(await ok('GET')).toEqual({
    name: 'Ringside reference widget',
    url: DEFAULT_WIDGET_URL,
    width: 400,
    height: 600,
    isReady: true,
    supportsCustomObjects: false,
    usesRemote: false,
    usesCallingWindow: false,
    supportsInboundCalling: true,
    createdAt: expect.stringMatching(ISO),
    updatedAt: expect.stringMatching(ISO),
  })
})

test('POST creates settings with 200 (not 201), defaulting isReady to true', async () => {
  await removeSeeded()
  const created = await ok('POST', { name: 'My dialer', url: 'https://dialer.example/app' })
  expect(created).toEqual({
    name: 'My dialer',
    url: 'https://dialer.example/app',
    width: 400,
    height: 600,
    isReady: true,
    supportsCustomObjects: false,
    usesRemote: false,
    usesCallingWindow: false,
    supportsInboundCalling: false,
    createdAt: new Date(T0).toISOString(),
    updatedAt: new Date(T0).toISOString(),
  })
  expect(await ok('GET')).toEqual(created)
})

test('POST when settings exist is 409 CONFLICT', async () => {
  await expectError(await send('POST', { name: 'Again', url: 'https://x.example' }), 409, 'CONFLICT')
})

test('GET, PATCH and DELETE before any POST are 404', async () => {
  await removeSeeded()
  await expectError(await send('GET'), 404, 'OBJECT_NOT_FOUND')
  await expectError(await send('PATCH', { isReady: true }), 404, 'OBJECT_NOT_FOUND')
  await expectError(await send('DELETE'), 404, 'OBJECT_NOT_FOUND')
})

test('testing → production: PATCH isReady true on settings created with isReady false', async () => {
  await removeSeeded()
  await ok('POST', { name: 'Dialer', url: 'https://dialer.example', isReady: false })
  api.clock.now += 5000
  const patched = await ok('PATCH', { isReady: true })
  expect(patched).toMatchObject({ isReady: true, name: 'Dialer', createdAt: new Date(T0).toISOString(), updatedAt: new Date(T0 + 5000).toISOString() })
})

test('DELETE is 204 and the settings are gone', async () => {
  expect((await send('DELETE')).status).toBe(204)
  await expectError(await send('GET'), 404, 'OBJECT_NOT_FOUND')
})

test.each<[Record<string, unknown>, string]>([
  [{ url: 'https://x.example' }, 'name missing'],
  [{ name: 'x' }, 'url missing'],
  [{ name: '   ', url: 'https://x.example' }, 'blank name'],
  [{ name: 'x', url: 'ftp://x.example' }, 'ftp url'],
  [{ name: 'x', url: 'javascript:alert(1)' }, 'javascript url'],
  [{ name: 'x', url: '/relative/path' }, 'relative url'],
  [{ name: 'x', url: 'https://x.example', width: 0 }, 'width 0'],
  [{ name: 'x', url: 'https://x.example', height: 0 }, 'height 0'],
  [{ name: 'x', url: 'https://x.example', width: -5 }, 'negative width'],
  [{ name: 'x', url: 'https://x.example', width: 1.5 }, 'fractional width'],
  [{ name: 'x', url: 'https://x.example', height: '600' }, 'height as a string'],
  [{ name: 'x', url: 'https://x.example', isReady: 'yes' }, 'isReady not a boolean'],
  [{ name: 'x', url: 'https://x.example', colour: 'red' }, 'an unknown field'],
])('POST %j is 400 (%s) and stores nothing', async (body) => {
  await removeSeeded()
  const before = tablesOf(api)
  await expectError(await send('POST', body), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

test('width and height of 1 are accepted', async () => {
  await removeSeeded()
  expect(await ok('POST', { name: 'Tiny', url: 'http://localhost:5174/', width: 1, height: 1 })).toMatchObject({ width: 1, height: 1 })
  expect(await ok('PATCH', { width: 2 })).toMatchObject({ width: 2, height: 1 })
})

test('PATCH with a bad value is 400 and changes nothing', async () => {
  const before = await ok('GET')
  await expectError(await send('PATCH', { height: 0 }), 400, 'VALIDATION_ERROR')
  await expectError(await send('PATCH', { url: 'data:text/html,hi' }), 400, 'VALIDATION_ERROR')
  expect(await ok('GET')).toEqual(before)
})

test('another appId is 404', async () => {
  await expectError(await send('GET', undefined, '/crm/v3/extensions/calling/1002/settings'), 404, 'OBJECT_NOT_FOUND')
  await expectError(await send('POST', { name: 'x', url: 'https://x.example' }, '/crm/v3/extensions/calling/abc/settings'), 404, 'OBJECT_NOT_FOUND')
})

test('settings need the developer API key; a Bearer token is refused', async () => {
  await expectError(await c.req('GET', PATH, undefined, 'none'), 401, 'INVALID_AUTHENTICATION')
  await expectError(await c.req('GET', PATH), 401, 'INVALID_AUTHENTICATION')
  await expectError(await c.req('GET', PATH, undefined, { hapikey: 'wrong' }), 401, 'INVALID_AUTHENTICATION')
})

test('PUT is 405 with the allowed methods', async () => {
  const response = await send('PUT', { name: 'x' })
  expect(response.headers.get('allow')).toBe('POST, GET, PATCH, DELETE')
  await expectError(response, 405, 'METHOD_NOT_ALLOWED')
})
