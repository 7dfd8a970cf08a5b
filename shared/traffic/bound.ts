/**
 * How much of a message the traffic log keeps: the one rule for its bytes.
 *
 * A widget is untrusted and postMessage carries anything the structured clone algorithm can copy
 * (https://html.spec.whatwg.org/multipage/structured-data.html): a 16 MB string, a deep or cyclic
 * object, a sparse array a billion long, typed arrays, Blobs, Maps. The host judges and acts on the
 * message as received; what the log KEEPS is bounded here:
 * - each message (and each API body) keeps at most `entryChars` of JSON text: a bigger one is kept as
 *   its first part (a pruned copy in document order, a cut string ending in "…") with its size;
 * - values JSON cannot hold as data (buffers, typed arrays, Blobs, Maps, Sets, …) are kept as a short
 *   description, and an object met twice (a cycle, or shared) as "[repeated]", so what is kept is a
 *   plain tree whose JSON is about its measured size;
 * - the whole live log keeps at most `totalChars`; the oldest entries go first (the harness's store).
 *
 * The size is measured without serializing: a walk that counts each value's JSON length (a string by
 * its length, escapes not counted) and stops after `maxNodes` values (the size is then a lower bound),
 * so neither a 16 MB string (its length is read, not copied), a deep object (no recursion) nor a huge
 * array (the walk ends at its budget) can freeze the page. A message that fits is kept as it is, by
 * reference; only one that does not is walked a second time, to copy its first part.
 *
 * Pure: no DOM; runs in the browser and in Node.
 */

export const TRAFFIC_BOUNDS = {
  /** JSON characters kept of one message or API body (64 KB). */
  entryChars: 64 * 1024,
  /** JSON characters the live log keeps in all (16 MB); past it the oldest entries are dropped. */
  totalChars: 16 * 1024 * 1024,
  /** Values one measurement visits; past it the size is a lower bound. */
  maxNodes: 200_000,
  /** Nesting kept; deeper values are measured but not kept. */
  maxDepth: 64,
} as const

/** Set on a traffic message the log kept only in part. */
export interface Truncation {
  /** The whole message's size: characters of its JSON text (strings counted by length). */
  chars: number
  /** Characters of what was kept. */
  keptChars: number
  /** The walk stopped at its budget: `chars` is a lower bound. */
  atLeast?: boolean
}

export interface Bounded {
  /** The value itself when it fits, else a pruned plain copy of its first part. */
  value: unknown
  /** Its size (characters of JSON text), as far as measured. */
  chars: number
  /** Present when `value` is not the value as received. */
  truncation?: Truncation
}

type Container = Record<string, unknown> | unknown[]

interface Frame {
  source: object
  /** Own enumerable keys of an object; null for an array (indexes). */
  keys: readonly string[] | null
  length: number
  index: number
  /** The kept copy, or null when this container is only measured. */
  copy: Container | null
  depth: number
}

/** What JSON (or a description) of a value that is not a plain object or array would cost; null for those. */
function exotic(value: object): { text: string; chars: number; keepAsIs: boolean } | null {
  if (Array.isArray(value)) return null
  const proto: unknown = Object.getPrototypeOf(value)
  if (proto === Object.prototype || proto === null) return null
  const tag = Object.prototype.toString.call(value).slice(8, -1)
  if (value instanceof Date) {
    const time = value.getTime()
    const text = Number.isNaN(time) ? 'Invalid Date' : value.toISOString()
    return { text, chars: text.length + 2, keepAsIs: true }
  }
  if (value instanceof ArrayBuffer || ArrayBuffer.isView(value)) {
    const bytes = value.byteLength
    return { text: `[${tag} ${bytes} bytes]`, chars: bytes, keepAsIs: false }
  }
  if (typeof Blob !== 'undefined' && value instanceof Blob) return { text: `[${tag} ${value.size} bytes]`, chars: value.size, keepAsIs: false }
  if (value instanceof Map || value instanceof Set) {
    const text = `[${tag} ${value.size} entries]`
    return { text, chars: text.length + 2, keepAsIs: false }
  }
  const text = `[${tag}]`
  return { text, chars: text.length + 2, keepAsIs: false }
}

/** JSON characters of a primitive; undefined for what JSON leaves out of an object (undefined, functions, symbols). */
function primitiveChars(value: unknown): number | undefined {
  switch (typeof value) {
    case 'string':
      return value.length + 2
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4
    case 'boolean':
      return value ? 4 : 5
    case 'bigint':
      return String(value).length + 3
    case 'object':
      return 4 // null
    default:
      return undefined
  }
}

function setChild(parent: Container, key: string | number, value: unknown): void {
  if (Array.isArray(parent)) parent.push(value)
  // defineProperty: a key named "__proto__" stays an own property and never reaches Object.prototype.
  else Object.defineProperty(parent, key, { value, enumerable: true, writable: true, configurable: true })
}

interface Walk {
  chars: number
  /** The walk ended early: at its node budget, or (measuring only) as soon as it knew the value does not fit. */
  stopped: boolean
  fits: boolean
  copy: unknown
  keptChars: number
}

/**
 * Walks `root` in JSON order, without recursion. Measuring only (`copying` false) it stops as soon as the
 * value cannot be kept as is; copying, it measures everything within the node budget and copies the first
 * `maxChars`.
 */
function walk(root: unknown, maxChars: number, copying: boolean): Walk {
  const { maxNodes, maxDepth } = TRAFFIC_BOUNDS
  let chars = 0
  let nodes = 0
  let room = maxChars
  let keptChars = 0
  let fits = true
  let copy: unknown = undefined
  const seen = new Set<object>()
  const stack: Frame[] = []

  /** Visits one value (`keyChars`: what its key and separator cost); `parent` is the kept container, if any. */
  const visit = (value: unknown, keyChars: number, depth: number, parent: Container | null, key: string | number): void => {
    nodes += 1
    const keep = (kept: unknown, cost: number): void => {
      if (parent !== null) setChild(parent, key, kept)
      else copy = kept
      room -= cost
      keptChars += cost
    }
    const canKeep = copying && (parent !== null || depth === 0) && room > 0
    if (typeof value !== 'object' || value === null) {
      const cost = primitiveChars(value)
      if (cost === undefined) return
      chars += keyChars + cost
      if (!canKeep) return
      if (keyChars + cost <= room) keep(value, keyChars + cost)
      else if (typeof value === 'string' && room > keyChars + 3) keep(keptText(value, room - keyChars - 2), room)
      else room = 0
      return
    }
    if (seen.has(value)) {
      fits = false
      chars += keyChars + 12
      if (canKeep && keyChars + 12 <= room) keep('[repeated]', keyChars + 12)
      else if (canKeep) room = 0
      return
    }
    seen.add(value)
    const other = exotic(value)
    if (other !== null) {
      if (!other.keepAsIs) fits = false
      chars += keyChars + other.chars
      const cost = keyChars + other.text.length + 2
      if (canKeep && cost <= room) keep(other.text, cost)
      else if (canKeep) room = 0
      return
    }
    chars += keyChars + 2
    if (depth >= maxDepth) {
      fits = false
      if (canKeep) room = 0
      return
    }
    const isArray = Array.isArray(value)
    const keys = isArray ? null : Object.keys(value)
    let kept: Container | null = null
    if (canKeep && keyChars + 2 <= room) {
      kept = isArray ? [] : {}
      keep(kept, keyChars + 2)
    } else if (canKeep) room = 0
    stack.push({ source: value, keys, length: keys === null ? (value as unknown[]).length : keys.length, index: 0, copy: kept, depth })
  }

  visit(root, 0, 0, null, '')
  while (stack.length > 0) {
    if (!copying && (!fits || chars > maxChars)) return { chars, stopped: true, fits: false, copy: undefined, keptChars: 0 }
    if (nodes >= maxNodes) return { chars, stopped: true, fits: false, copy, keptChars }
    const frame = stack[stack.length - 1]!
    if (frame.index >= frame.length) {
      stack.pop()
      continue
    }
    const at = frame.index
    frame.index += 1
    const comma = at === 0 ? 0 : 1
    if (frame.keys === null) {
      const child = (frame.source as unknown[])[at]
      // JSON writes a hole, undefined, a function or a symbol in an array as null.
      visit(primitiveChars(child) === undefined ? null : child, comma, frame.depth + 1, frame.copy, at)
    } else {
      const key = frame.keys[at]!
      visit((frame.source as Record<string, unknown>)[key], comma + key.length + 3, frame.depth + 1, frame.copy, key)
    }
  }
  const fitsAsIs = fits && chars <= maxChars
  return { chars, stopped: false, fits: fitsAsIs, copy, keptChars }
}

/**
 * The value as the traffic log keeps it: itself when its JSON fits `maxChars` and it is a plain tree,
 * else a pruned copy of its first `maxChars` with its size. Never throws.
 */
export function boundValue(value: unknown, maxChars: number = TRAFFIC_BOUNDS.entryChars): Bounded {
  try {
    const measured = walk(value, maxChars, false)
    if (measured.fits) return { value, chars: measured.chars }
    const copied = walk(value, maxChars, true)
    const truncation: Truncation = { chars: copied.chars, keptChars: copied.keptChars }
    if (copied.stopped) truncation.atLeast = true
    return { value: copied.copy, chars: copied.chars, truncation }
  } catch {
    // Structured-cloned data has no getters; this is for a host-made value that throws when read.
    return { value: '[unreadable]', chars: 0, truncation: { chars: 0, keptChars: 14 } }
  }
}

/**
 * A text the log keeps: at most `max` characters (a cut one ends in "…"), and a copy: V8 keeps the whole
 * string a slice was cut from alive, so a bare `slice` of a 16 MB string would hold all of it.
 */
export function keptText(text: string, max: number): string {
  if (text.length <= max) return text
  return JSON.parse(JSON.stringify(`${text.slice(0, Math.max(0, max - 1))}…`)) as string
}

/** A size for people: "812 B", "64 KB", "16.0 MB" (1 KB = 1024). */
export function formatChars(chars: number): string {
  if (chars < 1024) return `${chars} B`
  if (chars < 1024 * 1024) return `${Math.round(chars / 1024)} KB`
  return `${(chars / (1024 * 1024)).toFixed(1)} MB`
}

/** What the inspector, the ladder and the export say of a truncated message: "truncated: 16.0 MB message, first 64 KB kept". */
export function truncationNote(truncation: Truncation, what = 'message'): string {
  return `truncated: ${truncation.atLeast === true ? 'at least ' : ''}${formatChars(truncation.chars)} ${what}, first ${formatChars(truncation.keptChars)} kept`
}

/**
 * The log's total: how many of the oldest entries of two time-ordered lists (messages and API requests)
 * to drop, the oldest of either list first, so that what stays keeps within `budget` characters. `total`
 * is the size of both lists (the log keeps it as it goes, so a flood costs no sum per message).
 */
export function overBudget(
  first: readonly { time: number }[],
  second: readonly { time: number }[],
  sizeOf: (entry: object) => number,
  total: number,
  budget: number = TRAFFIC_BOUNDS.totalChars,
): { first: number; second: number; total: number } {
  let a = 0
  let b = 0
  while (total > budget && (a < first.length || b < second.length)) {
    const fromFirst = b >= second.length || (a < first.length && first[a]!.time <= second[b]!.time)
    total -= fromFirst ? sizeOf(first[a++]!) : sizeOf(second[b++]!)
  }
  return { first: a, second: b, total }
}
