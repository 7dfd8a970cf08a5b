import { z } from 'zod'
import { parseChange, parseReady } from '../core/data/change-stream.ts'
import { Database } from '../core/data/db.ts'
import { ChangeStreams, type ChangeSink } from './change-feed.ts'

/** A stream's connection as the feed sees it: it keeps every chunk written. */
class Sink implements ChangeSink {
  chunks: Uint8Array[] = []
  queuedBytes = 0
  ended = false
  destroyed = false
  write(chunk: Uint8Array) {
    this.chunks.push(chunk)
  }
  end() {
    this.ended = true
  }
  destroy() {
    this.destroyed = true
  }
  /** The `data:` of each frame, by event name. */
  frames(): Array<{ event: string; data: string }> {
    const text = this.chunks.map((c) => new TextDecoder().decode(c)).join('')
    return text
      .split('\n\n')
      .filter((f) => f.includes('data: '))
      .map((f) => ({ event: /^event: (.*)$/m.exec(f)?.[1] ?? 'message', data: /^data: (.*)$/m.exec(f)?.[1] ?? '' }))
  }
}

function setup(options: ConstructorParameters<typeof ChangeStreams>[0] = {}) {
  const db = new Database()
  const items = db.table('items', z.object({ n: z.number() }))
  /** One committed write, and the streams' writes that follow it. */
  const write = async (id: string, client?: string) => {
    await db.transaction(() => items.set(id, { n: 1 }), { client })
    await new Promise((resolve) => setImmediate(resolve))
  }
  return { db, write, streams: new ChangeStreams(options) }
}

test('a stream opens with ready at the current position; each commit follows with the next seq', async () => {
  const { db, write, streams } = setup()
  const before = streams.position(db)
  expect(before.seq).toBe(0)
  expect(before.epoch).toMatch(/^[0-9a-f-]{36}$/)
  await write('a')
  const sink = new Sink()
  streams.open(db, sink)
  await write('b', 'page-1')
  await write('c')
  const [ready, ...changes] = sink.frames()
  expect(ready?.event).toBe('ready')
  expect(parseReady(ready?.data)).toEqual({ mode: 'server', epoch: before.epoch, seq: 1, tables: db.tableNames })
  expect(changes.map((c) => parseChange(c.data))).toEqual([
    { tables: ['items'], seq: 2, client: 'page-1' },
    { tables: ['items'], seq: 3 },
  ])
  expect(streams.position(db)).toEqual({ epoch: before.epoch, seq: 3 })
  // Another database (a sandbox) has its own epoch and count.
  const other = setup()
  expect(streams.position(other.db).epoch).not.toBe(before.epoch)
})

test('one serialization serves every subscriber: each stream gets the same bytes, commits that land together in one write', async () => {
  const { db, write, streams } = setup()
  const sinks = Array.from({ length: 5 }, () => new Sink())
  for (const sink of sinks) streams.open(db, sink)
  const encode = vi.spyOn(TextEncoder.prototype, 'encode')
  await write('a')
  expect(encode).toHaveBeenCalledTimes(1)
  const frame = sinks[0]?.chunks[1]
  expect(frame).toBeInstanceOf(Uint8Array)
  for (const sink of sinks) expect(sink.chunks[1]).toBe(frame)
  // Two commits in one turn of the event loop: one encoding, one write per stream, both frames in order.
  const items = db.table('items', z.object({ n: z.number() }))
  await Promise.all([db.transaction(() => items.set('b', { n: 2 })), db.transaction(() => items.set('c', { n: 3 }))])
  await new Promise((resolve) => setImmediate(resolve))
  expect(encode).toHaveBeenCalledTimes(2)
  for (const sink of sinks) expect(sink.chunks).toHaveLength(3)
  expect((sinks[0] as Sink).frames().map((f) => parseChange(f.data)?.seq)).toEqual([0, 1, 2, 3])
})

test('a stream opened while commits wait to be written starts after them: its ready counts them, and it does not get them again', async () => {
  const { db, streams } = setup()
  const items = db.table('items', z.object({ n: z.number() }))
  const early = new Sink()
  streams.open(db, early)
  await db.transaction(() => items.set('a', { n: 1 }))
  const late = new Sink()
  streams.open(db, late)
  await new Promise((resolve) => setImmediate(resolve))
  expect(early.frames().map((f) => f.event)).toEqual(['ready', 'message'])
  expect(late.frames().map((f) => f.event)).toEqual(['ready'])
  expect(parseReady(late.frames()[0]?.data)?.seq).toBe(1)
})

test('over the cap, one more stream is refused with a 429 naming the cap; closing one frees a place', async () => {
  const { db, streams } = setup({ maxStreams: 2 })
  const ends = [streams.open(db, new Sink()), streams.open(db, new Sink())]
  const refused = streams.refusal()
  expect(refused?.status).toBe(429)
  expect(refused?.category).toBe('RATE_LIMITS')
  expect(refused?.message).toMatch(/already serves 2 change streams, its cap/)
  ends[0]?.()
  expect(streams.refusal()).toBeNull()
  expect(streams.size).toBe(1)
})

test('a stream whose client stopped reading is closed instead of buffering without end', async () => {
  const { db, write, streams } = setup({ maxQueuedBytes: 100 })
  const stuck = new Sink()
  const reading = new Sink()
  streams.open(db, stuck)
  streams.open(db, reading)
  stuck.queuedBytes = 101
  await write('a')
  expect(stuck.destroyed).toBe(true)
  expect(stuck.chunks).toHaveLength(1)
  expect(reading.chunks).toHaveLength(2)
  expect(streams.size).toBe(1)
  streams.closeAll()
  expect(reading.ended).toBe(true)
  expect(streams.size).toBe(0)
})
