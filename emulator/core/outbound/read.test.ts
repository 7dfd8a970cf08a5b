import { describe, expect, test } from 'vitest'
import { ApiError } from '../http/errors.ts'
import { Outbound, OutboundError, type OutboundFetch } from './read.ts'

/** A transport that answers from a table of paths, and keeps what it was asked and which addresses it checked. */
function transport(routes: Record<string, () => Response>) {
  const asked: string[] = []
  const fetch: OutboundFetch = async (request, checkAddress = () => null) => {
    asked.push(`${request.method} ${request.url} ${request.redirect}`)
    const url = new URL(request.url)
    const problem = checkAddress(url.hostname === 'localhost' ? '10.0.0.1' : url.hostname.replace(/^\[|\]$/g, ''))
    if (problem) throw new OutboundError(problem)
    return (routes[url.pathname] ?? (() => new Response('none', { status: 404 })))()
  }
  return { fetch, asked }
}
const redirect = (to: string, status = 302) => () => new Response(null, { status, headers: { location: to } })
const vendor = { maxBytes: 1024, trust: 'vendor' } as const

describe('Outbound: every hop checked, at most 3 redirects, a budget, a deadline, a cap', () => {
  test('redirects are followed by hand (the transport never follows one), 303 goes on as a GET', async () => {
    const t = transport({ '/a': redirect('/b', 307), '/b': redirect('http://127.0.0.1:2/c', 303), '/c': () => new Response('done') })
    const answer = await new Outbound(t.fetch).run((reads) => reads.all(new Request('http://127.0.0.1:1/a', { method: 'POST', body: 'x' }), vendor))
    expect(new TextDecoder().decode(answer.body)).toBe('done')
    expect(answer.url).toBe('http://127.0.0.1:2/c')
    expect(t.asked).toEqual(['POST http://127.0.0.1:1/a manual', 'POST http://127.0.0.1:1/b manual', 'GET http://127.0.0.1:2/c manual'])
  })

  test('a fourth redirect, a redirect off this machine over http, and a name resolving elsewhere are refused', async () => {
    const t = transport({ '/loop': redirect('/loop'), '/off': redirect('http://vendor.example/x'), '/name': redirect('http://localhost/x') })
    const outbound = new Outbound(t.fetch)
    const read = (path: string) => outbound.run((reads) => reads.all(new Request(`http://127.0.0.1:1${path}`), vendor))
    await expect(read('/loop')).rejects.toThrow(/redirected more than 3 times/)
    expect(t.asked.filter((line) => line.includes('/loop'))).toHaveLength(4)
    await expect(read('/off')).rejects.toThrow(/\(a redirect\): .*must use https/)
    await expect(read('/name')).rejects.toThrow(/resolves to 10\.0\.0\.1, which is not this machine/)
  })

  test('the byte budget cuts an answer as it streams', async () => {
    let pulled = 0
    const endless = () => new Response(new ReadableStream({ pull: (c) => void (pulled++, c.enqueue(new Uint8Array(100))) }))
    const t = transport({ '/endless': endless })
    await expect(new Outbound(t.fetch).run((reads) => reads.all(new Request('http://127.0.0.1:1/endless'), vendor))).rejects.toThrow(/more than 1024 bytes/)
    expect(pulled).toBeLessThan(20)
  })

  test('the deadline ends a read that never answers, and one whose body no one reads frees its slot', async () => {
    const t = transport({ '/never': () => new Response(new ReadableStream()) })
    const hang: OutboundFetch = (request) => (new URL(request.url).pathname === '/hang' ? new Promise(() => {}) : t.fetch(request))
    const outbound = new Outbound(hang, { deadlineMs: 50, maxConcurrent: 1 })
    await expect(outbound.run((reads) => reads.all(new Request('http://127.0.0.1:1/hang'), vendor))).rejects.toMatchObject({ code: 'ETIMEDOUT' })
    await outbound.stream(new Request('http://127.0.0.1:1/never'), vendor)
    expect(outbound.active).toBe(1)
    await new Promise((wait) => setTimeout(wait, 100))
    expect(outbound.active, 'freed at the deadline').toBe(0)
  })

  test('over the cap: a 429 ApiError at once, before the work starts', async () => {
    const t = transport({ '/never': () => new Response(new ReadableStream()) })
    const outbound = new Outbound(t.fetch, { maxConcurrent: 1 })
    const held = await outbound.stream(new Request('http://127.0.0.1:1/never'), vendor)
    let started = false
    const refused = await outbound.run(async () => (started = true)).catch((error: unknown) => error)
    expect(refused).toBeInstanceOf(ApiError)
    expect(refused).toMatchObject({ status: 429, category: 'RATE_LIMITS' })
    expect(started).toBe(false)
    await held.body.cancel()
    expect(outbound.active).toBe(0)
  })
})
