/**
 * The generated validators (validators.generated.ts) against the zod schemas they are
 * generated from (envelopes.ts): the committed file is what the generator writes today,
 * and on the seeded fuzz corpus both report the same issues, in the same order, with
 * the same paths and messages. A failure names the seed; replay it with FUZZ_SEED=<seed>.
 * The generated predicates (predicates.generated.ts) say "valid" exactly when both find no issue.
 */
import { readFileSync } from 'node:fs'
import { GENERATED_FILE, PREDICATES_FILE, generatePredicates, generateValidators } from '../../tools/build/generate-validators.ts'
import { CATALOGUE, issueText, type MessageType } from './catalogue.ts'
import { SCHEMAS } from './envelopes.ts'
import { z } from './zod-config.ts'
import { fuzzCases, fuzzSeed, fuzzTargets, runFuzz, typesFrom } from './testing/fuzz.ts'
import { sampleMessage } from './testing/samples.ts'
import type { Issue } from './validator-runtime.ts'
import { IS_VALID } from './predicates.generated.ts'
import { VALIDATORS } from './validators.generated.ts'

const PER_SIDE = 10_000

function generatedIssues(type: MessageType, message: unknown): string[] {
  const issues: Issue[] = []
  VALIDATORS[type](message, issues)
  return issues.map(issueText)
}

function zodIssues(type: MessageType, message: unknown): string[] {
  const result = SCHEMAS[type].schema.safeParse(message)
  return result.success ? [] : result.error.issues.map(issueText)
}

/** The generated issues, after checking that the predicate agrees with them. */
function checkedIssues(type: MessageType, message: unknown): string[] {
  const issues = generatedIssues(type, message)
  expect(IS_VALID[type](message), `${type}: predicate against ${issues.length} issue(s): ${issues.join('; ')}`).toBe(issues.length === 0)
  return issues
}

test('validators.generated.ts and predicates.generated.ts are what `npm run gen:validators` writes from the current schemas', () => {
  expect(readFileSync(GENERATED_FILE, 'utf8')).toBe(generateValidators())
  expect(readFileSync(PREDICATES_FILE, 'utf8')).toBe(generatePredicates())
})

test('the generator refuses what it cannot reproduce exactly, instead of skipping it', () => {
  const envelope = (data: z.ZodType) => ({ schema: z.looseObject({ type: z.literal('X'), messageId: z.string(), data }) })
  expect(() => generateValidators({ X: envelope(z.date()) }, [])).toThrow(/"date" is not supported/)
  expect(() => generateValidators({ X: envelope(z.object({ a: z.string() })) }, [])).toThrow(/loose objects/)
  expect(() => generateValidators({ X: envelope(z.looseObject({ a: z.string() }).refine((d) => d.a !== '')) }, [])).toThrow(/refinements\.ts/)
  expect(() => generateValidators({ X: envelope(z.number().gt(0)) }, [])).toThrow(/check "greater_than" is not supported/)
  expect(() => generateValidators({ X: envelope(z.string().default('a')) }, [])).toThrow(/only .optional\(\) fields/)
  expect(() => generatePredicates({ X: envelope(z.date()) }, [])).toThrow(/"date" is not supported/)
  expect(() => generatePredicates({ X: envelope(z.string().regex(/a/g)) }, [])).toThrow(/g or y flag/)
  expect(() => generatePredicates({ X: envelope(z.literal(Number.NaN)) }, [])).toThrow(/literals/)
})

test('every catalogue type has a generated validator that accepts its sample', () => {
  expect(Object.keys(VALIDATORS).sort()).toEqual(Object.keys(CATALOGUE).sort())
  expect(Object.keys(IS_VALID).sort()).toEqual(Object.keys(CATALOGUE).sort())
  for (const type of Object.keys(CATALOGUE) as MessageType[]) expect(checkedIssues(type, sampleMessage(type))).toEqual([])
})

test.each(['widget', 'host'] as const)(`%s side: ${PER_SIDE.toLocaleString('en')} fuzzed messages get the same issues from the generated validators and from zod`, (side) => {
  const seed = fuzzSeed()
  let invalid = 0
  const runs = runFuzz(fuzzCases(typesFrom(side), PER_SIDE, seed), seed, ({ type, message }) => {
    const expected = zodIssues(type, message)
    expect(checkedIssues(type, message)).toEqual(expected)
    if (expected.length > 0) invalid += 1
  })
  expect(runs).toBe(PER_SIDE)
  // the corpus does break messages: most cases are invalid
  expect(invalid).toBeGreaterThan(PER_SIDE / 2)
})

test('both agree on values of every kind in place of each field, and on whole non-messages', () => {
  const values: unknown[] = [undefined, null, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, '', 'x', '0-1', true, [], [1], {}, new Date(0), Object.create(null)]
  for (const { type, path, sample } of fuzzTargets(Object.keys(CATALOGUE) as MessageType[])) {
    for (const value of values) {
      const message = structuredClone(sample)
      let parent = message as Record<string | number, unknown>
      for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>
      parent[path[path.length - 1]!] = value
      expect(checkedIssues(type, message), `${type} with ${path.join('.')} = value #${values.indexOf(value)}`).toEqual(zodIssues(type, message))
    }
  }
  for (const value of values) for (const type of ['SYNC', 'DIAL_NUMBER'] as const) expect(checkedIssues(type, value)).toEqual(zodIssues(type, value))
})
