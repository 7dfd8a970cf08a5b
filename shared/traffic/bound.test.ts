/**
 * The traffic log's byte rule over every shape structured clone can deliver: what fits is kept as it is,
 * by reference; everything else is a plain tree of at most the budget (plus a key's worth), with its
 * size measured without serializing, and no shape freezes the walk.
 */
import fc from 'fast-check'
import { boundValue, formatChars, overBudget, TRAFFIC_BOUNDS, truncationNote } from './bound.ts'
import { safeJson } from './safe-json.ts'

const MB = 1024 * 1024
/** What a kept copy may exceed its budget by: one cut key's quotes and separator. */
const SLACK = 16

function keptJsonLength(value: unknown): number {
  return JSON.stringify(value)?.length ?? 0
}

test('a message that fits is kept as it is, by reference, with its JSON size', () => {
  const message = { type: 'CALL_ENDED', messageId: 'w1', data: { externalCallId: 'c1', callEndStatus: 'COMPLETED', n: [1, 2.5, null, true] } }
  const bounded = boundValue(message)
  expect(bounded.value).toBe(message)
  expect(bounded.truncation).toBeUndefined()
  expect(bounded.chars).toBe(JSON.stringify(message).length)
})

test('a 16 MB string field: its size measured, its first 64 KB kept, the small fields intact', () => {
  const big = 'x'.repeat(16 * MB)
  const message = { type: 'CALL_ENDED', messageId: 'w1', data: { externalCallId: 'c1', note: big } }
  const bounded = boundValue(message)
  expect(bounded.chars).toBe(JSON.stringify(message).length)
  expect(bounded.truncation).toEqual({ chars: bounded.chars, keptChars: TRAFFIC_BOUNDS.entryChars })
  const kept = bounded.value as typeof message
  expect(kept).not.toBe(message)
  expect(kept.type).toBe('CALL_ENDED')
  expect(kept.messageId).toBe('w1')
  expect(kept.data.externalCallId).toBe('c1')
  expect(kept.data.note.endsWith('…')).toBe(true)
  expect(keptJsonLength(kept)).toBeLessThanOrEqual(TRAFFIC_BOUNDS.entryChars + SLACK)
  expect(truncationNote(bounded.truncation!)).toBe('truncated: 16.0 MB message, first 64 KB kept')
})

test('a huge array is cut at the node budget and its size is a lower bound', () => {
  const huge = new Array<number>(5_000_000).fill(7)
  const bounded = boundValue({ type: 'X', data: huge })
  expect(bounded.truncation?.atLeast).toBe(true)
  expect(bounded.chars).toBeGreaterThan(TRAFFIC_BOUNDS.maxNodes)
  expect(keptJsonLength(bounded.value)).toBeLessThanOrEqual(TRAFFIC_BOUNDS.entryChars + SLACK)
  expect(truncationNote(bounded.truncation!)).toMatch(/^truncated: at least /)
})

test('a sparse array a billion long ends at the node budget', () => {
  const sparse: unknown[] = []
  sparse.length = 1_000_000_000
  const bounded = boundValue({ type: 'X', data: sparse })
  expect(bounded.truncation?.atLeast).toBe(true)
  expect(keptJsonLength(bounded.value)).toBeLessThanOrEqual(TRAFFIC_BOUNDS.entryChars + SLACK)
})

test('a deep object (100,000 levels) is walked without recursion and kept to the depth limit', () => {
  let deep: Record<string, unknown> = { end: true }
  for (let i = 0; i < 100_000; i += 1) deep = { d: deep }
  const bounded = boundValue(deep)
  expect(bounded.truncation).toBeDefined()
  let depth = 0
  for (let at = bounded.value as Record<string, unknown> | undefined; at !== undefined; at = at.d as Record<string, unknown> | undefined) depth += 1
  expect(depth).toBeLessThanOrEqual(TRAFFIC_BOUNDS.maxDepth + 1)
  expect(() => JSON.stringify(bounded.value)).not.toThrow()
})

test('cycles and shared objects become "[repeated]": the kept copy is a tree JSON can write', () => {
  const cyclic: Record<string, unknown> = { type: 'X' }
  cyclic.self = cyclic
  const bounded = boundValue(cyclic)
  expect(bounded.value).toEqual({ type: 'X', self: '[repeated]' })
  // A DAG whose JSON would be 2^40 nodes.
  let dag: Record<string, unknown> = { leaf: 1 }
  for (let i = 0; i < 40; i += 1) dag = { a: dag, b: dag }
  const shared = boundValue(dag)
  expect(shared.truncation).toBeDefined()
  expect(keptJsonLength(shared.value)).toBeLessThan(1000)
})

test('buffers, typed arrays, Blobs, Maps and Sets are kept as descriptions; buffers count their bytes', () => {
  const bytes = new Uint8Array(16 * MB)
  const bounded = boundValue({ type: 'X', data: { bytes, buffer: bytes.buffer, blob: new Blob(['abc']), map: new Map([[1, 'x'.repeat(MB)]]), set: new Set([1]) } })
  expect(bounded.value).toEqual({
    type: 'X',
    data: { bytes: `[Uint8Array ${16 * MB} bytes]`, buffer: `[ArrayBuffer ${16 * MB} bytes]`, blob: '[Blob 3 bytes]', map: '[Map 1 entries]', set: '[Set 1 entries]' },
  })
  expect(bounded.chars).toBeGreaterThan(32 * MB)
  // A Date is data as JSON writes it: kept as it is.
  const dated = { type: 'X', at: new Date(0) }
  expect(boundValue(dated).value).toBe(dated)
})

test('a key named __proto__ stays an own key of the kept copy', () => {
  const message = JSON.parse(`{"type":"X","__proto__":{"polluted":true},"big":"${'y'.repeat(100)}"}`) as unknown
  const bounded = boundValue(message, 40)
  const kept = bounded.value as Record<string, unknown>
  expect(Object.getPrototypeOf(kept)).toBe(Object.prototype)
  expect(Object.hasOwn(kept, '__proto__')).toBe(true)
  expect(({} as Record<string, unknown>).polluted).toBeUndefined()
})

test('strings are counted by length; what is kept is the document-order prefix', () => {
  // {"a":"x…x" costs 2 + 4 + 32 of the 50; ,"b":" 5 more, so 4 y and the ellipsis fill the rest.
  const bounded = boundValue({ a: 'x'.repeat(30), b: 'y'.repeat(30), c: 1 }, 50)
  expect(bounded.value).toEqual({ a: 'x'.repeat(30), b: 'yyyy…' })
  expect(bounded.truncation).toEqual({ chars: bounded.chars, keptChars: 50 })
  expect(bounded.chars).toBe(JSON.stringify({ a: 'x'.repeat(30), b: 'y'.repeat(30), c: 1 }).length)
})

test('property: any value is kept whole when it fits, else within the budget; never throws', () => {
  // Strings are counted by length: JSON's escapes (at most 6 characters for one) are not counted.
  fc.assert(
    fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true, withObjectString: true }), fc.integer({ min: 0, max: 400 }), (value, budget) => {
      const bounded = boundValue(value, budget)
      if (bounded.truncation === undefined) {
        expect(bounded.value).toBe(value)
      } else {
        expect(safeJson(bounded.value, 0).length).toBeLessThanOrEqual(6 * (budget + SLACK))
        expect(bounded.truncation.keptChars).toBeLessThanOrEqual(budget)
      }
    }),
    { seed: 33, numRuns: 500 },
  )
})

test('formatChars', () => {
  expect([formatChars(812), formatChars(64 * 1024), formatChars(16 * MB)]).toEqual(['812 B', '64 KB', '16.0 MB'])
})

test('the log total drops the oldest entries of either list first, until the rest fit', () => {
  const sizes = new Map<object, number>()
  const entry = (time: number, size: number) => {
    const e = { time }
    sizes.set(e, size)
    return e
  }
  const messages = [entry(1, 50), entry(3, 50), entry(5, 50)]
  const requests = [entry(2, 50), entry(4, 50)]
  const sizeOf = (e: object) => sizes.get(e) ?? 0
  expect(overBudget(messages, requests, sizeOf, 250, 250)).toEqual({ first: 0, second: 0, total: 250 })
  expect(overBudget(messages, requests, sizeOf, 250, 150)).toEqual({ first: 1, second: 1, total: 150 })
  expect(overBudget(messages, requests, sizeOf, 250, 100)).toEqual({ first: 2, second: 1, total: 100 })
  expect(overBudget(messages, requests, sizeOf, 250, 0)).toEqual({ first: 3, second: 2, total: 0 })
})
