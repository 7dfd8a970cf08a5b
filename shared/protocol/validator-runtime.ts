/**
 * The building blocks of the generated validators (validators.generated.ts): small
 * checks that the generator composes, one per kind of zod schema the catalogue uses.
 *
 * Each check behaves as the zod 4 schema it stands for and reports the same issues
 * (path and English message: `data.engagementId: Invalid input: expected number,
 * received string`), so a widget validates without zod and users read the reasons they
 * read on the host. A differential test on the seeded fuzz corpus holds them together.
 * No eval, no `new Function`: safe on pages with a strict CSP.
 */
import type { Refinement } from './refinements.ts'

export interface Issue {
  /** Where, from the validated value: `['data', 'engagementId']`. */
  path: PropertyKey[]
  message: string
  /** true for a wrong type (later checks of the same value are skipped), false for a failed check. */
  abort: boolean
}

/** Validates `value`, appending its issues (paths relative to `value`) to `issues`. */
export type Check = (value: unknown, issues: Issue[]) => void
/** A check that also lets its object key be absent. */
export type OptionalCheck = Check & { readonly optional: true }

/** An object that is not an array (what zod's object and discriminated union accept). */
export const isObject = (value: unknown): value is Record<PropertyKey, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** zod's name for what it received: `string`, `NaN`, `Infinity`, `null`, `array`, a class name, … */
function received(value: unknown): string {
  if (typeof value === 'number') return Number.isNaN(value) ? 'NaN' : Number.isFinite(value) ? 'number' : String(value)
  if (value === null) return 'null'
  if (Array.isArray(value)) return 'array'
  if (typeof value === 'object' && Object.getPrototypeOf(value) !== Object.prototype && 'constructor' in value && value.constructor) {
    return (value.constructor as { name: string }).name
  }
  return typeof value
}

const typeIssue = (expected: string, value: unknown): Issue => ({
  path: [],
  message: `Invalid input: expected ${expected}, received ${received(value)}`,
  abort: true,
})

const quote = (value: unknown): string => (typeof value === 'string' ? `"${value}"` : String(value))

function prefix(issues: Issue[], from: number, key: PropertyKey): void {
  for (let i = from; i < issues.length; i += 1) issues[i]!.path.unshift(key)
}

function aborted(issues: readonly Issue[], from: number): boolean {
  for (let i = from; i < issues.length; i += 1) if (issues[i]!.abort) return true
  return false
}

// --- types -------------------------------------------------------------------

const ofType = (type: 'string' | 'boolean' | 'undefined'): Check => (value, issues) => {
  if (typeof value !== type) issues.push(typeIssue(type, value))
}
export const string = ofType('string')
export const boolean = ofType('boolean')
export const undef = ofType('undefined')
/** A finite number (zod 4 rejects NaN and ±Infinity). */
export const number: Check = (value, issues) => {
  if (typeof value !== 'number' || !Number.isFinite(value)) issues.push(typeIssue('number', value))
}
export const nul: Check = (value, issues) => {
  if (value !== null) issues.push(typeIssue('null', value))
}
export const unknown: Check = () => {}

/** One of `values` (a literal when there is one). */
export function oneOf(values: readonly unknown[]): Check {
  const set = new Set(values)
  const message = values.length === 1 ? `Invalid input: expected ${quote(values[0])}` : `Invalid option: expected one of ${values.map(quote).join('|')}`
  return (value, issues) => {
    if (!set.has(value)) issues.push({ path: [], message, abort: true })
  }
}

// --- wrappers ----------------------------------------------------------------

export function optional(inner: Check): OptionalCheck {
  return Object.assign((value: unknown, issues: Issue[]) => {
    if (value !== undefined) inner(value, issues)
  }, { optional: true as const })
}

export function nullable(inner: Check): Check {
  return (value, issues) => {
    if (value !== null) inner(value, issues)
  }
}

/** `base`, then each of `checks` unless `base` found a wrong type. */
export function refined(base: Check, ...checks: Check[]): Check {
  return (value, issues) => {
    const from = issues.length
    base(value, issues)
    if (aborted(issues, from)) return
    for (const check of checks) check(value, issues)
  }
}

// --- refinements (run after the base check) ------------------------------------

/** zod's min_length: a value whose `length` is a number below `minimum` fails, anything else passes. */
export function hasMinLength(value: unknown, minimum: number): boolean {
  const length = (value as { length?: unknown } | null | undefined)?.length
  return typeof length !== 'number' || length >= minimum
}

export function minLength(minimum: number): Check {
  return (value, issues) => {
    if (hasMinLength(value, minimum)) return
    const [origin, unit] = Array.isArray(value) ? ['array', 'items'] : ['string', 'characters']
    issues.push({ path: [], message: `Too small: expected ${origin} to have >=${minimum} ${unit}`, abort: false })
  }
}

export function pattern(regex: RegExp, message: string): Check {
  return (value, issues) => {
    if (typeof value === 'string' && !regex.test(value)) issues.push({ path: [], message, abort: false })
  }
}

export function atLeast(minimum: number): Check {
  return (value, issues) => {
    if ((value as number) < minimum) issues.push({ path: [], message: `Too small: expected number to be >=${minimum}`, abort: false })
  }
}

/** A cross-field rule of refinements.ts, on an object. */
export function rule({ test, message, path }: Refinement): Check {
  return (value, issues) => {
    if (!test(value as Record<string, unknown>)) issues.push({ path: [...path], message, abort: false })
  }
}

// --- composites ----------------------------------------------------------------

/** A loose object: the keys of `shape` checked in order, any other key passes. */
export function object(shape: Readonly<Record<string, Check | OptionalCheck>>): Check {
  const fields = Object.entries(shape).map(([key, check]) => [key, check, 'optional' in check] as const)
  return (value, issues) => {
    if (!isObject(value)) {
      issues.push(typeIssue('object', value))
      return
    }
    for (const [key, check, isOptional] of fields) {
      const field = value[key]
      // an optional key that is absent or undefined always passes
      if (field === undefined && isOptional) continue
      const from = issues.length
      check(field, issues)
      if (issues.length > from) prefix(issues, from, key)
      else if (field === undefined && !(key in value)) issues.push({ path: [key], message: 'Invalid input: expected nonoptional, received undefined', abort: true })
    }
  }
}

/** The first option that passes; else the issues of the only option that merely failed a check, else "Invalid input". */
export function union(options: readonly Check[]): Check {
  return (value, issues) => {
    let nonAborted: Issue[] | undefined
    let count = 0
    for (const option of options) {
      const own: Issue[] = []
      option(value, own)
      if (own.length === 0) return
      if (!aborted(own, 0)) {
        nonAborted = own
        count += 1
      }
    }
    if (count === 1) issues.push(...nonAborted!)
    else issues.push({ path: [], message: 'Invalid input', abort: true })
  }
}

/** Objects told apart by the literal in `key`. */
export function discriminated(key: string, options: Readonly<Record<string, Check>>): Check {
  const byValue = new Map(Object.entries(options))
  const message = `Invalid discriminator value. Expected ${[...byValue.keys()].map((v) => `'${v}'`).join(' | ')}`
  return (value, issues) => {
    if (!isObject(value)) {
      issues.push(typeIssue('object', value))
      return
    }
    const option = byValue.get(value[key] as string)
    if (option) option(value, issues)
    else issues.push({ path: [key], message, abort: true })
  }
}

export function array(element: Check): Check {
  return (value, issues) => {
    if (!Array.isArray(value)) {
      issues.push(typeIssue('array', value))
      return
    }
    for (let i = 0; i < value.length; i += 1) {
      const from = issues.length
      element(value[i], issues)
      prefix(issues, from, i)
    }
  }
}

/** zod's test for a record: an object whose constructor, if any, looks like Object. */
function isRecordLike(value: unknown): value is Record<PropertyKey, unknown> {
  if (!isObject(value)) return false
  const ctor: unknown = value.constructor
  if (typeof ctor !== 'function') return true
  const proto: unknown = ctor.prototype
  return isObject(proto) && Object.prototype.hasOwnProperty.call(proto, 'isPrototypeOf')
}

/** The keys of a record that zod checks: own enumerable keys but `__proto__` (a symbol among them makes the record invalid). */
function recordKeys(value: object): PropertyKey[] {
  return Reflect.ownKeys(value).filter((key) => key !== '__proto__' && Object.prototype.propertyIsEnumerable.call(value, key))
}

/** A record with string keys: each own enumerable value checked. */
export function record(valueCheck: Check): Check {
  return (value, issues) => {
    if (!isRecordLike(value)) {
      issues.push(typeIssue('record', value))
      return
    }
    for (const key of recordKeys(value)) {
      if (typeof key !== 'string') {
        issues.push({ path: [key], message: 'Invalid key in record', abort: true })
        continue
      }
      const from = issues.length
      valueCheck(value[key], issues)
      prefix(issues, from, key)
    }
  }
}

// --- predicates (predicates.generated.ts): true exactly when the check above finds no issue ---

/** array(element) finds no issue. */
export function everyItem(value: unknown, test: (item: unknown) => boolean): boolean {
  if (!Array.isArray(value)) return false
  for (let i = 0; i < value.length; i += 1) if (!test(value[i])) return false
  return true
}

/** record(valueCheck) finds no issue. */
export function everyValue(value: unknown, test: (item: unknown) => boolean): boolean {
  if (!isRecordLike(value)) return false
  for (const key of recordKeys(value)) if (typeof key !== 'string' || !test(value[key])) return false
  return true
}
