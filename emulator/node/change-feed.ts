/**
 * Server mode's change stream (GET /_ringside/v1/changes): the open streams
 * of every database this server holds, and the commits written to them.
 *
 * - Each database gets a feed on first use: an `epoch` for this run of the
 *   server and a `seq` counting its commits (format: emulator/core/data/change-stream.ts).
 * - A commit is serialized once, and the same bytes are written to every
 *   stream of its database: the cost per subscriber is one socket write.
 *   The writes happen just after the committing request is answered (its
 *   answer does not wait for them), and commits that land together (a group
 *   commit) go to each stream as one write.
 * - At most `maxStreams` streams are open at once; one more is refused with
 *   the API's error body (429) saying what the cap is.
 * - A stream whose client stopped reading (over `maxQueuedBytes` waiting to
 *   be sent) is closed rather than buffered without end; the browser
 *   reconnects and its `ready` tells the page to refetch.
 */
import type { Database } from '../core/data/db.ts'
import { changeFrame, readyFrame, type ChangePosition } from '../core/data/change-stream.ts'
import { ApiError, Category } from '../core/http/errors.ts'
import { SERVER_PATHS } from '../core/http/api-paths.ts'

/** Open streams at once, across every database (each browser profile holds one for all its tabs). */
export const MAX_CHANGE_STREAMS = 1000
/** Bytes a stream may have waiting to be sent before it is closed. */
export const MAX_QUEUED_BYTES = 1024 * 1024
/** A comment this often keeps idle streams open through proxies and lets a dead one be noticed. */
export const KEEP_ALIVE_MS = 15_000

/** What a stream is written to: the server's response to the stream's request, its head sent. */
export interface ChangeSink {
  write(chunk: Uint8Array): void
  /** Bytes written and not yet sent. */
  readonly queuedBytes: number
  /** End the stream cleanly. */
  end(): void
  /** Drop the connection. */
  destroy(): void
}

export interface ChangeStreamsOptions {
  maxStreams?: number
  maxQueuedBytes?: number
  keepAliveMs?: number
}

const encoder = new TextEncoder()
const KEEP_ALIVE = encoder.encode(': keep-alive\n\n')

class Feed {
  readonly epoch = crypto.randomUUID()
  seq = 0
  readonly sinks = new Set<ChangeSink>()
  /** Frames of commits not yet written to the streams, in commit order. */
  #pending: string[] = []

  constructor(
    readonly db: Database,
    private readonly streams: ChangeStreams,
  ) {
    db.onChange((commit) => {
      this.seq++
      if (this.sinks.size === 0) return
      const client = commit.client
      // Written after the committing request is answered; commits that land together go out as one write per stream.
      if (this.#pending.length === 0) setImmediate(() => this.flush())
      this.#pending.push(changeFrame(this.epoch, { tables: commit.tables, seq: this.seq, ...(client !== undefined && { client }) }))
    })
  }

  /** Write the pending frames to every stream: serialized once, the same bytes for each. */
  flush(): void {
    if (this.#pending.length === 0) return
    const bytes = encoder.encode(this.#pending.join(''))
    this.#pending = []
    for (const sink of this.sinks) this.streams.send(sink, bytes)
  }
}

export class ChangeStreams {
  readonly maxStreams: number
  readonly #maxQueuedBytes: number
  readonly #feeds = new WeakMap<Database, Feed>()
  /** Every open stream, with its feed. */
  readonly #open = new Map<ChangeSink, Feed>()
  #keepAlive: ReturnType<typeof setInterval> | undefined
  readonly #keepAliveMs: number

  constructor(options: ChangeStreamsOptions = {}) {
    this.maxStreams = options.maxStreams ?? MAX_CHANGE_STREAMS
    this.#maxQueuedBytes = options.maxQueuedBytes ?? MAX_QUEUED_BYTES
    this.#keepAliveMs = options.keepAliveMs ?? KEEP_ALIVE_MS
  }

  /** How many streams are open. */
  get size(): number {
    return this.#open.size
  }

  /** Where `db`'s stream stands now (GET /_ringside/v1/server tells pages). */
  position(db: Database): ChangePosition {
    const feed = this.#feed(db)
    return { epoch: feed.epoch, seq: feed.seq }
  }

  /** Refuse a stream over the cap: the error to answer with, or null when one more may open. */
  refusal(): ApiError | null {
    if (this.#open.size < this.maxStreams) return null
    return new ApiError(
      429,
      Category.RATE_LIMITS,
      `This Ringside server already serves ${this.maxStreams} change stream${this.maxStreams === 1 ? '' : 's'}, its cap. Each browser profile holds one for all its tabs, and each script or backend that follows ${SERVER_PATHS.changes} holds one: close some, or poll the API instead.`,
    )
  }

  /**
   * Start a stream of `db` on `sink`: the `ready` frame is
   * written at once, before any commit can reach it. Returns the function
   * that ends it (call it when the connection closes).
   */
  open(db: Database, sink: ChangeSink): () => void {
    const feed = this.#feed(db)
    // Commits still pending are older than this stream's `ready`: they go to the streams already open.
    feed.flush()
    sink.write(encoder.encode(readyFrame({ epoch: feed.epoch, seq: feed.seq }, db.tableNames)))
    feed.sinks.add(sink)
    this.#open.set(sink, feed)
    this.#keepAlive ??= setInterval(() => {
      for (const each of this.#open.keys()) this.send(each, KEEP_ALIVE)
    }, this.#keepAliveMs).unref()
    return () => this.#remove(sink)
  }

  /** Write `bytes` to `sink`, or close it when its client has stopped reading. */
  send(sink: ChangeSink, bytes: Uint8Array): void {
    if (sink.queuedBytes > this.#maxQueuedBytes) {
      this.#remove(sink)
      sink.destroy()
      return
    }
    sink.write(bytes)
  }

  /** End every stream (the server is stopping; browsers reconnect to the next one). */
  closeAll(): void {
    for (const sink of [...this.#open.keys()]) {
      this.#remove(sink)
      sink.end()
    }
  }

  #remove(sink: ChangeSink): void {
    this.#open.get(sink)?.sinks.delete(sink)
    this.#open.delete(sink)
    if (this.#open.size === 0 && this.#keepAlive !== undefined) {
      clearInterval(this.#keepAlive)
      this.#keepAlive = undefined
    }
  }

  #feed(db: Database): Feed {
    let feed = this.#feeds.get(db)
    if (!feed) {
      feed = new Feed(db, this)
      this.#feeds.set(db, feed)
    }
    return feed
  }
}
