/**
 * The SharedWorker that holds the emulated CRM of this origin in browser-only
 * mode. Every page that calls `createBrowserCrmService()` (harness tabs, the
 * OAuth consent page, fixture pages) connects to this one worker: its MSW
 * handler forwards each API request here and gets the answer back, and every
 * committed write is announced to every connected page.
 *
 * Messages: see wire.ts. The host opens (database lock, saved data) on the
 * first page's `hello`; requests that arrive earlier wait for it.
 */
import { openCrmHost, holdDatabaseLock, type CrmHost } from './host.ts'
import { fromWireRequest, toWireResponse, transferables, type FromHost, type ToHost } from './wire.ts'
import type { SeedOptions } from '../core/data/seed.ts'
import { ApiError, Category } from '../core/http/errors.ts'
import { json } from '../core/http/http.ts'

interface SharedWorkerScope {
  onconnect: ((event: MessageEvent) => void) | null
}

const ports = new Set<MessagePort>()
let host: Promise<CrmHost> | undefined
/** Set while the host waits for the database lock (told to every page that says hello meanwhile). */
let waiting: FromHost | undefined

function post(port: MessagePort, message: FromHost, transfer: Transferable[] = []): void {
  port.postMessage(message, transfer)
}

function broadcast(message: FromHost): void {
  for (const port of ports) post(port, message)
}

function open(seedOptions: SeedOptions | undefined): Promise<CrmHost> {
  host ??= (async () => {
    await holdDatabaseLock(true, () => {
      waiting = { type: 'waiting', message: 'Another copy of the emulated CRM (a Ringside tab of another build?) holds the database; waiting for it to close.' }
      broadcast(waiting)
    })
    waiting = undefined
    const opened = await openCrmHost(seedOptions)
    opened.onChange((tables) => broadcast({ type: 'change', tables }))
    return opened
  })()
  return host
}

function internalError(error: unknown): Response {
  const correlationId = crypto.randomUUID()
  const body = new ApiError(500, Category.INTERNAL_ERROR, `The emulated CRM could not start: ${error instanceof Error ? error.message : String(error)}`).toBody(correlationId)
  return json(body, 500, { 'x-hubspot-correlation-id': correlationId })
}

async function onMessage(port: MessagePort, message: ToHost): Promise<void> {
  switch (message.type) {
    case 'hello': {
      if (waiting) post(port, waiting)
      try {
        const opened = await open(message.seedOptions)
        post(port, { type: 'ready', restored: opened.restored, ...(opened.problem !== undefined && { problem: opened.problem }) })
      } catch (error) {
        post(port, { type: 'failed', message: error instanceof Error ? error.message : String(error) })
      }
      return
    }
    case 'request': {
      let answer: Response
      try {
        answer = await (await open(undefined)).handle(fromWireRequest(message.request))
      } catch (error) {
        // The service answers every request itself; this is the host failing to open.
        answer = internalError(error)
      }
      const response = await toWireResponse(answer)
      post(port, { type: 'response', id: message.id, response }, transferables(response))
      return
    }
    case 'bye':
      ports.delete(port)
      port.close()
      return
  }
}

;(self as unknown as SharedWorkerScope).onconnect = (event) => {
  const port = event.ports[0]
  if (!port) return
  ports.add(port)
  port.onmessage = (e: MessageEvent<ToHost>) => void onMessage(port, e.data)
  port.start()
}
