/**
 * Parsing and checking a timeline template: `Handlebars.parse` (a pure
 * parser, no code generation), then a walk that refuses every construct the
 * interpreter does not support and every budget a template is over, with the
 * position; parsed templates are cached by source (an LRU bounded by bytes).
 */
import Handlebars from 'handlebars'
import { utf8Bytes } from '../http/http.ts'
import { markdownNesting } from './template-html.ts'
import {
  BLOCK_HELPERS,
  COMPILE_CACHE_BYTES,
  DATA_VARIABLES,
  DATE_FORMATS,
  MAX_MARKDOWN_NESTING,
  MAX_TEMPLATE_BYTES,
  MAX_TEMPLATE_DEPTH,
  TemplateError,
  type Expression,
  type Hash,
  type PathExpression,
  type Program,
  type Statement,
} from './template-rules.ts'

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
