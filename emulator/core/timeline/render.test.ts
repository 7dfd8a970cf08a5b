import { interpolate, renderTemplate } from './render.ts'
import { compileTemplate } from './template-compile.ts'
import { escapeHtml } from './template-html.ts'
import { formatDate } from './template-interpreter.ts'
import { MAX_TEMPLATE_DEPTH, TemplateError, type RenderInput } from './template-rules.ts'
import { body, call, createTestService, developer, expectError, oauthCredential, privateApp, type TestService } from '../../testing/timeline.ts'

const NOV_14 = Date.UTC(2023, 10, 14, 22, 13, 20)
const text = (source: string, tokens: Record<string, string> = {}, extra: Partial<RenderInput> = {}, kind: 'header' | 'detail' = 'detail') =>
  interpolate(source, kind, { tokens, ...extra })

// ------------------------------------------------------------ Handlebars

test('{{value}}, {{{triple}}} and {{&amp}} are all HTML-escaped', () => {
  const tokens = { v: '<b>"x" & \'y\'</b>' }
  const escaped = '&lt;b&gt;&quot;x&quot; &amp; &#x27;y&#x27;&lt;/b&gt;'
  expect(text('{{v}}', tokens)).toBe(escaped)
  expect(text('{{{v}}}', tokens)).toBe(escaped)
  expect(text('{{&v}}', tokens)).toBe(escaped)
})

test('missing values render empty; numbers and booleans render as text; objects do not leak [object Object]', () => {
  expect(text('[{{nope}}]')).toBe('[]')
  expect(text('{{extraData.n}} {{extraData.b}} {{extraData.o}} {{extraData.a}}', {}, { extraData: { n: 3, b: false, o: { x: 1 }, a: [1, 'two', { z: 1 }] } })).toBe(
    '3 false  1,two,',
  )
})

test('#if / else / else if / #unless follow Handlebars truthiness, with includeZero', () => {
  const src = '{{#if a}}A{{else if b}}B{{else}}C{{/if}}'
  expect(text(src, { a: 'x' })).toBe('A')
  expect(text(src, { a: '', b: 'y' })).toBe('B')
  expect(text(src, {})).toBe('C')
  expect(text('{{#unless a}}none{{else}}some{{/unless}}', {})).toBe('none')
  expect(text('{{#if extraData.z}}T{{else}}F{{/if}}', {}, { extraData: { z: 0 } })).toBe('F')
  expect(text('{{#if extraData.z includeZero=true}}T{{else}}F{{/if}}', {}, { extraData: { z: 0 } })).toBe('T')
  expect(text('{{#if extraData.list}}T{{else}}F{{/if}}', {}, { extraData: { list: [] } })).toBe('F')
})

test('#each walks arrays with this, @index, @first, @last and objects with @key; else renders for empty', () => {
  const extraData = { items: ['a', 'b', 'c'], map: { x: 1, y: 2 }, none: [] }
  expect(text('{{#each extraData.items}}{{@index}}={{this}}{{#if @first}}(first){{/if}}{{#if @last}}(last){{/if}} {{/each}}', {}, { extraData })).toBe(
    '0=a(first) 1=b 2=c(last) ',
  )
  expect(text('{{#each extraData.map}}{{@key}}:{{this}};{{/each}}', {}, { extraData })).toBe('x:1;y:2;')
  expect(text('{{#each extraData.none}}x{{else}}empty{{/each}}', {}, { extraData })).toBe('empty')
  expect(text('{{#each extraData.items as |item i|}}{{i}}{{item}}{{/each}}', {}, { extraData })).toBe('0a1b2c')
})

test('#with changes the context; ../ and @root reach outer data', () => {
  const extraData = { user: { name: 'Ada', tags: ['x'] } }
  expect(text('{{#with extraData.user}}{{name}} of {{../org}} / {{@root.org}}{{/with}}', { org: 'ACME' }, { extraData })).toBe('Ada of ACME / ACME')
  expect(text('{{#with extraData.missing}}yes{{else}}no{{/with}}', {}, { extraData })).toBe('no')
  expect(text('{{#each extraData.user.tags}}{{../extraData.user.name}}{{/each}}', {}, { extraData })).toBe('Ada')
})

test('a token whose name holds dots is found by {{a.b}} and by {{[a.b]}}', () => {
  expect(text('{{order.id}} {{[order.id]}}', { 'order.id': '42' })).toBe('42 42')
})

test('formatDate works as a block and as a mustache, in UTC, with each format', () => {
  expect(text('{{#formatDate timestamp}}{{/formatDate}}', {}, { timestamp: NOV_14 })).toBe('2023-11-14 22:13 UTC')
  expect(text('{{formatDate timestamp format="long"}}', {}, { timestamp: NOV_14 })).toBe('November 14, 2023 10:13 PM UTC')
  expect(text('{{formatDate when format="date"}}', { when: String(NOV_14) })).toBe('2023-11-14')
  expect(formatDate(NOV_14, 'iso')).toBe('2023-11-14T22:13:20.000Z')
  expect(formatDate(NOV_14, 'time')).toBe('22:13 UTC')
  expect(formatDate(NOV_14, 'short')).toBe('11/14/2023')
  expect(text('[{{formatDate nope}}]', {})).toBe('[]')
})

test('extraData and formatDate render empty in the header', () => {
  const input = { tokens: { t: 'T' }, extraData: { secret: 'S' }, timestamp: NOV_14 }
  expect(interpolate('{{t}}|{{extraData.secret}}|{{formatDate timestamp}}|{{#formatDate timestamp}}{{/formatDate}}', 'header', input)).toBe('T|||')
  expect(interpolate('{{t}}|{{extraData.secret}}|{{formatDate timestamp format="date"}}', 'detail', input)).toBe('T|S|2023-11-14')
})

test('lookups see own properties only: no prototype, no constructor, no __proto__', () => {
  const extraData = JSON.parse('{"__proto__": {"polluted": "yes"}, "plain": {}}')
  for (const source of [
    '{{constructor}}',
    '{{constructor.constructor}}',
    '{{__proto__}}',
    '{{toString}}',
    '{{hasOwnProperty}}',
    '{{extraData.plain.constructor.name}}',
    '{{extraData.__proto__.polluted}}',
    '{{extraData.plain.__proto__}}',
    '{{#with extraData.plain}}{{constructor.name}}{{/with}}',
    '{{#each extraData}}{{@key}}{{/each}}',
    '{{t.length}}',
  ]) {
    expect(text(source, { t: 'abc' }, { extraData }), source).toBe(source === '{{#each extraData}}{{@key}}{{/each}}' ? 'plain' : '')
  }
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

test('a template that would loop too long renders a notice instead of hanging', () => {
  const big = Array.from({ length: 2000 }, (_, i) => i)
  const html = renderTemplate('{{#each extraData.a}}{{#each ../extraData.a}}x{{/each}}{{/each}}', 'detail', { tokens: {}, extraData: { a: big } })
  expect(html).toMatch(/could not be rendered/)
})

// --------------------------------------------------------------- Markdown

test('the header is inline Markdown; the detail is block Markdown', () => {
  expect(renderTemplate('**{{t}}** and _x_', 'header', { tokens: { t: 'Bold' } })).toBe('<strong>Bold</strong> and <em>x</em>')
  expect(renderTemplate('# {{t}}\n\n- a\n- b', 'detail', { tokens: { t: 'Title' } })).toBe('<h1>Title</h1>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n')
  expect(renderTemplate(undefined, 'detail', { tokens: {} })).toBe('')
})

test('http(s) links are kept (with a URL built from tokens intact); other URLs are dropped, keeping the text', () => {
  const link = (href: string) => renderTemplate('[go]({{u}})', 'header', { tokens: { u: href } })
  expect(link('https://a.example/p?x=1&y=2')).toBe('<a href="https://a.example/p?x=1&amp;y=2" rel="noopener noreferrer nofollow" target="_blank">go</a>')
  for (const bad of ['mailto:ada@example.com', 'https://user:pw@a.example/', '//a.example/', 'javascript:alert(1)', 'JaVaScRiPt:alert(1)', 'java&#x09;script:alert(1)', 'data:text/html,x', 'vbscript:x', '/relative', '#top']) {
    expect(link(bad), bad).toBe('go')
  }
  // Not a Markdown link at all (a raw tab): stays text.
  expect(link('java\tscript:alert(1)')).not.toContain('<a')
  expect(renderTemplate('<javascript:alert(1)>', 'header', { tokens: {} })).not.toContain('href')
})

test('images keep http(s) sources only; others become their alt text', () => {
  expect(renderTemplate('![logo](https://img.example/a.png)', 'header', { tokens: {} })).toBe('<img src="https://img.example/a.png" alt="logo">')
  expect(renderTemplate('![logo](javascript:alert(1))', 'header', { tokens: {} })).toBe('logo')
  expect(renderTemplate('![logo](data:image/svg+xml;base64,PHN2Zz4=)', 'header', { tokens: {} })).toBe('logo')
})

test('raw HTML written in a template is shown as text', () => {
  expect(renderTemplate('<b>bold</b> <div onclick="x">d</div>', 'header', { tokens: {} })).toBe('&lt;b&gt;bold&lt;/b&gt; &lt;div onclick&#x3D;&quot;x&quot;&gt;d&lt;/div&gt;')
  expect(renderTemplate('`{{t}}`', 'header', { tokens: { t: '<b>' } })).toBe('<code>&lt;b&gt;</code>')
})

// ------------------------------------------------------------ XSS corpus

const XSS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<svg onload=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '[x](javascript:alert(1))',
  '[x](JAVASCRIPT:alert(1))',
  '[x](&#106;avascript:alert(1))',
  '[x](java&#x09;script:alert(1))',
  '![x](javascript:alert(1))',
  '![x](x" onerror="alert(1))',
  '[x](https://ok.example" onclick="alert(1))',
  '<javascript:alert(1)>',
  '[x]: javascript:alert(1)\n\n[y][x]',
  '{{constructor.constructor}}',
  '{{constructor.constructor "alert(1)"}}',
  '"><script>alert(1)</script>',
  "'><img src=x onerror=alert(1)>",
  '<iframe src="javascript:alert(1)"></iframe>',
  '<style>body{background:url(javascript:alert(1))}</style>',
  '```\n</code><script>alert(1)</script>\n```',
  '`</code><img src=x onerror=alert(1)>`',
  '<!-- --><script>alert(1)</script>',
]

const ALLOWED_TAGS = new Set(['p', 'strong', 'em', 'a', 'img', 'code', 'pre', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'blockquote', 'hr', 'br', 'del', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'input'])
const ALLOWED_ATTRIBUTES = new Set(['href', 'src', 'alt', 'title', 'rel', 'target', 'align', 'start', 'type', 'checked', 'disabled'])

/** Every `<` in safe output starts one of our tags: no script, no on* attribute, no javascript: URL. */
function expectSafe(html: string, label: string): void {
  expect(html, label).not.toMatch(/<script/i)
  expect(html, label).not.toMatch(/(href|src)\s*=\s*["']?\s*(javascript|data|vbscript):/i)
  for (const tag of html.match(/<[^>]*>/g) ?? []) {
    const name = /^<\/?([a-z0-9]+)/i.exec(tag)?.[1]?.toLowerCase()
    expect(name && ALLOWED_TAGS.has(name), `${label}: tag ${tag}`).toBe(true)
    for (const [, attribute] of tag.matchAll(/\s([a-z-]+)(?:="[^"]*"|='[^']*'|=[^\s>]*)?/gi)) {
      expect(ALLOWED_ATTRIBUTES.has((attribute as string).toLowerCase()), `${label}: attribute in ${tag}`).toBe(true)
    }
    expect(tag, label).not.toMatch(/\son[a-z]+\s*=/i)
    expect(tag, label).not.toMatch(/javascript:/i)
    for (const [, url] of tag.matchAll(/(?:href|src)="([^"]*)"/g)) expect(url, label).toMatch(/^https?:\/\//)
  }
}

test.each(XSS)('the hostile input %j is rendered harmless as a token value, in extraData and as template text', (payload) => {
  for (const kind of ['header', 'detail'] as const) {
    expectSafe(renderTemplate('{{t}} {{{t}}} [l]({{t}}) ![i]({{t}})', kind, { tokens: { t: payload } }), `${kind} token`)
    expectSafe(renderTemplate('{{#each extraData}}{{this}}{{/each}} {{extraData.v}}', kind, { tokens: {}, extraData: { v: payload, list: [payload] } }), `${kind} extraData`)
    let refusal: unknown
    try {
      compileTemplate(payload)
    } catch (error) {
      refusal = error
    }
    const rendered = renderTemplate(payload, kind, { tokens: {} })
    if (refusal !== undefined) {
      // Refused as a template (e.g. an unknown helper): a TemplateError that says why, and only that notice is rendered.
      expect(refusal, `${kind} template ${payload}`).toBeInstanceOf(TemplateError)
      expect(rendered).toBe(`<p><em>This event could not be rendered: ${escapeHtml((refusal as Error).message)}</em></p>`)
    }
    expectSafe(rendered, `${kind} template`)
  }
})

// -------------------------------------------------------------- over HTTP

let api: TestService
beforeEach(() => {
  api = createTestService()
})

test('an event built from hostile tokens renders safely through /render and the record view', async () => {
  const created = await call(api, 'POST', '/crm/v3/timeline/1001/event-templates', {
    auth: developer,
    json: { name: 'X', headerTemplate: '{{a}} [x]({{b}})', detailTemplate: '{{{a}}}\n\n{{extraData.html}}', tokens: [{ name: 'a', label: 'A', type: 'string' }, { name: 'b', label: 'B', type: 'string' }] },
  })
  const template = await body(created)
  const oauth = await oauthCredential(api, 'timeline')
  const event = await body(
    await call(api, 'POST', '/crm/v3/timeline/events', {
      auth: oauth,
      json: { eventTemplateId: template.id, objectId: '1', tokens: { a: '<img src=x onerror=alert(1)>', b: 'javascript:alert(1)' }, extraData: { html: '<script>alert(1)</script>' } },
    }),
  )
  for (const detail of ['false', 'true']) {
    const html = await (await call(api, 'GET', `/crm/v3/timeline/events/${template.id}/${event.id}/render?detail=${detail}`, { auth: oauth })).text()
    expectSafe(html, `render detail=${detail}`)
    expect(html).toContain('&lt;')
  }
  const listed = await body(await call(api, 'GET', '/_ringside/v1/timeline/events?objectType=contacts&objectId=1', { auth: privateApp }))
  expectSafe(listed.results[0].headerHtml, 'list header')
  expectSafe(listed.results[0].detailHtml, 'list detail')
})

test('preview renders given templates with given tokens, extraData and timestamp', async () => {
  const response = await call(api, 'POST', '/_ringside/v1/timeline/preview', {
    json: {
      headerTemplate: 'Hello **{{name}}**',
      detailTemplate: '{{#each extraData.items}}- {{this}}\n{{/each}}\n{{formatDate timestamp format="date"}}',
      tokens: { name: 'Ada', count: 3 },
      extraData: { items: ['a', 'b'] },
      timestamp: '2026-03-04T05:06:07Z',
    },
  })
  expect(response.status).toBe(200)
  expect(await body(response)).toEqual({
    header: 'Hello <strong>Ada</strong>',
    detail: '<ul>\n<li>a</li>\n<li>b\n2026-03-04</li>\n</ul>\n',
    tokens: { name: 'Ada', count: '3' },
  })
})

test('preview of a saved template fills in sample tokens per type, overridable', async () => {
  const template = await body(
    await call(api, 'POST', '/crm/v3/timeline/1001/event-templates', {
      auth: developer,
      json: {
        name: 'P',
        headerTemplate: '{{s}} {{n}} {{e}} {{formatDate d}}',
        detailTemplate: '{{formatDate d format="iso"}}',
        tokens: [
          { name: 's', label: 'Page', type: 'string' },
          { name: 'n', label: 'N', type: 'number' },
          { name: 'e', label: 'E', type: 'enumeration', options: [{ value: 'gold', label: 'Gold' }] },
          { name: 'd', label: 'D', type: 'date' },
        ],
      },
    }),
  )
  const preview = await body(await call(api, 'POST', '/_ringside/v1/timeline/preview', { json: { eventTemplateId: template.id, tokens: { n: 7 } } }))
  expect(preview.header).toBe('Sample Page 7 gold ')
  expect(preview.detail).toBe(`<p>${new Date(api.clock.now).toISOString()}</p>\n`)
})

test('preview refuses an invalid template with the parser message, and an unknown template with 404', async () => {
  const error = await expectError(await call(api, 'POST', '/_ringside/v1/timeline/preview', { json: { headerTemplate: '{{#each x}}' } }), 400, 'VALIDATION_ERROR', 'INVALID_TEMPLATE')
  expect(error.message).toMatch(/Parse error/)
  await expectError(await call(api, 'POST', '/_ringside/v1/timeline/preview', { json: { eventTemplateId: '5' } }), 404, 'OBJECT_NOT_FOUND')
})

// ----------------------------------------------------------------- nesting depth

const nested = (depth: number) => `${'{{#each extraData}}'.repeat(depth)}x${'{{/each}}'.repeat(depth)}`

test(`blocks nested ${MAX_TEMPLATE_DEPTH} deep are taken; one more is refused before parsing`, () => {
  expect(() => compileTemplate(nested(MAX_TEMPLATE_DEPTH))).not.toThrow()
  expect(() => compileTemplate(nested(MAX_TEMPLATE_DEPTH + 1))).toThrow(/nested more than 100 deep/)
})

test('2,000 nested {{#each}} are refused at once, and comments or else-blocks do not count as nesting', () => {
  const started = performance.now()
  expect(() => compileTemplate(nested(2000))).toThrow(TemplateError)
  console.log(`2,000 nested {{#each}} refused in ${(performance.now() - started).toFixed(1)} ms`)
  const withNoise = `{{!-- ${'{{#if a}}'.repeat(150)} --}}{{! {{#if b}} }}{{#if a}}x{{^}}y{{/if}}`
  expect(() => compileTemplate(withNoise)).not.toThrow()
})

test('a template of 2,000 nested blocks is 400 over HTTP and nothing is saved', async () => {
  const response = await call(api, 'POST', '/crm/v3/timeline/1001/event-templates', {
    auth: developer,
    json: { name: 'Deep', objectType: 'contacts', headerTemplate: nested(2000), tokens: [] },
  })
  const error = await expectError(response, 400, 'VALIDATION_ERROR')
  expect(error.message).toMatch(/nested more than 100 deep/)
})
