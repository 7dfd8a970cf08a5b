/**
 * Phone numbers: what "the same number" means, for the API's phone search
 * (EQ/IN on phone_number properties) and the host's caller-ID match alike,
 * and the country of a number (DIAL_NUMBER's countryCode). Parsing is
 * libphonenumber-js (Google's libphonenumber metadata): a number is read as
 * an international number when it starts with + (or 00, the international
 * call prefix of most countries), else as a national number of the account's
 * country; two numbers are the same when they name the same E.164 number.
 * So "+1 (617) 555-0101", "617.555.0101" and "1 617 555 0101" are one number,
 * and "+44 617 555 0101" is another.
 */
import { parsePhoneNumberFromString, type PhoneNumber } from 'libphonenumber-js'
import { ACCOUNT_COUNTRY } from './account.ts'

/** The digits of a number, nothing else. */
export function phoneDigits(value: string): string {
  return value.replace(/\D/g, '')
}

function parse(value: string): PhoneNumber | undefined {
  const international = value.trim().replace(/^00(?=[1-9])/, '+')
  try {
    return parsePhoneNumberFromString(international, { defaultCountry: ACCOUNT_COUNTRY })
  } catch {
    return undefined
  }
}

/** Keys already worked out, by the text they came from (a search compares the same stored numbers again and again). */
const KEYS = new Map<string, string>()
const KEYS_LIMIT = 50_000

/**
 * The form two numbers are compared in: E.164 (with the extension, if any),
 * or the bare digits of what libphonenumber cannot read as a number. '' for
 * a value with no digits, which matches nothing.
 */
export function phoneKey(value: string): string {
  const known = KEYS.get(value)
  if (known !== undefined) return known
  const parsed = parse(value)
  const key = !parsed ? phoneDigits(value) : parsed.ext ? `${parsed.number};ext=${parsed.ext}` : parsed.number
  if (KEYS.size >= KEYS_LIMIT) KEYS.clear()
  KEYS.set(value, key)
  return key
}

/**
 * A test for "is this the same number as `wanted`", made once for many
 * candidates. A candidate whose digits do not even contain the last four
 * digits of the wanted number is refused without being parsed.
 */
export function phoneMatcher(wanted: string): (candidate: string) => boolean {
  const key = phoneKey(wanted)
  if (key === '') return () => false
  const tail = phoneDigits(key.split(';')[0]!).slice(-4)
  return (candidate) => phoneDigits(candidate).includes(tail) && phoneKey(candidate) === key
}

/** Whether two written numbers name the same phone number. */
export function isSamePhoneNumber(a: string, b: string): boolean {
  return phoneMatcher(a)(b)
}

/**
 * The ISO country of a number: the one its digits name, else the first country
 * of its calling code (US for +1), else the account's country.
 */
export function phoneCountry(value: string): string {
  const parsed = parse(value)
  return parsed?.country ?? parsed?.getPossibleCountries()[0] ?? ACCOUNT_COUNTRY
}
