import { createServer, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { FIRST_PORT, freePortBlock, freePortPair, LAST_PORT, portFree } from './free-ports.mjs'

const held: Server[] = []
afterEach(async () => {
  await Promise.all(held.splice(0).map((server) => new Promise((done) => server.close(done))))
})

function hold(port: number): Promise<void> {
  return new Promise((ready, fail) => {
    const server = createServer()
    server.once('error', fail)
    server.listen(port, '127.0.0.1', () => ready())
    held.push(server)
  })
}

describe('free ports: one home for every test, bench and script', () => {
  it('picks a pair below the ephemeral range whose both ports can be bound', async () => {
    const port = await freePortPair()
    expect(port).toBeGreaterThanOrEqual(FIRST_PORT)
    expect(port + 1).toBeLessThan(LAST_PORT)
    await hold(port)
    await hold(port + 1)
  })

  it('tells a bound port from a free one', async () => {
    const port = await freePortBlock(1)
    expect(await portFree(port)).toBe(true)
    await hold(port)
    expect(await portFree(port)).toBe(false)
  })

  it('refuses a block size it cannot mean', async () => {
    await expect(freePortBlock(0)).rejects.toThrow(/count must be 1 to 100/)
  })
})
