/**
 * Rendering of timeline event templates: Handlebars over the event's data,
 * then Markdown, giving HTML that is safe by construction.
 *
 * Why not `Handlebars.compile`: it builds JavaScript with `new Function`
 * (forbidden by the harness's Content-Security-Policy) and its generated code
 * can reach prototypes (`{{constructor.constructor}}`). Here templates are only
 * parsed (`Handlebars.parse`, a pure parser) and the resulting AST is walked
 * by a small interpreter for the subset timeline templates use:
 *
 * - `{{path.to.value}}`, HTML-escaped. `{{{triple}}}` and `{{&amp}}` are escaped
 *   too: a template cannot emit raw HTML.
 * - `{{#if}}` / `{{else}}` / `{{#unless}}` (hash `includeZero=true` allowed),
 *   `{{#each}}` over arrays and objects (`this`, `@index`, `@key`, `@first`,
 *   `@last`, block params `as |item i|`), `{{#with}}`.
 * - `{{#formatDate value format="…"}}{{/formatDate}}` or `{{formatDate value}}`,
 *   formats in `DATE_FORMATS`; detail template only (empty in the header).
 * - `../` parent contexts and `@root`.
 * - Lookups see own properties only; `__proto__`, `constructor` and
 *   `prototype` never resolve. A token whose name contains dots (`order.id`)
 *   is found by `{{order.id}}` as well as `{{[order.id]}}`.
 *
 * Anything else (partials, sub-expressions, decorators, raw blocks, unknown
 * helpers) is refused when the template is saved, with the position.
 *
 * Markdown: `markdown-it` (raw HTML off, so HTML in the text is shown as
 * text), with rules that keep link and image URLs only when
 * shared/url/safe-url.ts accepts them (absolute http(s)); a dropped link keeps its text, a dropped image its alt
 * text. markdown-it parses in time linear in its input (CommonMark's
 * delimiter algorithm, with its own guard against pathological emphasis and
 * nesting), where the previous renderer took quadratic time on runs such as
 * `_a_a_a…` and overflowed the stack on deeply nested block quotes.
 *
 * Budgets (a template and its data are untrusted input; one render must never
 * hold the event loop):
 * - a template's source is at most MAX_TEMPLATE_BYTES, its blocks nest at most
 *   MAX_TEMPLATE_DEPTH deep and its Markdown at most MAX_MARKDOWN_NESTING deep:
 *   checked before parsing and when the template is saved (400);
 * - rendering counts steps (every statement and every `#each` iteration, at
 *   every depth) up to MAX_STEPS, and output bytes up to MAX_OUTPUT_BYTES;
 * - Markdown is given at most MAX_MARKDOWN_BYTES; a longer text is shown as
 *   plain, escaped text;
 * - parsed templates are cached in an LRU bounded by the bytes of their
 *   sources (COMPILE_CACHE_BYTES), not by their count.
 */
import Handlebars from 'handlebars'
import MarkdownIt from 'markdown-it'
import { parseInstant } from '../../../shared/crm/time.ts'
import { utf8Bytes } from '../http/http.ts'
import { safeUrl } from '../../../shared/url/safe-url.ts'

/** A template that cannot be parsed or uses something the interpreter does not support. */
export class TemplateError extends Error {
  override name = 'TemplateError'
}

/** Raised while rendering when a template would produce too much output (nested loops over big data). */
export class RenderLimitError extends Error {
  override name = 'RenderLimitError'
}

export type TemplateKind = 'header' | 'detail'

/** What a template sees. */
export interface RenderInput {
  /** Token values of the event, by token name. */
  tokens: Readonly<Record<string, string>>
  /** Detail only. */
  extraData?: unknown
  /** The event time (epoch ms); `timestamp` in the detail template. */
  timestamp?: number
}

/** Formats understood by `formatDate` (all in UTC, so output does not depend on the machine). */
export const DATE_FORMATS = ['datetime', 'date', 'time', 'iso', 'long', 'short'] as const
export type DateFormat = (typeof DATE_FORMATS)[number]

/**
 * Limits that keep a hostile template from hanging the emulator. The real
 * timeline API publishes no size limit for templates (only 1 MB per event and
 * 510 KB per token value, https://developers.hubspot.com/docs/api/crm/timeline);
 * these are the emulator's own, far above what a timeline card shows, and
 * each is named in the 400 that refuses a template over it.
 */
/** Steps of one render: statements plus `#each` iterations at every depth. */
export const MAX_STEPS = 100_000
/** UTF-8 bytes one render may produce: the real API's limit for a whole event (1 MB), so any event within it can show. */
export const MAX_OUTPUT_BYTES = 1024 * 1024
/**
 * The most text (UTF-8 bytes) given to Markdown; a longer rendered text is
 * shown as plain text. markdown-it's block and emphasis parsing is linear,
 * but runs of `[` or `![` cost it some 20 µs a character (measured: 60 KB of
 * `![` took 0.3 s), so this keeps the worst render of an event in tens of
 * milliseconds, far more text than a timeline card shows.
 */
export const MAX_MARKDOWN_BYTES = 16 * 1024
/** UTF-8 bytes of a template's source. */
export const MAX_TEMPLATE_BYTES = 64 * 1024
/** Deepest nesting of blocks (`{{#each}}` inside `{{#if}}` …) a template may have; checked before parsing. */
export const MAX_TEMPLATE_DEPTH = 100
/**
 * Deepest nesting of Markdown blocks (quotes in lists in quotes …), the limit
 * markdown-it's CommonMark preset uses. A template's own text deeper than this
 * is refused when it is saved; text from tokens deeper than this stops being
 * nested (markdown-it's `maxNesting`) instead of recursing.
 */
export const MAX_MARKDOWN_NESTING = 20
/** Total UTF-8 bytes of the template sources whose parse is cached (ASTs take some ten times their source). */
export const COMPILE_CACHE_BYTES = 2 * 1024 * 1024

type Program = hbs.AST.Program
type Statement = hbs.AST.Statement
type Expression = hbs.AST.Expression
type PathExpression = hbs.AST.PathExpression
type Hash = hbs.AST.Hash

const BLOCK_HELPERS = new Set(['if', 'unless', 'each', 'with', 'formatDate'])
/** Keys a template lookup never resolves (they lead to prototypes). */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set([
  '__proto__',
  'constructor',
  'prototype',
  '__defineGetter__',
  '__defineSetter__',
  '__lookupGetter__',
  '__lookupSetter__',
])
const DATA_VARIABLES = new Set(['index', 'key', 'first', 'last', 'root'])

// ---------------------------------------------------------------------------
// Parsing and checking

function where(node: hbs.AST.Node): string {
  const start = node.loc?.start
  return start ? ` (line ${start.line}, column ${start.column + 1})` : ''
}

function isPath(node: Expression): node is PathExpression {
  return node.type === 'PathExpression'
}

function checkHash(hash: Hash | undefined, allowed: readonly string[], helper: string): void {
  for (const pair of hash?.pairs ?? []) {
    if (!allowed.includes(pair.key)) {
      throw new TemplateError(`Helper '${helper}' does not take the option '${pair.key}'${where(pair)}.`)
    }
  }
}

function checkParams(params: Expression[], helper: string, node: hbs.AST.Node): void {
  if (params.length !== 1) {
    throw new TemplateError(`Helper '${helper}' takes exactly one argument, got ${params.length}${where(node)}.`)
  }
  for (const param of params) checkExpression(param)
}

function checkExpression(node: Expression): void {
  switch (node.type) {
    case 'PathExpression': {
      const path = node as PathExpression
      if (path.data && !DATA_VARIABLES.has(path.parts[0] ?? '')) {
        throw new TemplateError(`Unknown data variable '@${path.parts[0] ?? ''}'${where(node)}; use @index, @key, @first, @last or @root.`)
      }
      return
    }
    case 'StringLiteral':
    case 'NumberLiteral':
    case 'BooleanLiteral':
    case 'NullLiteral':
    case 'UndefinedLiteral':
      return
    case 'SubExpression':
      throw new TemplateError(`Sub-expressions '( … )' are not supported${where(node)}.`)
    default:
      throw new TemplateError(`Unsupported expression ${node.type}${where(node)}.`)
  }
}

function checkFormatDate(params: Expression[], hash: Hash | undefined, node: hbs.AST.Node): void {
  checkParams(params, 'formatDate', node)
  checkHash(hash, ['format'], 'formatDate')
  const format = hash?.pairs.find((p) => p.key === 'format')
  if (format) {
    const value = format.value
    if (value.type !== 'StringLiteral' || !(DATE_FORMATS as readonly string[]).includes((value as hbs.AST.StringLiteral).value)) {
      throw new TemplateError(`formatDate's format must be one of ${DATE_FORMATS.map((f) => `"${f}"`).join(', ')}${where(format)}.`)
    }
  }
}

function checkProgram(program: Program | undefined): void {
  if (!program) return
  for (const statement of program.body) checkStatement(statement)
}

function checkStatement(node: Statement): void {
  switch (node.type) {
    case 'ContentStatement':
    case 'CommentStatement':
      return
    case 'MustacheStatement': {
      const m = node as hbs.AST.MustacheStatement
      if (!isPath(m.path)) throw new TemplateError(`A literal cannot be used as a value${where(node)}; write a path such as {{name}}.`)
      const name = m.path.original
      if (m.path.parts.length === 1 && !m.path.data && m.path.depth === 0 && name === 'formatDate') {
        checkFormatDate(m.params, m.hash, node)
        return
      }
      if (m.params.length > 0 || (m.hash?.pairs.length ?? 0) > 0) {
        throw new TemplateError(`Unknown helper '${name}'${where(node)}; only if, unless, each, with and formatDate are available.`)
      }
      checkExpression(m.path)
      return
    }
    case 'BlockStatement': {
      const b = node as hbs.AST.BlockStatement
      const name = b.path.original
      if (!isPath(b.path) || b.path.data || b.path.depth > 0 || b.path.parts.length !== 1 || !BLOCK_HELPERS.has(name)) {
        throw new TemplateError(`Unknown block helper '#${name}'${where(node)}; use #if, #unless, #each, #with or #formatDate.`)
      }
      if (name === 'formatDate') checkFormatDate(b.params, b.hash, node)
      else {
        checkParams(b.params, name, node)
        checkHash(b.hash, name === 'if' || name === 'unless' ? ['includeZero'] : [], name)
      }
      const blockParams = b.program?.blockParams ?? []
      if (blockParams.length > 0 && name !== 'each' && name !== 'with') {
        throw new TemplateError(`Block parameters are only supported on #each and #with${where(node)}.`)
      }
      checkProgram(b.program)
      checkProgram(b.inverse)
      return
    }
    case 'PartialStatement':
    case 'PartialBlockStatement':
      throw new TemplateError(`Partials are not supported${where(node)}.`)
    case 'DecoratorBlock':
    case 'Decorator':
      throw new TemplateError(`Decorators are not supported${where(node)}.`)
    default:
      throw new TemplateError(`Unsupported template construct ${node.type}${where(node)}.`)
  }
}

/**
 * The deepest nesting of blocks in a template source, found in one pass
 * before the source reaches the (recursive) parser: `{{#…}}` and `{{^…}}`
 * open a block, `{{/…}}` closes one; comments are skipped. Stops at
 * MAX_TEMPLATE_DEPTH + 1.
 */
function blockDepth(source: string): number {
  let depth = 0
  let deepest = 0
  let i = source.indexOf('{{')
  while (i >= 0) {
    let j = i + 2
    while (source[j] === '{' || source[j] === '~' || source[j] === ' ') j++
    const sigil = source[j]
    if (sigil === '!') {
      const end = source.startsWith('!--', j) ? source.indexOf('--}}', j) : source.indexOf('}}', j)
      if (end < 0) break
      i = source.indexOf('{{', end)
      continue
    }
    // `{{^}}` alone is an else; `{{^name}}` opens an inverse block.
    const opens = sigil === '#' || (sigil === '^' && source[j + 1] !== '}' && source[j + 1] !== '~')
    if (opens) {
      depth++
      if (depth > deepest) {
        deepest = depth
        if (deepest > MAX_TEMPLATE_DEPTH) return deepest
      }
    } else if (sigil === '/') {
      depth--
    }
    i = source.indexOf('{{', j)
  }
  return deepest
}

/** Parsed templates by source, least recently used first; `cachedBytes` is the sum of their sources' sizes. */
const compiled = new Map<string, { program: Program; bytes: number }>()
let cachedBytes = 0

/** What the compile cache holds now (tests and the fuzz report check it stays bounded). */
export function compileCacheStats(): { entries: number; bytes: number } {
  return { entries: compiled.size, bytes: cachedBytes }
}

function remember(source: string, program: Program, bytes: number): void {
  if (bytes > COMPILE_CACHE_BYTES) return
  compiled.set(source, { program, bytes })
  cachedBytes += bytes
  for (const [key, entry] of compiled) {
    if (cachedBytes <= COMPILE_CACHE_BYTES) break
    compiled.delete(key)
    cachedBytes -= entry.bytes
  }
}

/**
 * Parse and check a template. Throws TemplateError with the parser's message
 * (syntax) or ours (unsupported construct, over a limit). Results are cached
 * by source.
 */
export function compileTemplate(source: string): Program {
  const cached = compiled.get(source)
  if (cached) {
    // Most recently used last.
    compiled.delete(source)
    compiled.set(source, cached)
    return cached.program
  }
  const bytes = source.length > MAX_TEMPLATE_BYTES ? utf8Bytes(source) : source.length
  if (bytes > MAX_TEMPLATE_BYTES) {
    throw new TemplateError(`The template is ${bytes} bytes; the limit is ${MAX_TEMPLATE_BYTES}.`)
  }
  const depth = blockDepth(source)
  if (depth > MAX_TEMPLATE_DEPTH) {
    throw new TemplateError(`Blocks are nested more than ${MAX_TEMPLATE_DEPTH} deep; this template opens ${depth} blocks inside each other.`)
  }
  const markdownDepth = markdownNesting(source)
  if (markdownDepth > MAX_MARKDOWN_NESTING) {
    throw new TemplateError(`Markdown blocks (quotes, lists) are nested more than ${MAX_MARKDOWN_NESTING} deep.`)
  }
  let program: Program
  try {
    program = Handlebars.parse(source)
  } catch (error) {
    throw new TemplateError(error instanceof Error ? error.message : String(error))
  }
  // Raw blocks ({{{{raw}}}}) parse to a BlockStatement named "raw" etc.; they are refused by checkStatement.
  checkProgram(program)
  remember(source, program, utf8Bytes(source))
  return program
}

// ---------------------------------------------------------------------------
// Interpreting

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#x27;',
  '`': '&#x60;',
  '=': '&#x3D;',
}

/** Handlebars' escaping (the same seven characters). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"'`=]/g, (c) => ESCAPES[c] ?? c)
}

/** Escaping for a double-quoted attribute value (keeps URLs readable: `=` stays). */
function escapeAttribute(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c)
}

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

class Interpreter {
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

// ---------------------------------------------------------------------------
// Markdown


const NAMED_ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0' }

/** Decode the HTML character references a URL or code span may carry (ours come from escapeHtml). */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]{1,6}|#\d{1,7}|[a-z]+);/gi, (match, ref: string) => {
    if (ref[0] === '#') {
      const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10)
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : match
    }
    return NAMED_ENTITIES[ref.toLowerCase()] ?? match
  })
}

/** A Markdown link's or image's URL as written: entities decoded (markdown-it leaves them); spaces at the ends are not part of a CommonMark link destination. */
const markdownUrl = (raw: string): string => decodeEntities(raw).trim()

/**
 * The Markdown renderer: raw HTML off (HTML in the text is escaped, with
 * Handlebars' seven characters, like the template's values); links and
 * images are checked when they are rendered, so a refused URL keeps its text.
 * `maxNesting` stops block and inline nesting (at depth 100, the renderer's
 * default), so deeply nested text from tokens cannot recurse further.
 */
const markdown = new MarkdownIt('default', { html: false, linkify: false, typographer: false, maxNesting: 100 })
// URLs are checked by the link and image rules below (a refused one keeps its text instead of staying Markdown source).
markdown.validateLink = () => true
markdown.normalizeLink = (url) => url
const rules = markdown.renderer.rules
rules.text = (tokens, idx) => escapeHtml(tokens[idx]?.content ?? '')
rules.code_inline = (tokens, idx) => `<code>${escapeHtml(decodeEntities(tokens[idx]?.content ?? ''))}</code>`
rules.code_block = (tokens, idx) => `<pre><code>${escapeHtml(decodeEntities(tokens[idx]?.content ?? ''))}</code></pre>\n`
rules.fence = rules.code_block
/** Per render: whether each open link was kept, so its close tag matches. */
interface MarkdownEnv {
  links?: boolean[]
}
/** An attribute of a Markdown token as text. */
const attr = (token: { attrGet(name: string): string | number | null } | undefined, name: string) => String(token?.attrGet(name) ?? '')
rules.link_open = (tokens, idx, _options, renderEnv) => {
  const env = renderEnv as MarkdownEnv | undefined
  const token = tokens[idx]
  const href = safeUrl(markdownUrl(attr(token, 'href')))
  if (env) (env.links ??= []).push(href !== undefined)
  if (href === undefined) return ''
  const rawTitle = attr(token, 'title')
  const title = rawTitle ? ` title="${escapeAttribute(decodeEntities(rawTitle))}"` : ''
  return `<a href="${escapeAttribute(href)}"${title} rel="noopener noreferrer nofollow" target="_blank">`
}
rules.link_close = (_tokens, _idx, _options, env) => ((env as MarkdownEnv | undefined)?.links?.pop() ? '</a>' : '')
rules.image = (tokens, idx, options, env, self) => {
  const token = tokens[idx]
  const alt = escapeAttribute(decodeEntities(self.renderInlineAsText(token?.children ?? [], options, env)))
  const src = safeUrl(markdownUrl(attr(token, 'src')))
  if (src === undefined) return alt
  const rawTitle = attr(token, 'title')
  const title = rawTitle ? ` title="${escapeAttribute(decodeEntities(rawTitle))}"` : ''
  return `<img src="${escapeAttribute(src)}" alt="${alt}"${title}>`
}

/**
 * How deep the Markdown blocks of a text nest (block quotes, lists and their
 * items, each a level), from markdown-it's block parser alone (line by line,
 * no inline parsing): linear in the text, and capped by its `maxNesting`, so
 * a text of 2,000 nested quotes reads as 100.
 */
function markdownNesting(source: string): number {
  let deepest = 0
  const tokens: ReturnType<typeof markdown.parse> = []
  markdown.block.parse(source, markdown, {}, tokens)
  for (const token of tokens) {
    if (token.nesting === 1 && token.level + 1 > deepest) deepest = token.level + 1
  }
  return deepest
}

// ---------------------------------------------------------------------------
// Public entry points

/** The data a template kind sees: tokens always; extraData and timestamp in the detail only. */
function rootFor(kind: TemplateKind, input: RenderInput): Record<string, unknown> {
  const root: Record<string, unknown> = Object.create(null)
  for (const [name, value] of Object.entries(input.tokens)) root[name] = value
  if (kind === 'detail') {
    if (input.extraData !== undefined) root.extraData = input.extraData
    if (input.timestamp !== undefined) root.timestamp = input.timestamp
  }
  return root
}

/** Handlebars only (no Markdown): the intermediate text, escaped. Exposed for tests. */
export function interpolate(source: string, kind: TemplateKind, input: RenderInput): string {
  return new Interpreter(kind, rootFor(kind, input)).run(compileTemplate(source))
}

/** What a template that cannot be rendered shows in place of the event's header or detail. */
export function renderFailure(reason: string): string {
  return `<p><em>This event could not be rendered: ${escapeHtml(reason)}</em></p>`
}

/**
 * Render a template to safe HTML: Handlebars, then Markdown (inline for the
 * one-line header, block for the detail). An absent template renders as ''.
 * A template that is invalid or over a budget renders a short notice instead
 * of failing. A rendered text over MAX_MARKDOWN_BYTES is shown as plain text.
 */
export function renderTemplate(source: string | undefined, kind: TemplateKind, input: RenderInput): string {
  if (source === undefined || source === '') return ''
  let text: string
  try {
    text = interpolate(source, kind, input)
  } catch (error) {
    if (error instanceof RenderLimitError || error instanceof TemplateError) return renderFailure(error.message)
    throw error
  }
  if (utf8Bytes(text) > MAX_MARKDOWN_BYTES) {
    // Values are escaped already and the template's own text is not: decoding first escapes both once.
    const plain = escapeHtml(decodeEntities(text)).replace(/\n/g, '<br>\n')
    return kind === 'header' ? plain : `<p>${plain}</p>\n`
  }
  return kind === 'header' ? markdown.renderInline(text, {}) : markdown.render(text, {})
}
