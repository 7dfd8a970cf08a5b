/**
 * Record ids by a key (a property value, or what a search compares it by),
 * held as compactly as a map allows: a key that one record holds (nearly
 * all of them for a lookup property) maps to that id alone, and only a key
 * several records share gets an array. An id is added once per key; ids of
 * a key stay in the order they were added.
 */
export class IdBuckets<Key> {
  readonly #buckets = new Map<Key, string | string[]>()

  add(key: Key, id: string): void {
    const bucket = this.#buckets.get(key)
    if (bucket === undefined) this.#buckets.set(key, id)
    else if (typeof bucket === 'string') this.#buckets.set(key, [bucket, id])
    else bucket.push(id)
  }

  remove(key: Key, id: string): void {
    const bucket = this.#buckets.get(key)
    if (bucket === id) this.#buckets.delete(key)
    else if (Array.isArray(bucket)) {
      const at = bucket.lastIndexOf(id)
      if (at >= 0) bucket.splice(at, 1)
      if (bucket.length === 1) this.#buckets.set(key, bucket[0]!)
    }
  }

  clear(): void {
    this.#buckets.clear()
  }

  /** The first id added under `key` (and not removed), or undefined. */
  first(key: Key): string | undefined {
    const bucket = this.#buckets.get(key)
    return typeof bucket === 'string' ? bucket : bucket?.[0]
  }

  /** Add every id under `key` to `into`. */
  addTo(key: Key, into: Set<string>): void {
    const bucket = this.#buckets.get(key)
    if (bucket === undefined) return
    if (typeof bucket === 'string') into.add(bucket)
    else for (const id of bucket) into.add(id)
  }
}
