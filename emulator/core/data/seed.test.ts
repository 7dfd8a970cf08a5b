import { createCrmService } from '../service.ts'
import { client, tablesOf } from '../objects/testing.ts'
import { T0 } from '../timeline/testing.ts'

const fresh = (widgetUrl?: string) => createCrmService({ now: () => T0, ...(widgetUrl && { seedOptions: { widgetUrl } }) })

test('the seed is deterministic: two fresh services hold the same data', () => {
  expect(tablesOf(fresh())).toBe(tablesOf(fresh()))
})

test('there are at least 8 contacts, each with e-mail, phone, first and last name, one with a mobile phone', async () => {
  const service = fresh()
  const contacts = (await client(service).ok('GET', '/crm/v3/objects/contacts?limit=100&properties=email,phone,firstname,lastname,mobilephone')).results
  expect(contacts.length).toBeGreaterThanOrEqual(8)
  for (const contact of contacts) {
    expect(contact.properties).toEqual(
      expect.objectContaining({
        email: expect.stringMatching(/^[^@\s]+@[^@\s]+$/),
        phone: expect.stringMatching(/^\+1 617 555 01\d\d$/),
        firstname: expect.any(String),
        lastname: expect.any(String),
      }),
    )
  }
  expect(contacts.filter((c: { properties: { mobilephone?: string } }) => c.properties.mobilephone)).toHaveLength(1)
  expect(new Set(contacts.map((c: { properties: { lastname: string } }) => c.properties.lastname)).size).toBe(contacts.length)
})

test('4 companies with phones, 3 deals, 2 tickets; contacts belong to companies', async () => {
  const c = client(fresh())
  const companies = (await c.ok('GET', '/crm/v3/objects/companies?properties=name,phone')).results
  expect(companies).toHaveLength(4)
  for (const company of companies) expect(company.properties.phone).toMatch(/^\+1 617 555 01\d\d$/)
  expect((await c.ok('GET', '/crm/v3/objects/deals')).results).toHaveLength(3)
  expect((await c.ok('GET', '/crm/v3/objects/tickets')).results).toHaveLength(2)
  const northwind = await c.ok('GET', '/crm/v3/objects/companies/1?associations=contacts')
  expect(northwind.associations.contacts.results.map((r: { id: string }) => r.id)).toEqual(['1', '1', '2', '2'])
})

test('timestamps are fixed offsets before now', async () => {
  const c = client(fresh())
  const maria = await c.ok('GET', '/crm/v3/objects/contacts/1')
  expect(maria.createdAt).toBe(new Date(T0 - 45 * 86_400_000).toISOString())
})

test('the calling settings of app 1001 point at the widget URL given in the options', async () => {
  const c = client(fresh('https://widget.example/'))
  const settings = await c.ok('GET', '/crm/v3/extensions/calling/1001/settings', undefined, 200, { hapikey: 'dev-key-local' })
  expect(settings).toMatchObject({ name: 'Ringside reference widget', url: 'https://widget.example/', width: 400, height: 600, isReady: true, supportsInboundCalling: true })
})
