/**
 * A byte range out of an outbound answer to a Range request (RFC 9110 §14),
 * streamed: a server that honours Range answers 206 with a Content-Range;
 * one that ignores it answers 200 with the whole file, from which the range
 * is cut while it streams (the bytes before it read and dropped, the read
 * stopped after its last byte), never held whole.
 */
import { OutboundError, type StreamedAnswer } from './read.ts'

/** `bytes first-last/total` of a Content-Range header (total may be `*`). */
export function contentRangeOf(header: string | null): { first: number; last: number; total: number | undefined } | undefined {
  const match = /^bytes\s+(\d+)-(\d+)\/(\d+|\*)$/i.exec(header?.trim() ?? '')
  if (!match) return undefined
  return { first: Number(match[1]), last: Number(match[2]), total: match[3] === '*' ? undefined : Number(match[3]) }
}

export interface Cut {
  /** The bytes [start, last]: exactly last - start + 1 of them, or the stream errors. */
  body: ReadableStream<Uint8Array>
  last: number
}

/**
 * The bytes [start, end] (at most) of `answer`, the answer to a Range request
 * for them; `readable` is the most bytes the answer's body may be read for
 * (its budget). Throws an OutboundError (the answer cancelled) when the answer
 * cannot give them.
 */
export async function cutRange(answer: StreamedAnswer, start: number, end: number, readable: number, what: string): Promise<Cut> {
  const refuse = async (message: string): Promise<never> => {
    await answer.body.cancel().catch(() => {})
    throw new OutboundError(`${what} ${message}`)
  }
  if (answer.status === 206) {
    const range = contentRangeOf(answer.headers.get('content-range'))
    if (!range || range.first !== start || range.last < start) return refuse(`answered bytes ${answer.headers.get('content-range') ?? '(no Content-Range)'} to a request for ${start}-${end}.`)
    // A server may send less than was asked for (the client asks on for the rest).
    const last = Math.min(end, range.last)
    return { body: slice(answer.body, 0, last - start + 1, what), last }
  }
  if (answer.status === 200) {
    if (end + 1 > readable) return refuse(`ignores Range (it answered 200 with the whole file), and bytes ${start}-${end} lie past the ${readable} bytes Ringside reads of such an answer.`)
    return { body: slice(answer.body, start, end - start + 1, what), last: end }
  }
  return refuse(`answered HTTP ${answer.status}.`)
}

/** `length` bytes of `body` after its first `skip`; the read of `body` stops there. Errors if `body` ends first. */
export function slice(body: ReadableStream<Uint8Array>, skip: number, length: number, what: string): ReadableStream<Uint8Array> {
  const reader = body.getReader()
  let toSkip = skip
  let left = length
  return new ReadableStream<Uint8Array>(
    {
      async pull(out) {
        try {
          if (left === 0) {
            out.close()
            await reader.cancel().catch(() => {})
            return
          }
          for (;;) {
            const chunk = await reader.read()
            if (chunk.done) throw new OutboundError(`${what} ended ${left} bytes short of the range asked for.`)
            let bytes = chunk.value
            if (toSkip > 0) {
              const dropped = Math.min(toSkip, bytes.byteLength)
              toSkip -= dropped
              bytes = bytes.subarray(dropped)
            }
            if (bytes.byteLength === 0) continue
            const kept = bytes.byteLength > left ? bytes.subarray(0, left) : bytes
            left -= kept.byteLength
            out.enqueue(kept)
            if (left === 0) {
              out.close()
              await reader.cancel().catch(() => {})
            }
            return
          }
        } catch (error) {
          await reader.cancel().catch(() => {})
          out.error(error)
        }
      },
      async cancel(reason) {
        await reader.cancel(reason).catch(() => {})
      },
    },
    { highWaterMark: 0 },
  )
}

/** How many bytes `body` has (read within its budget and dropped, never kept). */
export async function countBytes(body: ReadableStream<Uint8Array>): Promise<number> {
  let bytes = 0
  for await (const chunk of body) bytes += chunk.byteLength
  return bytes
}
