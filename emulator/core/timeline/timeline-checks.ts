/**
 * The checks of timeline input the routes and the store share: template
 * syntax, template object types, tokens and their options, token values,
 * event timestamps and ids.
 */
import { conflict, validationError } from '../http/errors.ts'
import { parseObjectType } from '../objects/object-types.ts'
import { utf8Bytes } from '../http/http.ts'
import { compileTemplate } from './template-compile.ts'
import { TemplateError } from './template-rules.ts'
import { parseInstant } from '../../../shared/crm/time.ts'
import { LIMITS, parseOr400, tokenInputSchema, type TokenInput, type TokenType } from './schemas.ts'
import { TIMELINE_OBJECT_TYPES, type TimelineObjectType, type TokenRow } from './timeline-rows.ts'

/** 400 INVALID_TEMPLATE with the parser's message when a template cannot be used. */
export function checkTemplateSyntax(source: string | undefined | null, field: string): void {
  if (source === undefined || source === null) return
  try {
    compileTemplate(source)
  } catch (error) {
    if (error instanceof TemplateError) throw validationError(`${field} is not a valid template: ${error.message}`, { subCategory: 'INVALID_TEMPLATE' })
    throw error
  }
}

export function parseTemplateObjectType(input: string | undefined): TimelineObjectType {
  if (input === undefined) return 'contacts'
  const type = parseObjectType(input)
  if (!type || !(TIMELINE_OBJECT_TYPES as readonly string[]).includes(type)) {
    throw validationError(`objectType '${input}' is not supported; use one of ${TIMELINE_OBJECT_TYPES.join(', ')} (or CONTACT, COMPANY, DEAL, TICKET).`)
  }
  return type as TimelineObjectType
}

export function checkOptions(type: TokenType, options: TokenInput['options'], where: string): TokenRow['options'] {
  if (type !== 'enumeration') {
    if (options !== undefined && options.length > 0) throw validationError(`${where}: options are only used with type enumeration.`)
    return undefined
  }
  if (options === undefined || options.length === 0) throw validationError(`${where}: a token of type enumeration needs at least one option.`)
  const seen = new Set<string>()
  for (const option of options) {
    if (seen.has(option.value)) throw validationError(`${where}: option value '${option.value}' appears twice.`)
    seen.add(option.value)
  }
  return options.map((o) => ({ value: o.value, label: o.label }))
}

export function newToken(input: TokenInput, now: number, where: string): TokenRow {
  const options = checkOptions(input.type, input.options, where)
  return {
    name: input.name,
    label: input.label,
    type: input.type,
    ...(options && { options }),
    ...(input.objectPropertyName !== undefined && { objectPropertyName: input.objectPropertyName }),
    createdAt: now,
    updatedAt: now,
  }
}

/** Parse a template's tokens[]: each valid, names unique (409), at most 500. */
export function parseTokenList(raw: readonly unknown[], now: number, previous: readonly TokenRow[] = []): TokenRow[] {
  if (raw.length > LIMITS.tokensPerTemplate) {
    throw validationError(`A template can have at most ${LIMITS.tokensPerTemplate} tokens; got ${raw.length}.`, { subCategory: 'TOO_MANY_TOKENS' })
  }
  const tokens: TokenRow[] = []
  const names = new Set<string>()
  raw.forEach((item, index) => {
    const input = parseOr400(tokenInputSchema, item, `tokens[${index}]`)
    if (names.has(input.name)) throw conflict(`tokens[${index}]: a token named '${input.name}' is already defined in this template.`)
    names.add(input.name)
    const token = newToken(input, now, `tokens[${index}]`)
    const before = previous.find((t) => t.name === token.name)
    tokens.push(before ? { ...token, createdAt: before.createdAt } : token)
  })
  return tokens
}

/**
 * One token value of an event, checked against its definition; returns the
 * stored string.
 */
export function checkTokenValue(def: TokenRow, raw: string | number | boolean): string {
  const where = `Token '${def.name}'`
  if (typeof raw === 'boolean') throw validationError(`${where} must be a string or a number, got a boolean.`)
  if (typeof raw === 'number' && !Number.isFinite(raw)) throw validationError(`${where} must be a finite number.`)
  const text = String(raw)
  const bytes = utf8Bytes(text)
  if (bytes > LIMITS.valueBytes) {
    throw validationError(`${where} is ${bytes} bytes; a token value can be at most ${LIMITS.valueBytes} bytes (510 KB).`, { subCategory: 'VALUE_TOO_LARGE' })
  }
  switch (def.type) {
    case 'number':
      if (!/^\s*-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?\s*$/.test(text) || !Number.isFinite(Number(text))) {
        throw validationError(`${where} is of type number; '${truncate(text)}' is not a number.`)
      }
      return text.trim()
    case 'date': {
      const trimmed = text.trim()
      if (!/^-?\d+$/.test(trimmed) || Math.abs(Number(trimmed)) > 8.64e15) {
        throw validationError(`${where} is of type date; send Unix time in milliseconds as an integer, got '${truncate(text)}'.`)
      }
      return String(Number(trimmed))
    }
    case 'enumeration': {
      const values = (def.options ?? []).map((o) => o.value)
      if (!values.includes(text)) {
        throw validationError(`${where} must be one of [${values.join(', ')}]; got '${truncate(text)}'.`, { subCategory: 'INVALID_OPTION' })
      }
      return text
    }
    case 'string':
      return text
  }
}

export function truncate(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

export function parseTimestamp(raw: string | number | undefined, now: number): number {
  if (raw === undefined) return now
  const ms = parseInstant(raw)
  if (ms === undefined) {
    const shown = typeof raw === 'number' ? String(raw) : `'${truncate(raw)}'`
    throw validationError(`timestamp must be an ISO 8601 string or integer epoch milliseconds; got ${shown}.`)
  }
  return ms
}

/** `{{uuid}}` in a client-chosen id is replaced by a fresh UUID. */
export function expandEventId(id: string | undefined): string {
  if (id === undefined) return crypto.randomUUID()
  return id.replace(/\{\{\s*uuid\s*\}\}/g, () => crypto.randomUUID())
}
