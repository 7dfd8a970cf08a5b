/**
 * No validation compiles code: the generated validators (validateMessage, both sides)
 * are plain functions, and the zod schemas the host parses with run with zod's JIT
 * off (zod-config.ts), so zod does not even probe `new Function`, which a page with a
 * strict CSP reports as a violation.
 *
 * `Function` is watched before the catalogue and the schemas are imported, so their
 * construction is watched too. Vitest gives every test file a fresh module registry.
 */
import type { MessageType } from './catalogue.ts'

const constructed: unknown[][] = []
const OriginalFunction = globalThis.Function

beforeAll(() => {
  globalThis.Function = new Proxy(OriginalFunction, {
    construct(target, args: unknown[], newTarget) {
      constructed.push(args)
      return Reflect.construct(target, args, newTarget) as object
    },
    apply(target, thisArg, args: unknown[]) {
      constructed.push(args)
      return Reflect.apply(target, thisArg, args) as unknown
    },
  })
})

afterAll(() => {
  globalThis.Function = OriginalFunction
})

it('builds and runs every validator and zod schema without compiling code (new Function) and leaves zod jitless', async () => {
  const { CATALOGUE, validateMessage } = await import('./catalogue.ts')
  const { SCHEMAS } = await import('./envelopes.ts')
  const { sampleMessage } = await import('./testing/samples.ts')
  const { z } = await import('zod')
  let validated = 0
  for (const type of Object.keys(CATALOGUE) as MessageType[]) {
    const entry = CATALOGUE[type]
    const expected = (entry.acceptedFrom as readonly string[]).includes('host') ? 'from-host' : 'from-widget'
    for (let i = 0; i < 3; i++) {
      expect(validateMessage(sampleMessage(type), expected).ok).toBe(true)
      expect(SCHEMAS[type].schema.safeParse(sampleMessage(type)).success).toBe(true)
      validated += 1
    }
  }
  expect(validated).toBeGreaterThan(100)
  expect(constructed.length).toBe(0)
  expect(z.config().jitless).toBe(true)
})
