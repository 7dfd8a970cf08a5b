/**
 * The interpreter that renders a checked template's AST over the event's
 * data (never `Handlebars.compile`, see render.ts): own properties only,
 * values HTML-escaped, every statement and iteration counted against
 * MAX_STEPS and every byte against MAX_OUTPUT_BYTES.
 */
import { parseInstant } from '../../../shared/crm/time.ts'
import { utf8Bytes } from '../http/http.ts'
import { escapeHtml } from './template-html.ts'
import {
  FORBIDDEN_KEYS,
  MAX_OUTPUT_BYTES,
  MAX_STEPS,
  RenderLimitError,
  type DateFormat,
  type Expression,
  type Hash,
  type PathExpression,
  type Program,
  type Statement,
  type TemplateKind,
} from './template-rules.ts'

function own(value: unknown, key: string): unknown {
  if (value === null || typeof value !== 'object' || FORBIDDEN_KEYS.has(key)) return undefined
  if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined
  return (value as Record<string, unknown>)[key]
}

function toText(value: unknown): string {
  if (value === undefined || value === null) return ''
  if (typeof value === 'string') return value
  if (typeof value === 'number' || typeof value === 'boolean') return String(value)
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? '' : toText(v))).join(',')
  return ''
}

function isEmpty(value: unknown, includeZero: boolean): boolean {
  if (value === 0) return !includeZero
  if (Array.isArray(value)) return value.length === 0
  return !value
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']
const pad = (n: number) => String(n).padStart(2, '0')

/** Format epoch ms in UTC. */
export function formatDate(ms: number, format: DateFormat): string {
  const d = new Date(ms)
  if (Number.isNaN(d.getTime())) return ''
  const date = `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`
  const time = `${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}`
  switch (format) {
    case 'iso':
      return d.toISOString()
    case 'date':
      return date
    case 'time':
      return `${time} UTC`
    case 'short':
      return `${d.getUTCMonth() + 1}/${d.getUTCDate()}/${d.getUTCFullYear()}`
    case 'long': {
      const hours = d.getUTCHours() % 12 === 0 ? 12 : d.getUTCHours() % 12
      const meridiem = d.getUTCHours() < 12 ? 'AM' : 'PM'
      return `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()} ${hours}:${pad(d.getUTCMinutes())} ${meridiem} UTC`
    }
    case 'datetime':
      return `${date} ${time} UTC`
  }
}

interface Frame {
  context: unknown
  data: { index?: number; key?: string; first?: boolean; last?: boolean }
  blockParams?: Record<string, unknown>
}

export class Interpreter {
  #out: string[] = []
  #bytes = 0
  #steps = 0
  readonly #kind: TemplateKind
  readonly #root: unknown

  constructor(kind: TemplateKind, root: unknown) {
    this.#kind = kind
    this.#root = root
  }

  run(program: Program): string {
    this.#program(program, [{ context: this.#root, data: {} }])
    return this.#out.join('')
  }

  #emit(text: string): void {
    if (text.length === 0) return
    this.#bytes += utf8Bytes(text)
    if (this.#bytes > MAX_OUTPUT_BYTES) throw new RenderLimitError(`The rendered text is larger than ${MAX_OUTPUT_BYTES} bytes.`)
    this.#out.push(text)
  }

  /** Count `n` steps (a statement, an iteration, the keys of an object walked). */
  #tick(n = 1): void {
    this.#steps += n
    if (this.#steps > MAX_STEPS) throw new RenderLimitError(`Rendering took more than ${MAX_STEPS} steps (statements and loop iterations).`)
  }

  /** Run `program` with `frame` on top of the stack (pushed and popped, so nesting costs no copies). */
  #inFrame(program: Program | undefined, stack: Frame[], frame: Frame): void {
    stack.push(frame)
    try {
      this.#program(program, stack)
    } finally {
      stack.pop()
    }
  }

  #program(program: Program | undefined, stack: Frame[]): void {
    if (!program) return
    for (const statement of program.body) this.#statement(statement, stack)
  }

  #statement(node: Statement, stack: Frame[]): void {
    this.#tick()
    switch (node.type) {
      case 'ContentStatement':
        this.#emit((node as hbs.AST.ContentStatement).value)
        return
      case 'MustacheStatement': {
        const m = node as hbs.AST.MustacheStatement
        const path = m.path as PathExpression
        if (path.original === 'formatDate' && path.parts.length === 1 && !path.data) {
          this.#emit(escapeHtml(this.#formatDate(m.params, m.hash, stack)))
          return
        }
        // Escaped whatever the mustache form: {{{x}}} and {{&x}} included.
        this.#emit(escapeHtml(toText(this.#resolve(path, stack))))
        return
      }
      case 'BlockStatement':
        this.#block(node as hbs.AST.BlockStatement, stack)
        return
      default:
        // Comments; anything else was refused by compileTemplate.
        return
    }
  }

  #block(b: hbs.AST.BlockStatement, stack: Frame[]): void {
    const name = b.path.original
    if (name === 'formatDate') {
      this.#emit(escapeHtml(this.#formatDate(b.params, b.hash, stack)))
      return
    }
    const value = this.#value(b.params[0], stack)
    const top = stack[stack.length - 1] as Frame
    switch (name) {
      case 'if':
      case 'unless': {
        const includeZero = this.#hashValue(b.hash, 'includeZero', stack) === true
        const truthy = !isEmpty(value, includeZero)
        this.#program(truthy === (name === 'if') ? b.program : b.inverse, stack)
        return
      }
      case 'with': {
        if (isEmpty(value, false)) {
          this.#program(b.inverse, stack)
          return
        }
        const names = b.program.blockParams ?? []
        const blockParams = names.length > 0 ? { [names[0] as string]: value } : undefined
        this.#inFrame(b.program, stack, { context: value, data: top.data, ...(blockParams && { blockParams }) })
        return
      }
      case 'each': {
        const names = b.program.blockParams ?? []
        // Arrays are walked by index (no copy); an object's keys are counted as steps when they are listed.
        let keys: string[] | null = null
        let length = 0
        if (Array.isArray(value)) length = value.length
        else if (value !== null && typeof value === 'object') {
          const all = Object.keys(value)
          this.#tick(all.length)
          keys = all.filter((k) => !FORBIDDEN_KEYS.has(k))
          length = keys.length
        }
        if (length === 0) {
          this.#program(b.inverse, stack)
          return
        }
        for (let i = 0; i < length; i++) {
          this.#tick()
          const key: string | number = keys ? (keys[i] as string) : i
          const item = keys ? (value as Record<string, unknown>)[key] : (value as unknown[])[i]
          const data: Frame['data'] = { index: i, first: i === 0, last: i === length - 1 }
          if (keys) data.key = key as string
          const blockParams: Record<string, unknown> = {}
          if (names[0] !== undefined) blockParams[names[0]] = item
          if (names[1] !== undefined) blockParams[names[1]] = key
          this.#inFrame(b.program, stack, { context: item, data, ...(names.length > 0 && { blockParams }) })
        }
        return
      }
      default:
        return
    }
  }

  #formatDate(params: Expression[], hash: Hash | undefined, stack: Frame[]): string {
    if (this.#kind === 'header') return ''
    const ms = parseInstant(this.#value(params[0], stack))
    if (ms === undefined) return ''
    const format = this.#hashValue(hash, 'format', stack)
    return formatDate(ms, typeof format === 'string' ? (format as DateFormat) : 'datetime')
  }

  #hashValue(hash: Hash | undefined, key: string, stack: Frame[]): unknown {
    const pair = hash?.pairs.find((p) => p.key === key)
    return pair ? this.#value(pair.value, stack) : undefined
  }

  #value(node: Expression | undefined, stack: Frame[]): unknown {
    if (!node) return undefined
    switch (node.type) {
      case 'PathExpression':
        return this.#resolve(node as PathExpression, stack)
      case 'StringLiteral':
        return (node as hbs.AST.StringLiteral).value
      case 'NumberLiteral':
        return (node as hbs.AST.NumberLiteral).value
      case 'BooleanLiteral':
        return (node as hbs.AST.BooleanLiteral).value
      default:
        return undefined
    }
  }

  #resolve(path: PathExpression, stack: Frame[]): unknown {
    const parts = path.parts
    if (path.data) {
      const [head, ...rest] = parts
      if (head === 'root') return walk(this.#root, rest)
      const frame = stack[Math.max(0, stack.length - 1 - path.depth)] as Frame
      return head === undefined ? undefined : walk(own(frame.data, head), rest)
    }
    if (path.depth === 0 && parts.length > 0) {
      const head = parts[0] as string
      for (let i = stack.length - 1; i >= 0; i--) {
        const params = stack[i]?.blockParams
        if (params && Object.prototype.hasOwnProperty.call(params, head)) return walk(params[head], parts.slice(1))
      }
    }
    const frame = stack[Math.max(0, stack.length - 1 - path.depth)] as Frame
    return walk(frame.context, parts)
  }
}

/** Follow `parts` through own properties; a dotted key that exists whole wins. */
function walk(start: unknown, parts: readonly string[]): unknown {
  if (parts.length === 0) return start
  if (parts.length > 1) {
    const whole = own(start, parts.join('.'))
    if (whole !== undefined) return whole
  }
  let value = start
  for (const part of parts) {
    value = own(value, part)
    if (value === undefined) return undefined
  }
  return value
}
