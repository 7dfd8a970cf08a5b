import {
  clampSize,
  defaultWidgetUrl,
  httpUrl,
  overrideWithUrl,
  parseApiSettings,
  parseOverride,
  parseQueryWidget,
  queryWidgetNeedsConsent,
  resolveSettings,
  type ApiCallingSettings,
} from './settings.ts'

const api: ApiCallingSettings = {
  name: 'Ringside widget',
  url: 'http://127.0.0.1:4174/widget/',
  width: 400,
  height: 600,
  isReady: true,
  supportsInboundCalling: true,
  usesCallingWindow: false,
  usesRemote: false,
}

test('the API settings apply when nothing overrides them', () => {
  const settings = resolveSettings({ api, override: {}, queryUrl: null })
  expect(settings).toMatchObject({ url: api.url, name: 'Ringside widget', isReady: true })
  expect(settings?.sources).toEqual({ url: 'api', name: 'api', isReady: 'api' })
})

test('the localStorage override replaces url, name and isReady but keeps the size', () => {
  const settings = resolveSettings({
    api,
    override: { url: 'https://dialer.example/app', name: 'Dev build', isReady: false },
    queryUrl: null,
  })
  expect(settings).toMatchObject({ url: 'https://dialer.example/app', name: 'Dev build', isReady: false, width: 400, height: 600 })
  expect(settings?.sources).toEqual({ url: 'override', name: 'override', isReady: 'override' })
})

test('?widget= wins over the override for the URL only', () => {
  const settings = resolveSettings({ api, override: { url: 'https://a.example/', name: 'Dev' }, queryUrl: 'https://b.example/' })
  expect(settings?.url).toBe('https://b.example/')
  expect(settings?.sources.url).toBe('query')
  expect(settings?.name).toBe('Dev')
})

test('without API settings the default URL is used, and without any URL there is no widget', () => {
  expect(resolveSettings({ api: null, override: {}, queryUrl: null, defaultUrl: 'http://127.0.0.1:5174/widget/' })?.url).toBe(
    'http://127.0.0.1:5174/widget/',
  )
  expect(resolveSettings({ api: null, override: {}, queryUrl: null })).toBeNull()
})

test('an override URL that is not http(s) is refused and the API URL stays', () => {
  const { override, errors } = parseOverride(JSON.stringify({ url: 'javascript:alert(1)', name: 'Kept' }))
  expect(override).toEqual({ name: 'Kept' })
  expect(errors).toEqual([expect.stringContaining('not an http(s) URL')])
  expect(resolveSettings({ api, override, queryUrl: null })?.url).toBe(api.url)
})

test('an override that is not JSON, or not an object, is ignored with an error', () => {
  expect(parseOverride('{url:')).toEqual({ override: {}, errors: [expect.stringContaining('not valid JSON')] })
  expect(parseOverride('["https://x.example"]')).toEqual({ override: {}, errors: [expect.stringContaining('JSON object')] })
  expect(parseOverride(null)).toEqual({ override: {}, errors: [] })
})

test('ill-typed override fields are dropped one by one', () => {
  const { override, errors } = parseOverride(JSON.stringify({ isReady: 'yes', name: '', url: 'http://ok.example/w' }))
  expect(override).toEqual({ url: 'http://ok.example/w' })
  expect(errors).toHaveLength(2)
})

test('?widget= must be http(s) too', () => {
  expect(parseQueryWidget('?widget=http%3A%2F%2F127.0.0.1%3A4174%2Fwidget%2F%3Foutcome%3Dbusy')).toEqual({
    url: 'http://127.0.0.1:4174/widget/?outcome=busy',
    errors: [],
  })
  expect(parseQueryWidget('?widget=data:text/html,hi').url).toBeNull()
  expect(parseQueryWidget('?widget=data:text/html,hi').errors).toHaveLength(1)
  expect(parseQueryWidget('?other=1')).toEqual({ url: null, errors: [] })
})

test('httpUrl accepts only absolute http and https URLs', () => {
  expect(httpUrl('https://x.example/a?b=1')).toBe('https://x.example/a?b=1')
  expect(httpUrl('ftp://x.example/')).toBeNull()
  expect(httpUrl('/widget/')).toBeNull()
  expect(httpUrl(42)).toBeNull()
})

test('the API body is read defensively', () => {
  expect(parseApiSettings('nope').settings).toBeNull()
  const { settings, errors } = parseApiSettings({ url: 'file:///etc/passwd', width: 99999, height: 'tall' })
  expect(settings).toMatchObject({ url: '', width: 800, height: 600, isReady: true, name: 'Calling app' })
  expect(errors).toHaveLength(1)
})

test('sizes are clamped to sane bounds', () => {
  expect(clampSize(10, 5000)).toEqual({ width: 200, height: 900 })
  expect(clampSize(Number.NaN, 320.4)).toEqual({ width: 400, height: 320 })
})

test('the default widget lives on the next port, path /widget/', () => {
  expect(defaultWidgetUrl({ protocol: 'http:', hostname: '127.0.0.1', port: '4173' })).toBe('http://127.0.0.1:4174/widget/')
})

test('setting the URL from the UI keeps the other override fields; clearing removes the key when empty', () => {
  const set = overrideWithUrl(JSON.stringify({ isReady: false }), 'http://127.0.0.1:4174/widget/?x=1')
  expect(JSON.parse(set.value ?? 'null')).toEqual({ isReady: false, url: 'http://127.0.0.1:4174/widget/?x=1' })
  expect(overrideWithUrl(JSON.stringify({ url: 'http://a.example/' }), null)).toEqual({ value: null })
  expect(overrideWithUrl(null, 'ftp://nope')).toMatchObject({ value: null, error: expect.stringContaining('http(s)') })
})

test('?widget= loads at once only on this machine, judged on the parsed host; every other URL waits for a yes', () => {
  const onThisMachine = [
    'http://127.0.0.1:4174/widget/',
    'http://127.8.9.10/w',
    'http://0x7f.1/', // the URL parser reads it as 127.0.0.1
    'http://2130706433/', // 127.0.0.1 as one number
    'http://[::1]:3000/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://localhost:3000/',
    'https://widget.localhost/',
    'http://LOCALHOST./',
  ]
  const elsewhere = [
    'https://attacker.example/w',
    'http://127.attacker.example/',
    'http://localhost.attacker.example/',
    'http://127.0.0.1.nip.io/',
    'http://10.0.0.1/',
    'http://[::2]/',
    'http://[::ffff:a00:1]/',
    'http://0.0.0.0/',
    'https://user@attacker.example@127.0.0.1.example/',
    'not a url',
  ]
  for (const url of onThisMachine) expect(queryWidgetNeedsConsent(url), url).toBe(false)
  for (const url of elsewhere) expect(queryWidgetNeedsConsent(url), url).toBe(true)
})
