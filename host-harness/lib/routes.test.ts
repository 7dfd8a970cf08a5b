import { navigateToRecord, parseHash, parseLocation } from './routes.ts'
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
