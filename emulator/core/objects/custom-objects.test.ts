/**
 * Custom object schemas (the schemas API) and records of a custom type
 * through the objects API: create with the real validation, CRUD, search,
 * associations (also with calls), and nothing written when a request fails.
 */
import { createTestService, expectError, oauthCredential, type TestService } from '../timeline/testing.ts'
import { client, tablesOf, type Client } from './testing.ts'

let api: TestService
let c: Client
beforeEach(() => {
  api = createTestService()
  c = client(api)
})

const SCHEMAS = '/crm-object-schemas/v3/schemas'

const carSchema = (extra: Record<string, unknown> = {}) => ({
  name: 'car',
  labels: { singular: 'Car', plural: 'Cars' },
  primaryDisplayProperty: 'model',
  requiredProperties: ['model'],
  searchableProperties: ['model', 'vin'],
  secondaryDisplayProperties: ['year'],
  properties: [
    { name: 'model', label: 'Model', type: 'string', fieldType: 'text' },
    { name: 'vin', label: 'VIN', type: 'string', fieldType: 'text', hasUniqueValue: true },
    { name: 'year', label: 'Year', type: 'number', fieldType: 'number' },
    { name: 'condition', label: 'Condition', type: 'enumeration', fieldType: 'select', options: [{ label: 'New', value: 'new' }, { label: 'Used', value: 'used' }] },
  ],
  associatedObjects: ['CONTACT', 'calls'],
  ...extra,
})

async function createCar() {
  return c.ok('POST', SCHEMAS, carSchema(), 201)
}

test('creating a schema returns the ObjectSchema: ids, fullyQualifiedName, properties in their group, associations', async () => {
  const schema = await createCar()
  expect(schema).toMatchObject({
    id: '1',
    objectTypeId: '2-1',
    name: 'car',
    fullyQualifiedName: 'p123456_car',
    labels: { singular: 'Car', plural: 'Cars' },
    requiredProperties: ['model'],
    searchableProperties: ['model', 'vin'],
    primaryDisplayProperty: 'model',
    secondaryDisplayProperties: ['year'],
    archived: false,
  })
  expect(schema.properties.map((p: { name: string; groupName: string }) => [p.name, p.groupName])).toEqual([
    ['model', 'car_information'],
    ['vin', 'car_information'],
    ['year', 'car_information'],
    ['condition', 'car_information'],
  ])
  expect(schema.associations).toEqual([
    expect.objectContaining({ fromObjectTypeId: '2-1', toObjectTypeId: '0-1', name: 'car_to_contact', id: expect.stringMatching(/^\d+$/) }),
    expect.objectContaining({ fromObjectTypeId: '2-1', toObjectTypeId: '0-48', name: 'car_to_call' }),
  ])
  // Read back by every name the real API takes.
  for (const name of ['2-1', 'p123456_car', 'p_car']) expect((await c.ok('GET', `${SCHEMAS}/${name}`)).objectTypeId).toBe('2-1')
  expect((await c.ok('GET', '/crm/v3/schemas')).results).toHaveLength(1)
  expect((await c.ok('GET', `${SCHEMAS}?includePropertyDefinitions=false`)).results[0].properties).toEqual([])
  expect((await c.ok('POST', `${SCHEMAS}/batch/read`, { inputs: ['p_car', '2-99'] })).results.map((s: { name: string }) => s.name)).toEqual(['car'])
})

test('a schema with a reserved name, a taken name, a bad name or properties it does not define is refused, and nothing is written', async () => {
  await createCar()
  const before = tablesOf(api)
  for (const name of ['contact', 'Contacts', 'ticket', 'deals', 'note']) {
    const error = await expectError(await c.req('POST', SCHEMAS, carSchema({ name })), 400, 'VALIDATION_ERROR')
    expect(error.message).toContain('reserved')
  }
  await expectError(await c.req('POST', SCHEMAS, carSchema({ name: 'CAR' })), 409, 'CONFLICT')
  await expectError(await c.req('POST', SCHEMAS, carSchema({ name: '1car' })), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', SCHEMAS, carSchema({ name: 'boat', requiredProperties: ['hull'] })), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', SCHEMAS, carSchema({ name: 'boat', primaryDisplayProperty: 'hull' })), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', SCHEMAS, carSchema({ name: 'boat', searchableProperties: ['hull'] })), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', SCHEMAS, carSchema({ name: 'boat', associatedObjects: ['SPACESHIP'] })), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', SCHEMAS, carSchema({ name: 'boat', properties: [{ name: 'hs_x', label: 'X', type: 'string', fieldType: 'text' }], requiredProperties: [], primaryDisplayProperty: undefined, searchableProperties: [], secondaryDisplayProperties: [] })), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', SCHEMAS, carSchema({ name: 'boat', properties: [{ name: 'x', label: 'X', type: 'number', fieldType: 'text' }], requiredProperties: [], primaryDisplayProperty: undefined, searchableProperties: [], secondaryDisplayProperties: [] })), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', SCHEMAS, { name: 'boat' }), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

test('records of the new type: create, read by every type name, update, list, search, batch, archive', async () => {
  await createCar()
  const made = await c.ok('POST', '/crm/v3/objects/2-1', { properties: { model: 'Roadster', vin: 'VIN1', year: 2021, condition: 'used' } }, 201)
  expect(made.properties).toMatchObject({ model: 'Roadster', vin: 'VIN1', year: '2021', condition: 'used', hs_object_id: made.id })
  for (const name of ['2-1', 'p123456_car', 'p_car']) expect((await c.ok('GET', `/crm/v3/objects/${name}/${made.id}?properties=model`)).properties.model).toBe('Roadster')
  expect((await c.ok('GET', `/crm/v3/objects/p_car/VIN1?idProperty=vin&properties=year`)).properties.year).toBe('2021')
  expect((await c.ok('PATCH', `/crm/v3/objects/p_car/${made.id}`, { properties: { condition: 'new' } })).properties.condition).toBe('new')
  await c.ok('POST', '/crm/v3/objects/2-1/batch/create', { inputs: [{ properties: { model: 'Cruiser' } }, { properties: { model: 'Hatch', vin: 'VIN2' } }] }, 201)
  expect((await c.ok('GET', '/crm/v3/objects/2-1?limit=2')).paging.next.after).toBeDefined()
  const found = await c.ok('POST', '/crm/v3/objects/p123456_car/search', { query: 'cruis', properties: ['model'] })
  expect(found.results.map((r: { properties: { model: string } }) => r.properties.model)).toEqual(['Cruiser'])
  const byFilter = await c.ok('POST', '/crm/v3/objects/2-1/search', { filterGroups: [{ filters: [{ propertyName: 'vin', operator: 'EQ', value: 'vin2' }] }] })
  expect(byFilter.total).toBe(1)
  await c.ok('DELETE', `/crm/v3/objects/2-1/${made.id}`, undefined, 204)
  await expectError(await c.req('GET', `/crm/v3/objects/2-1/${made.id}`), 404, 'OBJECT_NOT_FOUND')
})

test('a record of the new type is checked: required properties, option values, unique values, unknown properties', async () => {
  await createCar()
  await c.ok('POST', '/crm/v3/objects/2-1', { properties: { model: 'A', vin: 'SAME' } }, 201)
  const before = tablesOf(api)
  const missing = await expectError(await c.req('POST', '/crm/v3/objects/2-1', { properties: { year: 2020 } }), 400, 'VALIDATION_ERROR')
  expect(missing.message).toContain('model')
  await expectError(await c.req('POST', '/crm/v3/objects/2-1', { properties: { model: 'B', condition: 'broken' } }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v3/objects/2-1', { properties: { model: 'B', vin: 'SAME' } }), 409, 'CONFLICT')
  await expectError(await c.req('POST', '/crm/v3/objects/2-1', { properties: { model: 'B', colour: 'red' } }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('POST', '/crm/v3/objects/2-1', { properties: { model: 'B', hubspot_owner_id: '999' } }), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/objects/2-9'), 400, 'VALIDATION_ERROR')
  await expectError(await c.req('GET', '/crm/v3/objects/car'), 400, 'VALIDATION_ERROR')
  expect(tablesOf(api)).toBe(before)
})

test('associations: a record of the new type with contacts and calls, both ways, v3 names and ids', async () => {
  const schema = await createCar()
  const toContact = Number(schema.associations[0].id)
  const toCall = Number(schema.associations[1].id)
  const car = await c.ok('POST', '/crm/v3/objects/2-1', { properties: { model: 'Van' }, associations: [{ to: { id: '1' }, types: [{ associationCategory: 'USER_DEFINED', associationTypeId: toContact }] }] }, 201)
  const withContacts = await c.ok('GET', `/crm/v3/objects/2-1/${car.id}?associations=contacts`)
  expect(withContacts.associations.contacts.results).toEqual([{ id: '1', type: 'car_to_contact' }])
  const contact = await c.ok('GET', '/crm/v3/objects/contacts/1?associations=p_car')
  expect(contact.associations.p123456_car.results).toEqual([{ id: car.id, type: 'contact_to_car' }])
  // A call logged for the car (the calling app's call engagement, associated by the car's call association).
  const call = await c.ok('POST', '/crm/v3/objects/calls', { properties: { hs_call_title: 'Service booking', hs_call_direction: 'OUTBOUND' } }, 201)
  await c.ok('PUT', `/crm/v3/objects/p_car/${car.id}/associations/calls/${call.id}/${toCall}`)
  expect((await c.ok('GET', `/crm/v3/objects/calls/${call.id}/associations/2-1`)).results).toEqual([{ id: car.id, type: 'call_to_car' }])
  expect((await c.ok('GET', `/crm/v3/objects/2-1/${car.id}/associations/calls`)).results).toEqual([{ id: call.id, type: 'car_to_call' }])
  await c.ok('DELETE', `/crm/v3/objects/2-1/${car.id}/associations/calls/${call.id}/car_to_call`, undefined, 204)
  expect((await c.ok('GET', `/crm/v3/objects/2-1/${car.id}/associations/calls`)).results).toEqual([])
  // Merging the contact keeps its car.
  await c.ok('POST', '/crm/v3/objects/contacts', { properties: { email: 'twin@example.com' } }, 201)
  const merged = await c.ok('POST', '/crm/v3/objects/contacts/merge', { primaryObjectId: '1', objectIdToMerge: '10' })
  expect((await c.ok('GET', `/crm/v3/objects/2-1/${car.id}?associations=contacts`)).associations.contacts.results).toEqual([{ id: merged.id, type: 'car_to_contact' }])
  // A HUBSPOT_DEFINED category does not name a custom association type.
  await expectError(
    await c.req('POST', '/crm/v3/objects/2-1', { properties: { model: 'X' }, associations: [{ to: { id: '1' }, types: [{ associationCategory: 'HUBSPOT_DEFINED', associationTypeId: toContact }] }] }),
    400,
    'VALIDATION_ERROR',
  )
})

test('schema associations: define one more, refuse a duplicate, delete one (its links go with it)', async () => {
  const schema = await createCar()
  const added = await c.ok('POST', `${SCHEMAS}/p_car/associations`, { fromObjectTypeId: '2-1', toObjectTypeId: '0-2', name: 'car_to_company' }, 201)
  expect(added).toMatchObject({ fromObjectTypeId: '2-1', toObjectTypeId: '0-2', name: 'car_to_company' })
  await expectError(await c.req('POST', `${SCHEMAS}/2-1/associations`, { fromObjectTypeId: '2-1', toObjectTypeId: 'companies' }), 409, 'CONFLICT')
  await expectError(await c.req('POST', `${SCHEMAS}/2-1/associations`, { fromObjectTypeId: '0-1', toObjectTypeId: '0-2' }), 400, 'VALIDATION_ERROR')
  const car = await c.ok('POST', '/crm/v3/objects/2-1', { properties: { model: 'Van' } }, 201)
  await c.ok('PUT', `/crm/v3/objects/2-1/${car.id}/associations/contacts/1/${schema.associations[0].id}`)
  await c.ok('DELETE', `${SCHEMAS}/2-1/associations/${schema.associations[0].id}`, undefined, 204)
  expect((await c.ok('GET', '/crm/v3/objects/contacts/1?associations=2-1')).associations).toBeUndefined()
  expect((await c.ok('GET', `${SCHEMAS}/2-1`)).associations.map((a: { name: string }) => a.name)).toEqual(['car_to_call', 'car_to_company'])
})

test('PATCH changes labels and display properties; DELETE archives a type without records, and archived=true removes it', async () => {
  await createCar()
  const patched = await c.ok('PATCH', `${SCHEMAS}/2-1`, { labels: { plural: 'Vehicles' }, searchableProperties: ['vin'], description: 'Fleet' })
  expect(patched).toMatchObject({ objectTypeId: '2-1', labels: { singular: 'Car', plural: 'Vehicles' }, searchableProperties: ['vin'], description: 'Fleet', portalId: 123456 })
  await expectError(await c.req('PATCH', `${SCHEMAS}/2-1`, { requiredProperties: ['nope'] }), 400, 'VALIDATION_ERROR')
  const car = await c.ok('POST', '/crm/v3/objects/2-1', { properties: { model: 'Van' } }, 201)
  await expectError(await c.req('DELETE', `${SCHEMAS}/2-1`), 400, 'VALIDATION_ERROR')
  await c.ok('DELETE', `/crm/v3/objects/2-1/${car.id}`, undefined, 204)
  await c.ok('POST', '/crm/v3/objects/contacts/gdpr-delete', { objectId: '9' }, 204)
  await expectError(await c.req('DELETE', `${SCHEMAS}/2-1`), 400, 'VALIDATION_ERROR') // the record in the recycle bin still counts
  await c.ok('POST', `/crm/v3/objects/2-1/${car.id}/restore`)
  await c.ok('POST', '/crm/v3/objects/2-1/batch/archive', { inputs: [{ id: car.id }] }, 204)
  expect(api.objects.count('2-1', true)).toBe(1)
  api.objects.purge('2-1', car.id)
  await c.ok('DELETE', `${SCHEMAS}/2-1`, undefined, 204)
  await expectError(await c.req('GET', `${SCHEMAS}/2-1`), 404, 'OBJECT_NOT_FOUND')
  await expectError(await c.req('GET', '/crm/v3/objects/2-1'), 400, 'VALIDATION_ERROR')
  expect((await c.ok('GET', `${SCHEMAS}?archived=true`)).results.map((s: { name: string }) => s.name)).toEqual(['car'])
  await c.ok('DELETE', `${SCHEMAS}/2-1?archived=true`, undefined, 204)
  expect((await c.ok('POST', SCHEMAS, carSchema(), 201)).objectTypeId).toBe('2-2')
})

test('scopes: schemas need crm.schemas.custom.*, records crm.objects.custom.*', async () => {
  await createCar()
  const objectsOnly = await oauthCredential(api, 'crm.objects.custom.read crm.objects.custom.write')
  await expectError(await c.req('GET', SCHEMAS, undefined, objectsOnly), 403, 'MISSING_SCOPES')
  expect((await c.req('POST', '/crm/v3/objects/2-1', { properties: { model: 'Van' } }, objectsOnly)).status).toBe(201)
  const schemasOnly = await oauthCredential(api, 'crm.schemas.custom.read')
  expect((await c.req('GET', SCHEMAS, undefined, schemasOnly)).status).toBe(200)
  await expectError(await c.req('GET', '/crm/v3/objects/2-1', undefined, schemasOnly), 403, 'MISSING_SCOPES')
})
