/**
 * The one reading of an instant sent to the API: integer epoch milliseconds
 * (a number or its digits) or ISO 8601 (a date, or a date and time). The calls
 * API takes hs_timestamp "as a Unix timestamp in milliseconds or UTC format"
 * (https://developers.hubspot.com/docs/guides/api/crm/engagements/calls), and a
 * timeline event's timestamp is ISO 8601 or epoch milliseconds
 * (https://developers.hubspot.com/docs/api/crm/timeline).
 *
 * - A time with no zone is UTC (never the machine's zone, so the same request
 *   means the same instant on every machine).
 * - Calendar fields must name a real day and time: `Date` rolls "2020-02-30"
 *   over to March 1st and "T24:00" to the next day, where the API refuses them.
 * - Epoch values must be integers within the range of a JS Date (±8.64e15 ms).
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?$/
const EPOCH_MS = /^-?\d{1,16}$/
/** ±year 275760, the range of a JS Date. */
const MAX_EPOCH_MS = 8.64e15

/** Epoch milliseconds of an instant (see the module comment), or undefined when the value is not one. */
export function parseInstant(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isInteger(value) && Math.abs(value) <= MAX_EPOCH_MS ? value : undefined
  if (typeof value !== 'string') return undefined
  const text = value.trim()
  if (EPOCH_MS.test(text)) {
    const ms = Number(text)
    return Math.abs(ms) <= MAX_EPOCH_MS ? ms : undefined
  }
  const isDate = ISO_DATE.test(text)
  if (!isDate && !ISO_DATETIME.test(text)) return undefined
  if (!isRealCalendarTime(text)) return undefined
  // A date alone is midnight UTC (as Date reads it); a time with no zone is made UTC explicitly.
  const hasZone = isDate || /(Z|[+-]\d{2}:?\d{2})$/.test(text)
  const ms = Date.parse(hasZone ? text : `${text}Z`)
  return Number.isNaN(ms) ? undefined : ms
}

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

function isRealCalendarTime(text: string): boolean {
  const year = Number(text.slice(0, 4))
  const month = Number(text.slice(5, 7))
  const day = Number(text.slice(8, 10))
  if (month < 1 || month > 12 || day < 1) return false
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
  const daysInMonth = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1]!
  if (day > daysInMonth) return false
  if (text.length > 10) {
    const hour = Number(text.slice(11, 13))
    const minute = Number(text.slice(14, 16))
    const second = text[16] === ':' ? Number(text.slice(17, 19)) : 0
    if (hour > 23 || minute > 59 || second > 59) return false
  }
  return true
}
