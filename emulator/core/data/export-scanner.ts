/**
 * An export (`GET /_ringside/v1/export`: one JSON document) read as it
 * streams, a piece of text at a time, so that an import never holds the
 * whole text nor a parsed copy of it:
 *
 *   {"format":"ringside-crm-db","version":1,"exportedAt":"…","tables":{"crm_contacts":[["1",{…}],…],…}}
 *
 * The scanner walks the three outer levels (the document, `tables`, each
 * table's array) itself, and hands every value below them (a top-level
 * field, one [id, row] pair) to JSON.parse as its own text: the longest text
 * it ever holds is one row's. Whitespace anywhere is allowed, so a
 * pretty-printed export (the harness's download, `--export-on-exit`) reads
 * the same as a compact one.
 */
import { MAX_JSON_DEPTH } from '../http/http.ts'

/** What the scanner found, in document order. */
export interface ExportEvents {
  /** A top-level field other than `tables`, parsed. */
  field(name: string, value: unknown): void
  /** `tables` begins: the fields before it have been given. */
  tablesBegin(): void
  /** A table's value begins: an array (its rows follow), or another value (a corrupt export). */
  table(name: string, isArray: boolean): void
  /** One item of the current table's array, parsed. */
  row(value: unknown): void
}

/** Raised for text that is not JSON of the export's outline; `at` is the character offset in the text. */
export class ExportSyntaxError extends SyntaxError {
  override name = 'ExportSyntaxError'
}

/** Raised when one value's text passes the scanner's limit. */
export class ValueTooLargeError extends RangeError {
  override name = 'ValueTooLargeError'
}

type Expect = 'value' | 'key-or-close' | 'key' | 'colon' | 'comma-or-close' | 'item-or-close' | 'done'

const QUOTE = 0x22
const BACKSLASH = 0x5c
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09

/**
 * `write` each piece of text in order, then `end`. Events are given as soon
 * as the text that makes them has arrived.
 */
export class ExportScanner {
  /** The outer level we are in: 0 the document, 1 its object, 2 `tables`, 3 a table's array. */
  #level = 0
  #expect: Expect = 'value'
  /** The text of the key or value being read, over several pieces. */
  #pieces: string[] = []
  #length = 0
  /** What is being read: nothing, a key (a string), or a value (string, container or literal). */
  #reading: 'none' | 'key' | 'string' | 'container' | 'literal' = 'none'
  #inString = false
  #escaped = false
  #depth = 0
  #key = ''
  #offset = 0

  constructor(
    readonly events: ExportEvents,
    /** The longest text of one value (a row), in UTF-16 code units. */
    readonly maxValueChars: number,
    /** The deepest nesting of one value. */
    readonly maxDepth = MAX_JSON_DEPTH + 2,
  ) {}

  write(text: string): void {
    let start = 0
    /** Where the next backslash of `text` is, from `i` on (none: text.length). */
    let backslash = -1
    for (let i = 0; i < text.length; i++) {
      if (this.#inString && !this.#escaped) {
        // Most of an export is string text: jump to the next quote or backslash.
        if (backslash < i) {
          backslash = text.indexOf('\\', i)
          if (backslash < 0) backslash = text.length
        }
        const quote = text.indexOf('"', i)
        const stop = Math.min(quote < 0 ? text.length : quote, backslash)
        if (stop >= text.length) break
        i = stop
      }
      const c = text.charCodeAt(i)
      if (this.#reading !== 'none') {
        if (!this.#inValue(c)) continue
        if (this.#reading === 'literal') {
          // The literal ended at the character before this one, which is read again below.
          this.#finish(text.slice(start, i))
          i--
        } else this.#finish(text.slice(start, i + 1))
        continue
      }
      if (isSpace(c) || (c === 0xfeff && this.#offset + i === 0)) continue
      start = i
      this.#token(c, this.#offset + i)
    }
    if (this.#reading !== 'none') this.#keep(text.slice(start))
    this.#offset += text.length
  }

  end(): void {
    if (this.#reading === 'literal') this.#finish('')
    if (this.#reading !== 'none' || this.#expect !== 'done') throw new ExportSyntaxError('Unexpected end of JSON input: the export is cut short.')
  }

  /** Whether `c` ends the value being read (for a literal: `c` is past its end). */
  #inValue(c: number): boolean {
    if (this.#inString) {
      if (this.#escaped) this.#escaped = false
      else if (c === BACKSLASH) this.#escaped = true
      else if (c === QUOTE) {
        this.#inString = false
        return this.#reading !== 'container'
      }
      return false
    }
    if (this.#reading === 'literal') return c === 0x2c || c === 0x5d || c === 0x7d || isSpace(c)
    if (c === QUOTE) this.#inString = true
    else if (c === 0x5b || c === 0x7b) {
      if (++this.#depth > this.maxDepth) throw new ExportSyntaxError(`A value of the export is nested more than ${this.maxDepth} levels deep.`)
    } else if (c === 0x5d || c === 0x7d) return --this.#depth === 0
    return false
  }

  #keep(text: string): void {
    this.#length += text.length
    if (this.#length > this.maxValueChars) throw new ValueTooLargeError(`One value of the export (a row) is longer than ${this.maxValueChars} characters.`)
    this.#pieces.push(text)
  }

  #finish(last: string): void {
    this.#keep(last)
    const text = this.#pieces.length === 1 ? (this.#pieces[0] as string) : this.#pieces.join('')
    const reading = this.#reading
    this.#pieces = []
    this.#length = 0
    this.#reading = 'none'
    let value: unknown
    try {
      value = JSON.parse(text)
    } catch (error) {
      throw new ExportSyntaxError(`${error instanceof Error ? error.message : 'cannot parse'} (in a value ending at character ${this.#offset})`)
    }
    if (reading === 'key') {
      this.#key = value as string
      this.#expect = 'colon'
      return
    }
    this.#expect = 'comma-or-close'
    if (this.#level === 1) this.events.field(this.#key, value)
    else if (this.#level === 2) this.events.table(this.#key, false)
    else this.events.row(value)
  }

  /** A character outside any value: the outline's own punctuation, or the start of a key or value. */
  #token(c: number, at: number): void {
    const unexpected = () => new ExportSyntaxError(`Unexpected ${JSON.stringify(String.fromCharCode(c))} at character ${at} of the export.`)
    switch (this.#expect) {
      case 'key-or-close':
      case 'key':
        if (c === 0x7d && this.#expect === 'key-or-close') return this.#close()
        if (c !== QUOTE) throw unexpected()
        this.#begin('key')
        return
      case 'colon':
        if (c !== 0x3a) throw unexpected()
        this.#expect = 'value'
        return
      case 'comma-or-close':
        if (c === 0x2c) this.#expect = this.#level === 3 ? 'value' : 'key'
        else if (c === (this.#level === 3 ? 0x5d : 0x7d)) this.#close()
        else throw unexpected()
        return
      case 'item-or-close':
        if (c === 0x5d) return this.#close()
        this.#value(c)
        return
      case 'value':
        this.#value(c)
        return
      case 'done':
        throw unexpected()
    }
  }

  /** The start of a value at the current level. */
  #value(c: number): void {
    if (c === 0x7d || c === 0x5d || c === 0x2c || c === 0x3a) throw new ExportSyntaxError(`Unexpected ${JSON.stringify(String.fromCharCode(c))} where a value was expected in the export.`)
    if (this.#level === 0) {
      if (c !== 0x7b) throw new ExportSyntaxError(`Unexpected ${JSON.stringify(String.fromCharCode(c))} at the start: an export is a JSON object.`)
      return this.#open()
    }
    if (this.#level === 1 && this.#key === 'tables' && c === 0x7b) {
      this.events.tablesBegin()
      return this.#open()
    }
    if (this.#level === 2 && c === 0x5b) {
      this.events.table(this.#key, true)
      this.#level = 3
      this.#expect = 'item-or-close'
      return
    }
    if (c === QUOTE) this.#begin('string')
    else if (c === 0x7b || c === 0x5b) {
      this.#begin('container')
      this.#depth = 1
    } else this.#begin('literal')
  }

  #begin(reading: 'key' | 'string' | 'container' | 'literal'): void {
    this.#reading = reading
    this.#inString = reading === 'key' || reading === 'string'
    this.#escaped = false
  }

  #open(): void {
    this.#level++
    this.#expect = 'key-or-close'
  }

  #close(): void {
    this.#level--
    this.#expect = this.#level === 0 ? 'done' : 'comma-or-close'
  }
}
