/**
 * Display formatting of property values, durations and timestamps.
 */

const ISO_DATE = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/

// Made on first use, not at load: the first Intl.DateTimeFormat of a page loads the locale's data
// (about 15 ms of a harness load in headless Chromium), which a page that shows no date, such as
// a record list, need not pay for.
let dateTimeFormat: Intl.DateTimeFormat | undefined
let dateFormat: Intl.DateTimeFormat | undefined
const dateTime = () => (dateTimeFormat ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }))
const dateOnly = () => (dateFormat ??= new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }))

/** "Mar 3, 2026, 2:05 PM" for an ISO timestamp or epoch ms; the input unchanged if it is neither. */
export function formatDateTime(value: string | number): string {
  const date = typeof value === 'number' ? new Date(value) : /^\d{10,}$/.test(value) ? new Date(Number(value)) : new Date(value)
  if (Number.isNaN(date.getTime())) return String(value)
  return dateTime().format(date)
}

/** A call duration in milliseconds as "m:ss" or "h:mm:ss"; "—" when missing or invalid. */
export function formatDuration(ms: string | number | null | undefined): string {
  const n = typeof ms === 'string' ? Number(ms) : ms
  if (n === null || n === undefined || !Number.isFinite(n) || n < 0 || (typeof ms === 'string' && ms.trim() === '')) return '—'
  const total = Math.round(n / 1000)
  const hours = Math.floor(total / 3600)
  const minutes = Math.floor((total % 3600) / 60)
  const seconds = total % 60
  const ss = String(seconds).padStart(2, '0')
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${ss}` : `${minutes}:${ss}`
}

/** A property value for display: dates formatted, empty values as "—". */
export function formatPropertyValue(_name: string, value: string | null | undefined, options?: Array<{ value: string; label: string }>): string {
  if (value === null || value === undefined || value === '') return '—'
  const option = options?.find((o) => o.value === value)
  if (option) return option.label
  if (ISO_DATE.test(value)) {
    const date = new Date(value)
    if (!Number.isNaN(date.getTime())) return value.length === 10 ? dateOnly().format(date) : dateTime().format(date)
  }
  return value
}

/** "COMPLETED" -> "Completed", "NO_ANSWER" -> "No answer". */
export function humanizeEnum(value: string): string {
  const lower = value.replace(/_/g, ' ').toLowerCase()
  return lower.charAt(0).toUpperCase() + lower.slice(1)
}

/** `1 error`, `2 errors`: a count with its noun (English, regular plurals). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}
