import { fromWireRequest, fromWireResponse, toWireRequest, toWireResponse, transferables } from './wire.ts'

test('a request crosses to the worker with its method, URL, headers and body', async () => {
  const wire = await toWireRequest(
    new Request('http://127.0.0.1:5173/crm/v3/objects/tickets?limit=2', {
      method: 'POST',
      headers: { authorization: 'Bearer pat-local', 'content-type': 'application/json' },
      body: JSON.stringify({ properties: { subject: 'Ünïcode ✓' } }),
    }),
  )
  expect(transferables(wire)).toEqual([wire.body])
  // What postMessage does to it: a structured clone.
  const request = fromWireRequest(structuredClone(wire))
  expect(request.method).toBe('POST')
  expect(request.url).toBe('http://127.0.0.1:5173/crm/v3/objects/tickets?limit=2')
  expect(request.headers.get('authorization')).toBe('Bearer pat-local')
  expect(await request.json()).toEqual({ properties: { subject: 'Ünïcode ✓' } })
})

test('a GET has no body', async () => {
  const wire = await toWireRequest(new Request('http://127.0.0.1:5173/crm/v3/objects/contacts'))
  expect(wire.body).toBeNull()
  expect(transferables(wire)).toEqual([])
  expect(fromWireRequest(wire).body).toBeNull()
})

test('a response comes back with status, headers and body; a 204 with no body', async () => {
  const wire = await toWireResponse(new Response('{"status":"error"}', { status: 409, statusText: 'Conflict', headers: { 'x-hubspot-correlation-id': 'abc' } }))
  const response = fromWireResponse(structuredClone(wire))
  expect(response.status).toBe(409)
  expect(response.statusText).toBe('Conflict')
  expect(response.headers.get('x-hubspot-correlation-id')).toBe('abc')
  expect(await response.text()).toBe('{"status":"error"}')

  const empty = await toWireResponse(new Response(null, { status: 204 }))
  expect(empty.body).toBeNull()
  expect(fromWireResponse(empty).status).toBe(204)
})
