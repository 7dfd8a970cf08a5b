/**
 * JSON text of any value (the traffic file, the inspector's composer editor):
 * cycles become "[circular]", undefined stays absent, bigint becomes a
 * string. Never throws.
 */
export function safeJson(value: unknown, space = 2): string {
  const stack: object[] = []
  const replacer = function (this: unknown, _key: string, val: unknown): unknown {
    if (typeof val === 'bigint') return `${val}n`
    if (typeof val !== 'object' || val === null) return val
    // `this` is the holder; trim the stack down to it to track the current path.
    while (stack.length > 0 && stack[stack.length - 1] !== this) stack.pop()
    if (stack.includes(val)) return '[circular]'
    stack.push(val)
    return val
  }
  try {
    return JSON.stringify(value, replacer, space) ?? 'null'
  } catch (error) {
    return JSON.stringify({ error: `could not serialize: ${error instanceof Error ? error.message : String(error)}` })
  }
}
