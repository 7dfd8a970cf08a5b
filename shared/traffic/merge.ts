/**
 * One traffic file of several frames' files. With `usesCallingWindow` the CRM loads the widget in the calling
 * window and in the remote beside it, and each frame's host records its own traffic (its messages carry their
 * `frame`). Merged, the messages are in time order (a stable sort: a file's own order is kept for equal times)
 * and numbered anew, and every seq that pointed at one (reply links, the requests' causes, the findings) follows
 * its message; the requests are numbered anew in time order too.
 */
import type { TrafficFile, TrafficFinding, TrafficMessage, TrafficRequest } from './traffic-file.ts'

export function mergeTrafficFiles(files: readonly TrafficFile[]): TrafficFile {
  if (files.length === 1) return files[0]!
  const tagged = files.flatMap((file, fileIndex) => file.messages.map((message) => ({ message, fileIndex })))
  tagged.sort((a, b) => a.message.time - b.message.time)
  /** Per file: its seq → the merged seq. */
  const seqMaps = files.map(() => new Map<number, number>())
  tagged.forEach(({ message, fileIndex }, index) => seqMaps[fileIndex]!.set(message.seq, index + 1))
  const remap = (fileIndex: number, seq: number | undefined) => (seq === undefined ? undefined : seqMaps[fileIndex]!.get(seq))

  const messages: TrafficMessage[] = tagged.map(({ message, fileIndex }, index) => {
    const merged: TrafficMessage = { ...message, seq: index + 1 }
    if (message.linkedTo !== undefined) merged.linkedTo = message.linkedTo.map((seq) => remap(fileIndex, seq)).filter((seq) => seq !== undefined)
    return merged
  })
  const requests: TrafficRequest[] = files
    .flatMap((file, fileIndex) => file.requests.map((request) => ({ request, fileIndex })))
    .sort((a, b) => a.request.time - b.request.time)
    .map(({ request, fileIndex }, index) => {
      const merged: TrafficRequest = { ...request, id: index + 1 }
      const cause = remap(fileIndex, request.causeSeq)
      const after = remap(fileIndex, request.afterSeq)
      delete merged.causeSeq
      delete merged.afterSeq
      if (cause !== undefined) merged.causeSeq = cause
      if (after !== undefined) merged.afterSeq = after
      return merged
    })
  const judged = files.some((file) => file.findings !== undefined)
  const findings: TrafficFinding[] = files.flatMap((file, fileIndex) => (file.findings ?? []).map((finding) => ({ ...finding, seq: finding.seq === null ? null : (remap(fileIndex, finding.seq) ?? null) })))
  const first = files[0]!
  return {
    format: first.format,
    version: first.version,
    exportedAt: first.exportedAt,
    ...(first.source !== undefined && { source: first.source }),
    widgetUrl: files.find((file) => file.widgetUrl)?.widgetUrl ?? null,
    messages,
    requests,
    ...(judged && { findings }),
  }
}
