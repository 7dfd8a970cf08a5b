/**
 * Writes shared/protocol/validators.generated.ts: one plain-TS validator per catalogue
 * type, generated from the type's zod envelope schema (shared/protocol/envelopes.ts) by
 * walking zod's schema definitions. The widget side validates with the result and
 * ships without zod; the catalogue and its schemas stay the one source.
 *
 * It also writes shared/protocol/predicates.generated.ts from the same schemas: one
 * straight-line predicate per type, true exactly when the validator finds no issue. The
 * host's judgement asks it first (most messages are valid) and runs the validator only for
 * the issues of an invalid message.
 *
 *   npm run gen:validators
 *
 * A schema kind the generator does not know makes it throw, so a new kind of schema
 * cannot be skipped silently. validators.test.ts checks that the committed file is
 * what this writes, and that both validators agree on the seeded fuzz corpus.
 */
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import * as envelopes from '../shared/protocol/envelopes.ts'
import * as schemas from '../shared/protocol/schemas.ts'
import { REFINEMENTS } from '../shared/protocol/refinements.ts'

export const GENERATED_FILE = resolve(import.meta.dirname, '../shared/protocol/validators.generated.ts')
export const PREDICATES_FILE = resolve(import.meta.dirname, '../shared/protocol/predicates.generated.ts')

/** zod's internal definition of a schema, the parts the generator reads. */
interface Def {
  type: string
  checks?: readonly { _zod: { def: CheckDef } }[]
  innerType?: Node
  shape?: Record<string, Node>
  catchall?: Node
  options?: readonly Node[]
  discriminator?: string
  element?: Node
  keyType?: Node
  valueType?: Node
  values?: readonly unknown[]
  entries?: Record<string, unknown>
}
interface CheckDef {
  check: string
  minimum?: number
  value?: number
  inclusive?: boolean
  format?: string
  pattern?: RegExp
  fn?: unknown
  path?: readonly PropertyKey[]
  error?: (issue?: unknown) => unknown
}
type Node = { _zod: { def: Def; optin?: string; optout?: string } }

const isNode = (value: unknown): value is Node => typeof value === 'object' && value !== null && '_zod' in value
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/
const key = (name: string) => (IDENTIFIER.test(name) ? name : JSON.stringify(name))
const LINE = 120

/** `open items close` on one line when it fits (and holds no line break), else one item per line. */
function wrap(open: string, items: readonly string[], close: string, indent: string): string {
  if (items.length === 0) return `${open}${close}`
  const flat = `${open} ${items.join(', ')} ${close}`
  if (indent.length + flat.length <= LINE && !flat.includes('\n')) return flat
  return `${open}\n${items.map((item) => `${indent}  ${item},`).join('\n')}\n${indent}${close}`
}

class Generator {
  /** Schemas exported by schemas.ts / envelopes.ts, emitted once under their export name. */
  readonly #names = new Map<Node, string>()
  readonly #declared = new Set<Node>()
  readonly declarations: string[] = []
  readonly refinements = new Set<string>()

  constructor(modules: readonly Record<string, unknown>[]) {
    for (const module of modules) {
      for (const [name, value] of Object.entries(module)) if (isNode(value) && !this.#names.has(value)) this.#names.set(value, name)
    }
  }

  /** An expression for `node`: its name (declared on first use) or its inline code. */
  ref(node: Node, indent: string): string {
    const name = this.#names.get(node)
    if (name === undefined) return this.#build(node, indent)
    if (!this.#declared.has(node)) {
      this.#declared.add(node)
      const body = this.#build(node, '')
      this.declarations.push(`const ${name} = ${body}`)
    }
    return name
  }

  #build(node: Node, indent: string): string {
    const def = node._zod.def
    const base = this.#base(def, indent)
    const checks = (def.checks ?? []).map((check) => this.#check(check._zod.def))
    return checks.length === 0 ? base : `v.refined(${base}, ${checks.join(', ')})`
  }

  #base(def: Def, indent: string): string {
    const inner = indent + '  '
    switch (def.type) {
      case 'string':
        return 'v.string'
      case 'number':
        return 'v.number'
      case 'boolean':
        return 'v.boolean'
      case 'undefined':
        return 'v.undef'
      case 'null':
        return 'v.nul'
      case 'unknown':
        return 'v.unknown'
      case 'literal':
        return `v.oneOf(${JSON.stringify(def.values)})`
      case 'enum':
        return `v.oneOf(${JSON.stringify(Object.values(def.entries!))})`
      case 'optional':
        return `v.optional(${this.ref(def.innerType!, indent)})`
      case 'nullable':
        return `v.nullable(${this.ref(def.innerType!, indent)})`
      case 'array':
        return `v.array(${this.ref(def.element!, indent)})`
      case 'record': {
        const keyDef = def.keyType!._zod.def
        if (keyDef.type !== 'string' || keyDef.checks?.length) throw new Error('generate-validators: only records with plain string keys are supported')
        return `v.record(${this.ref(def.valueType!, indent)})`
      }
      case 'object': {
        if (def.catchall?._zod.def.type !== 'unknown') throw new Error('generate-validators: only loose objects (z.looseObject) are supported')
        const fields = Object.entries(def.shape!).map(([name, child]) => {
          isOptionalField(name, child)
          return `${key(name)}: ${this.ref(child, inner)}`
        })
        return wrap('v.object({', fields, '})', indent)
      }
      case 'union': {
        const options = def.options!
        if (def.discriminator === undefined) return `v.union([${options.map((o) => this.ref(o, indent)).join(', ')}])`
        const cases = options.map((option) => {
          const tag = option._zod.def.shape?.[def.discriminator!]?._zod.def
          if (tag?.type !== 'literal' || tag.values?.length !== 1) throw new Error('generate-validators: a discriminated option needs one literal tag')
          return `${key(String(tag.values[0]))}: ${this.ref(option, inner)}`
        })
        return wrap(`v.discriminated(${JSON.stringify(def.discriminator)}, {`, cases, '})', indent)
      }
      default:
        throw new Error(`generate-validators: zod schema type "${def.type}" is not supported`)
    }
  }

  #check(def: CheckDef): string {
    switch (def.check) {
      case 'min_length':
        return `v.minLength(${def.minimum})`
      case 'greater_than':
        if (!def.inclusive) break
        return `v.atLeast(${def.value})`
      case 'string_format': {
        if (def.format !== 'regex' || !def.pattern) break
        const message = def.error?.() ?? `Invalid string: must match pattern ${String(def.pattern)}`
        return `v.pattern(${String(def.pattern)}, ${JSON.stringify(message)})`
      }
      case 'custom': {
        const found = Object.entries(REFINEMENTS).find(([, rule]) => rule.test === def.fn)
        if (!found) throw new Error('generate-validators: a .refine() must use a rule of refinements.ts (refineWith)')
        this.refinements.add(found[0])
        return `v.rule(${found[0]})`
      }
    }
    throw new Error(`generate-validators: zod check "${def.check}" is not supported`)
  }
}

/** Whether an object field may be absent (`.optional()`); anything else with an optional marker is refused. */
function isOptionalField(name: string, child: Node): boolean {
  const optional = child._zod.optin === 'optional' && child._zod.optout === 'optional'
  if (optional !== (child._zod.def.type === 'optional') || child._zod.optin === 'defaulted') {
    throw new Error(`generate-validators: field ${name}: only .optional() fields and required fields are supported`)
  }
  return optional
}

/**
 * Writes each schema as a predicate: an expression over a variable, or a function (objects,
 * discriminated unions, named schemas) that reads each field once. Mirrors the checks of
 * validator-runtime.ts: true exactly when the validator reports no issue.
 */
class PredicateGenerator {
  readonly #names = new Map<Node, string>()
  readonly #functions = new Map<Node, string>()
  readonly declarations: string[] = []
  readonly refinements = new Set<string>()
  #anonymous = 0

  constructor(modules: readonly Record<string, unknown>[]) {
    for (const module of modules) {
      for (const [name, value] of Object.entries(module)) if (isNode(value) && !this.#names.has(value)) this.#names.set(value, name)
    }
  }

  /** The name of a function `(x: unknown) => boolean` for `node`, declared on first use. */
  fn(node: Node): string {
    const known = this.#functions.get(node)
    if (known !== undefined) return known
    const named = this.#names.get(node)
    const name = named === undefined ? `p${++this.#anonymous}` : `is${named[0]!.toUpperCase()}${named.slice(1)}`
    this.#functions.set(node, name)
    const body = this.#body(node)
    this.declarations.push(`function ${name}(x: unknown): boolean {\n${body}\n}`)
    return name
  }

  /** A function body over `x`. */
  #body(node: Node): string {
    const def = node._zod.def
    if (def.type === 'object' && !def.checks?.length) {
      if (def.catchall?._zod.def.type !== 'unknown') throw new Error('generate-validators: only loose objects (z.looseObject) are supported')
      const lines = ['  if (!v.isObject(x)) return false']
      Object.entries(def.shape!).forEach(([name, child], i) => {
        const field = `f${i}`
        lines.push(`  const ${field} = x[${JSON.stringify(name)}]`)
        if (isOptionalField(name, child)) {
          // absent or undefined always passes; else the inner schema decides
          const inner = this.#names.has(child) ? child : child._zod.def.innerType!
          lines.push(`  if (${field} !== undefined && !(${this.expr(inner, field)})) return false`)
        } else {
          // a required key must be present, even where its schema takes any value (z.unknown())
          const test = this.expr(child, field)
          const absent = `(${field} === undefined && !(${JSON.stringify(name)} in x))`
          lines.push(`  if (${test === 'true' ? absent : `!(${test}) || ${absent}`}) return false`)
        }
      })
      lines.push('  return true')
      return lines.join('\n')
    }
    if (def.type === 'union' && def.discriminator !== undefined && !def.checks?.length) {
      const tag = def.discriminator
      const cases = def.options!.map((option) => {
        const literal = option._zod.def.shape?.[tag]?._zod.def
        if (literal?.type !== 'literal' || literal.values?.length !== 1) throw new Error('generate-validators: a discriminated option needs one literal tag')
        return `t === ${JSON.stringify(literal.values[0])} ? ${this.fn(option)}(x) : `
      })
      return `  if (!v.isObject(x)) return false\n  const t = x[${JSON.stringify(tag)}]\n  return ${cases.join('')}false`
    }
    return `  return ${this.#inline(node, 'x')}`
  }

  /** An expression that is true when the value in variable `e` passes `node`. */
  expr(node: Node, e: string): string {
    const def = node._zod.def
    const ownFunction = this.#names.has(node) || (!def.checks?.length && (def.type === 'object' || (def.type === 'union' && def.discriminator !== undefined)))
    return ownFunction ? `${this.fn(node)}(${e})` : this.#inline(node, e)
  }

  #inline(node: Node, e: string): string {
    const def = node._zod.def
    const base = this.#base(node, e)
    const checks = (def.checks ?? []).map((check) => this.#check(check._zod.def, e))
    return checks.length === 0 ? base : `(${[base, ...checks].join(' && ')})`
  }

  #base(node: Node, e: string): string {
    const def = node._zod.def
    switch (def.type) {
      case 'string':
        return `typeof ${e} === "string"`
      case 'number':
        return `Number.isFinite(${e})`
      case 'boolean':
        return `typeof ${e} === "boolean"`
      case 'undefined':
        return `${e} === undefined`
      case 'null':
        return `${e} === null`
      case 'unknown':
        return 'true'
      case 'literal':
      case 'enum': {
        const values = def.type === 'literal' ? def.values! : Object.values(def.entries!)
        for (const value of values) {
          if (!['string', 'boolean', 'number'].includes(typeof value) || Number.isNaN(value)) throw new Error('generate-validators: only string, boolean and number literals are supported')
        }
        return `(${values.map((value) => `${e} === ${JSON.stringify(value)}`).join(' || ')})`
      }
      case 'optional':
        return `(${e} === undefined || ${this.expr(def.innerType!, e)})`
      case 'nullable':
        return `(${e} === null || ${this.expr(def.innerType!, e)})`
      case 'array':
        return `v.everyItem(${e}, ${this.fn(def.element!)})`
      case 'record':
        return `v.everyValue(${e}, ${this.fn(def.valueType!)})`
      case 'union':
        if (def.discriminator === undefined) return `(${def.options!.map((o) => this.expr(o, e)).join(' || ')})`
        if (def.checks?.length) throw new Error('generate-validators: a discriminated union with checks of its own is not supported')
        return `${this.fn(node)}(${e})`
      case 'object': {
        // an object with checks of its own (a refined object): its fields in a function, then the checks
        const plain = { _zod: { ...node._zod, def: { ...def, checks: [] } } } as Node
        return `${this.fn(plain)}(${e})`
      }
      default:
        throw new Error(`generate-validators: zod schema type "${def.type}" is not supported`)
    }
  }

  #check(def: CheckDef, e: string): string {
    switch (def.check) {
      case 'min_length':
        return `v.hasMinLength(${e}, ${def.minimum})`
      case 'greater_than':
        if (!def.inclusive) break
        return `!((${e} as number) < ${def.value})`
      case 'string_format': {
        if (def.format !== 'regex' || !def.pattern) break
        if (def.pattern.global || def.pattern.sticky) throw new Error('generate-validators: a pattern with the g or y flag keeps state between tests')
        return `(typeof ${e} !== "string" || ${String(def.pattern)}.test(${e}))`
      }
      case 'custom': {
        const found = Object.entries(REFINEMENTS).find(([, rule]) => rule.test === def.fn)
        if (!found) throw new Error('generate-validators: a .refine() must use a rule of refinements.ts (refineWith)')
        this.refinements.add(found[0])
        return `${found[0]}.test(${e} as Record<string, unknown>)`
      }
    }
    throw new Error(`generate-validators: zod check "${def.check}" is not supported`)
  }
}

/** The text of predicates.generated.ts for `types`, as generateValidators(). */
export function generatePredicates(
  types: Readonly<Record<string, { readonly schema: unknown }>> = envelopes.SCHEMAS,
  modules: readonly Record<string, unknown>[] = [schemas, envelopes],
): string {
  const generator = new PredicateGenerator(modules)
  const entries = Object.entries(types).map(([type, { schema }]) => `  ${type}: ${generator.fn(schema as Node)},`)
  const refinements = [...generator.refinements].sort()
  return [
    '// Generated by `npm run gen:validators` (scripts/generate-validators.ts) from the catalogue\'s zod',
    '// schemas (shared/protocol/envelopes.ts). Do not edit: change the schemas and regenerate.',
    '// validators.test.ts fails while this file is stale, or when a predicate and its validator disagree.',
    "import type { MessageType } from './entries.ts'",
    ...(refinements.length ? [`import { ${refinements.join(', ')} } from './refinements.ts'`] : []),
    "import * as v from './validator-runtime.ts'",
    '',
    ...generator.declarations.map((d) => `${d}\n`),
    '/** Per catalogue type: true exactly when its validator (validators.generated.ts) reports no issue. */',
    'export const IS_VALID: { readonly [K in MessageType]: (value: unknown) => boolean } = {',
    ...entries,
    '}',
    '',
  ].join('\n')
}

/**
 * The text of validators.generated.ts for `types` (default: the catalogue's schemas).
 * Schemas exported by `modules` are emitted once, under their export names.
 */
export function generateValidators(
  types: Readonly<Record<string, { readonly schema: unknown }>> = envelopes.SCHEMAS,
  modules: readonly Record<string, unknown>[] = [schemas, envelopes],
): string {
  const generator = new Generator(modules)
  const entries = Object.entries(types).map(([type, { schema }]) => `  ${type}: ${generator.ref(schema as Node, '  ')},`)
  const refinements = [...generator.refinements].sort()
  return [
    '// Generated by `npm run gen:validators` (scripts/generate-validators.ts) from the catalogue\'s zod',
    '// schemas (shared/protocol/envelopes.ts). Do not edit: change the schemas and regenerate.',
    '// validators.test.ts fails while this file is stale.',
    "import type { MessageType } from './entries.ts'",
    ...(refinements.length ? [`import { ${refinements.join(', ')} } from './refinements.ts'`] : []),
    "import * as v from './validator-runtime.ts'",
    '',
    ...generator.declarations.map((d) => `${d}\n`),
    '/** The validator of each catalogue type: the full envelope, as its zod schema checks it. */',
    'export const VALIDATORS: { readonly [K in MessageType]: v.Check } = {',
    ...entries,
    '}',
    '',
  ].join('\n')
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  writeFileSync(GENERATED_FILE, generateValidators())
  writeFileSync(PREDICATES_FILE, generatePredicates())
  console.log(`wrote ${GENERATED_FILE} and ${PREDICATES_FILE}`)
}
