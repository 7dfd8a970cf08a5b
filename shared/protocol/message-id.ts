/**
 * Message ids.
 *
 * The npm package uses `<instanceId>_<Date.now()>` where instanceId is a 13-digit
 * timestamp, and treats any received id matching `^<its own instanceId>` as a reply
 * (swallowing it when no callback waits). Ids that start with a letter can never
 * match that check, and a per-factory random segment plus a counter makes them
 * unique even when many are created in the same millisecond.
 */

const ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789'

function randomSegment(length: number): string {
  let out = ''
  for (let i = 0; i < length; i++) out += ALPHABET[Math.floor(Math.random() * ALPHABET.length)]
  return out
}

/**
 * Returns a function producing `${prefix}${random}_${n}` ids (n = 1, 2, …).
 * Throws when the prefix is empty or starts with a digit.
 */
export function createMessageIdFactory(prefix: string, separator = ''): () => string {
  if (!/^[A-Za-z]/.test(prefix)) {
    throw new Error(`messageId prefix must start with a letter, got ${JSON.stringify(prefix)}`)
  }
  const base = `${prefix}${separator}${randomSegment(6)}_`
  let counter = 0
  return () => {
    counter += 1
    return base + counter
  }
}
