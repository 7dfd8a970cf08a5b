/**
 * Seeded message fuzz generated from the catalogue: for every wire type (SYNC,
 * SYNC_ACK, READY and INITIALIZED included) it takes the valid sample envelope,
 * lists every field path in it (top level, `data`, and nested objects and arrays),
 * and breaks each field in turn: removed, or replaced by a value of another kind,
 * a huge string, a prototype trick, NaN, … Cases cycle through every (type, field)
 * pair so each is hit, with the breaking value drawn from a seeded generator.
 *
 * A broken field does not always make a message invalid (an optional field removed,
 * a string swapped for another string): the properties under test compare with
 * validateMessage rather than assume rejection.
 */
import { CATALOGUE, type MessageType } from '../catalogue.ts'
import { sampleMessage } from './samples.ts'

/** mulberry32: a small seeded PRNG (uniform in [0, 1)). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

/** The seed of this run: FUZZ_SEED when set (to replay a failure), otherwise a fresh one. */
export function fuzzSeed(): number {
  const fromEnv = Number(process.env.FUZZ_SEED)
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : Math.floor(Math.random() * 2 ** 31) + 1
}

const REMOVE = Symbol('remove')
const HUGE = 'x'.repeat(20_000)

/** Replacement values; REMOVE deletes the field. Every one survives structured cloning. */
const BREAKERS: ReadonlyArray<() => unknown> = [
  () => REMOVE,
  () => null,
  () => undefined,
  () => 0,
  () => -1,
  () => 1.5,
  () => Number.NaN,
  () => Number.POSITIVE_INFINITY,
  () => '',
  () => 'x',
  () => HUGE,
  () => '42',
  () => 'javascript:alert(1)',
  () => true,
  () => false,
  () => [],
  () => [1, 'two', null],
  () => ({}),
  () => ({ nested: { deeper: [1] } }),
  () => JSON.parse('{"__proto__":{"polluted":true}}') as unknown,
  () => ({ constructor: { prototype: { polluted: true } } }),
  () => 10n,
  () => new Date(0),
  () => 'UNKNOWN_TYPE_FROM_FUZZ',
]

type Path = readonly (string | number)[]

function pathsOf(value: unknown, prefix: Path = [], depth = 0): Path[] {
  if (typeof value !== 'object' || value === null || depth > 3) return []
  const out: Path[] = []
  const keys: (string | number)[] = Array.isArray(value) ? value.map((_, i) => i) : Object.keys(value)
  for (const key of keys) {
    const path = [...prefix, key]
    out.push(path)
    out.push(...pathsOf((value as Record<string | number, unknown>)[key], path, depth + 1))
  }
  return out
}

function broken(message: Record<string, unknown>, path: Path, replacement: unknown): Record<string, unknown> {
  const copy = structuredClone(message)
  let parent: Record<string | number, unknown> = copy
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
  const last = path[path.length - 1]!
  if (replacement === REMOVE) {
    if (Array.isArray(parent)) parent.splice(Number(last), 1)
    else delete parent[last]
  } else {
    parent[last] = replacement
  }
  return copy
}

export interface FuzzCase {
  type: MessageType
  /** The broken field, e.g. `data.objectCoordinates.portalId`. */
  field: string
  message: Record<string, unknown>
}

/** The (type, field) pairs of `types`, each valid sample broken at one path. */
export function fuzzTargets(types: readonly MessageType[]): Array<{ type: MessageType; path: Path; sample: Record<string, unknown> }> {
  return types.flatMap((type) => {
    const sample = sampleMessage(type)
    return pathsOf(sample).map((path) => ({ type, path, sample }))
  })
}

/** `count` cases cycling over every (type, field) pair of `types`, breaking values drawn from `seed`. */
export function* fuzzCases(types: readonly MessageType[], count: number, seed: number): Generator<FuzzCase> {
  const targets = fuzzTargets(types)
  const random = seededRandom(seed)
  for (let i = 0; i < count; i += 1) {
    const { type, path, sample } = targets[i % targets.length]!
    const replacement = BREAKERS[Math.floor(random() * BREAKERS.length)]!()
    yield { type, field: path.join('.'), message: broken(sample, path, replacement) }
  }
}

/** Catalogue types a side accepts (`acceptedFrom` includes `from`). */
export function typesFrom(from: 'widget' | 'host'): MessageType[] {
  return (Object.keys(CATALOGUE) as MessageType[]).filter((t) => (CATALOGUE[t].acceptedFrom as readonly string[]).includes(from))
}

/** Runs `check` on each case; a failure names the seed (replay with FUZZ_SEED), the case, the type and the field. */
export function runFuzz(cases: Iterable<FuzzCase>, seed: number, check: (c: FuzzCase) => void): number {
  let n = 0
  for (const c of cases) {
    try {
      check(c)
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error)
      throw new Error(`fuzz failed (seed ${seed}; replay with FUZZ_SEED=${seed}) at case ${n}: ${c.type} with ${c.field} broken: ${detail}`, { cause: error })
    }
    n += 1
  }
  return n
}
