import { describe, expect, it } from 'vitest'
import { parseHash } from '../host-harness/lib/hash-routes.ts'
import { openTarget } from './open-target.ts'

const ORIGIN = 'http://127.0.0.1:7464'

describe('ringside open <page>', () => {
  it.each([
    ['/contacts/1', `${ORIGIN}/#/contacts/1`],
    ['contacts/1', `${ORIGIN}/#/contacts/1`],
    ['/tickets', `${ORIGIN}/#/tickets`],
    ['/tasks', `${ORIGIN}/#/tasks`],
    ['/calling-window', `${ORIGIN}/#/calling-window`],
    ['/developer/calling-settings', `${ORIGIN}/#/developer/calling-settings`],
    ['/#/companies/2', `${ORIGIN}/#/companies/2`],
    ['#/deals', `${ORIGIN}/#/deals`],
  ])('%s is the harness route %s', (page, url) => {
    expect(openTarget(page, ORIGIN)).toBe(url)
    // The harness routes it to a page of its own, not its not-found page.
    expect(parseHash(new URL(url).hash).page).not.toBe('not-found')
  })

  it.each([
    ['/', `${ORIGIN}/`],
    ['/?widget=http://localhost:5174/', `${ORIGIN}/?widget=http://localhost:5174/`],
    ['/widget/', `${ORIGIN}/widget/`],
    ['/widget', `${ORIGIN}/widget`],
    ['/widget/?outcome=busy', `${ORIGIN}/widget/?outcome=busy`],
    ['/oauth/authorize/?client_id=local-client', `${ORIGIN}/oauth/authorize/?client_id=local-client`],
    ['/crm/v3/objects/contacts', `${ORIGIN}/crm/v3/objects/contacts`],
    ['/sdk/latest/calling-extensions.js', `${ORIGIN}/sdk/latest/calling-extensions.js`],
    ['/index.html', `${ORIGIN}/index.html`],
    ['http://localhost:3000/dialer', 'http://localhost:3000/dialer'],
  ])('%s is what the server serves, opened as %s', (page, url) => {
    expect(openTarget(page, ORIGIN)).toBe(url)
  })
})
