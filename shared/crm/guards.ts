/** A plain JSON object (not null, not an array): what a message payload or a request body must be. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}
