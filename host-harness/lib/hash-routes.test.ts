import fc from 'fast-check'
import { hrefs, navigateToRecord, parseHash, parseLocation, recordHref } from './hash-routes.ts'
import { recordTypeOf } from './crm-types.ts'

test.each([
  ['', { page: 'list', objectType: 'contacts' }],
  ['#/', { page: 'list', objectType: 'contacts' }],
  ['#/companies', { page: 'list', objectType: 'companies' }],
  ['#/tickets/12', { page: 'record', objectType: 'tickets', id: '12' }],
  ['#/developer', { page: 'developer', panel: 'account' }],
  ['#/developer/templates', { page: 'developer', panel: 'templates' }],
  ['#/contacts/abc', { page: 'not-found', path: '/contacts/abc' }],
  ['#/developer/nope', { page: 'not-found', path: '/developer/nope' }],
  ['#/calls/1', { page: 'not-found', path: '/calls/1' }],
  ['#/calling-integration-popup-ui/123456', { page: 'calling-window' }],
  ['#/calling-integration-popup-ui/999', { page: 'not-found', path: '/calling-integration-popup-ui/999' }],
  ['#/calling-integration-popup-ui', { page: 'not-found', path: '/calling-integration-popup-ui' }],
  ['#/calling-window', { page: 'calling-window' }],
  ['#/calling-window/2', { page: 'not-found', path: '/calling-window/2' }],
])('%s routes to %j', (hash, route) => {
  expect(parseHash(hash)).toEqual(route)
})

test('the OAuth callback is recognised in the query, before the hash', () => {
  const route = parseLocation('?oauth_callback=1&code=c&state=s', '#/contacts')
  expect(route.page).toBe('oauth-callback')
  expect(route.page === 'oauth-callback' && route.params.get('code')).toBe('c')
})

test('object types are understood in the spellings the SDK uses', () => {
  expect(recordTypeOf('CONTACT')).toBe('contacts')
  expect(recordTypeOf('0-2')).toBe('companies')
  expect(recordTypeOf('deal')).toBe('deals')
  expect(recordTypeOf('__proto__')).toBeUndefined()
  expect(recordTypeOf('calls')).toBeUndefined()
})

test('navigating to a record opens its page; an unknown type or a bad id is refused', () => {
  expect(navigateToRecord('CONTACT', '7')).toBe(true)
  expect(window.location.hash).toBe('#/contacts/7')
  expect(navigateToRecord('PLANET', '7')).toBe(false)
  expect(navigateToRecord('COMPANY', '7; alert(1)')).toBe(false)
  expect(window.location.hash).toBe('#/contacts/7')
})

// The lint rule ringside/url-sink trusts these builders by name (eslint.config.js): whatever ids and types
// they are given, they must stay references to this page (`#…`) that no value can turn into
// another scheme, host or path.
test('the route builders the URL lint rule trusts make only same-document references, for any input', () => {
  fc.assert(
    fc.property(fc.string(), fc.string(), (type, id) => {
      const made = [recordHref(type, id), hrefs.record('contacts', id), hrefs.list('deals'), hrefs.developer('oauth'), hrefs.tasks(), hrefs.callingWindow()].filter((href) => href !== null)
      for (const href of made) {
        expect(href).toMatch(/^#/)
        const resolved = new URL(href, 'http://127.0.0.1:5173/app/?x=1')
        expect(`${resolved.origin}${resolved.pathname}`).toBe('http://127.0.0.1:5173/app/')
        expect(resolved.hash.startsWith('#/')).toBe(true)
      }
    }),
    { numRuns: 300 },
  )
})
