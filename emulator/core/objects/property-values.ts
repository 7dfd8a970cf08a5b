/**
 * The one place where a property value sent by a client is checked and
 * normalized before it is stored. Values are stored as strings, as the real
 * API returns them: numbers as decimal text, booleans as "true"/"false",
 * datetimes as ISO-8601 UTC, dates as YYYY-MM-DD, e-mail addresses in lower
 * case.
 */
import type { ObjectType } from './object-types.ts'
import type { CheckedDefinition } from './properties.ts'
import { parseInstant } from '../../../shared/crm/time.ts'
import { urlFieldProblem } from '../http/url-field.ts'
import { isActiveOwnerId } from '../../../shared/crm/account.ts'

/** One failed property of a write, as the real API lists them. */
export interface PropertyProblem {
  name: string
  /** PROPERTY_DOESNT_EXIST, INVALID_OPTION, INVALID_NUMBER, ... */
  error: string
  message: string
}

/** Longest string value the real API stores. */
export const MAX_VALUE_LENGTH = 65_536

/**
 * Check one value for one property. Returns the stored form (a string, or
 * null to clear the property) or the problem. Does not check read-only or
 * object-level rules (those are the store's).
 */
export function normalizeValue(
  def: CheckedDefinition | undefined,
  objectType: ObjectType,
  name: string,
  raw: unknown,
): { ok: true; value: string | null } | { ok: false; problem: PropertyProblem } {
  const fail = (error: string, message: string) => ({ ok: false as const, problem: { name, error, message } })
  if (!def) return fail('PROPERTY_DOESNT_EXIST', `Property "${name}" does not exist`)
  if (raw === null) return { ok: true, value: null }
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') {
    return fail('INVALID_PROPERTY_VALUE', `Property "${name}" must be a string, number, boolean or null, got ${Array.isArray(raw) ? 'an array' : typeof raw}`)
  }
  if (typeof raw === 'number' && !Number.isFinite(raw)) return fail('INVALID_NUMBER', `${raw} is not a valid number for "${name}"`)
  const text = String(raw)
  // An empty string clears the property, as in the real API.
  if (text.trim() === '') return { ok: true, value: null }
  if (text.length > MAX_VALUE_LENGTH) {
    return fail('VALUE_TOO_LONG', `Property "${name}" is ${text.length} characters long; the limit is ${MAX_VALUE_LENGTH}`)
  }
  switch (def.type) {
    case 'number': {
      const trimmed = text.trim()
      if (!/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(trimmed) || !Number.isFinite(Number(trimmed))) {
        return fail('INVALID_NUMBER', `"${text}" is not a valid number for "${name}"`)
      }
      return { ok: true, value: trimmed }
    }
    case 'bool': {
      const lower = text.trim().toLowerCase()
      if (lower !== 'true' && lower !== 'false') return fail('INVALID_BOOLEAN', `"${text}" is not a valid boolean for "${name}" (true or false)`)
      return { ok: true, value: lower }
    }
    case 'datetime': {
      const ms = parseInstant(text)
      if (ms === undefined) {
        return fail('INVALID_DATE', `"${text}" is not a valid datetime for "${name}" (epoch milliseconds or ISO 8601 with a zone)`)
      }
      return { ok: true, value: new Date(ms).toISOString() }
    }
    case 'date': {
      const ms = parseInstant(text)
      if (ms === undefined) return fail('INVALID_DATE', `"${text}" is not a valid date for "${name}" (YYYY-MM-DD or epoch milliseconds)`)
      return { ok: true, value: new Date(ms).toISOString().slice(0, 10) }
    }
    case 'enumeration': {
      if (def.rules.owner) {
        // The real API checks the id against the account's active owners (a userId, or a deactivated owner, is refused).
        const id = text.trim()
        if (!isActiveOwnerId(id)) return fail('INVALID_OWNER_ID', `${text} is not a valid owner id`)
        return { ok: true, value: id }
      }
      if (def.externalOptions || def.options.length === 0) return { ok: true, value: text }
      if (def.fieldType === 'checkbox') {
        // Multiple checkboxes: several options, separated by ";".
        const chosen = text.split(';').filter((v) => v !== '')
        const wrong = chosen.filter((v) => !def.options.some((o) => o.value === v))
        if (wrong.length > 0) {
          return fail('INVALID_OPTION', `${wrong.join(';')} was not one of the allowed options: [${def.options.map((o) => o.value).join(', ')}]`)
        }
        return { ok: true, value: chosen.join(';') }
      }
      if (!def.options.some((o) => o.value === text)) {
        return fail(
          'INVALID_OPTION',
          `${text} was not one of the allowed options: [${def.options.map((o) => o.value).join(', ')}]`,
        )
      }
      return { ok: true, value: text }
    }
    case 'phone_number':
    case 'string':
      if (def.rules.url) {
        const problem = urlFieldProblem(text, def.rules.url === 'https')
        if (problem !== null) return fail('INVALID_URL', `"${name}" ${problem}`)
      }
      if (name === 'email' && objectType === 'contacts') {
        const email = text.trim().toLowerCase()
        if (!/^[^\s@\p{Cc}]+@[^\s@\p{Cc}]+$/u.test(email)) return fail('INVALID_EMAIL', `Email address ${text} is invalid`)
        return { ok: true, value: email }
      }
      return { ok: true, value: text }
  }
}
