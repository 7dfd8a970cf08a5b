/**
 * The last boot step of server mode: the running server `startRingside`
 * returns, and how it stops: the change streams closed, then the ports, then
 * Vite, then the storage (what is queued written, and the data lock released).
 * Closing twice waits for the same close.
 */
import { resolve } from 'node:path'
import type { ViteDevServer } from 'vite'
import type { CrmService } from '../../core/index.ts'
import type { ChangeStreams } from '../change-feed.ts'
import type { Listeners } from '../listeners.ts'
import type { DiskStorage } from '../storage/disk-storage.ts'
import type { LoadReport } from '../storage/load-data.ts'
import { writeFileAtomic } from '../storage/atomic-write.ts'
import type { Place } from './options.ts'

export interface RingsideServer {
  readonly url: string
  readonly widgetOrigin: string
  readonly widgetUrl: string
  readonly port: number
  readonly service: CrmService
  readonly storage: DiskStorage | null
  readonly loaded: LoadReport | null
  /** Warnings to show at startup (a dropped torn line, a non-loopback host). */
  readonly warnings: string[]
  /** Other things worth saying at startup (where --fresh put the previous data). */
  readonly notes: string[]
  readonly corsOrigins: readonly string[]
  /** Write the main database as an export file (--export-on-exit). */
  exportTo(file: string): void
  close(): Promise<void>
}

export interface RunningContext {
  place: Place
  service: CrmService
  storage: DiskStorage | null
  loaded: LoadReport | null
  warnings: string[]
  notes: string[]
  corsOrigins: readonly string[]
  changeStreams: ChangeStreams
  listeners: Listeners
  vite: ViteDevServer | null
}

/** The server as its caller holds it, serving (the listeners are ready). */
export function runningServer({ place, service, storage, loaded, warnings, notes, corsOrigins, changeStreams, listeners, vite }: RunningContext): RingsideServer {
  const { origin, widgetOrigin, widgetUrl, port } = place
  const closeAll = async () => {
    changeStreams.closeAll()
    await listeners.close()
    await vite?.close()
    await storage?.close()
  }
  let closing: Promise<void> | null = null
  return {
    url: `${origin}/`,
    widgetOrigin,
    widgetUrl,
    port,
    service,
    storage,
    loaded,
    warnings,
    notes,
    corsOrigins,
    exportTo(file) {
      writeFileAtomic(resolve(file), `${JSON.stringify(service.db.snapshot(), null, 2)}\n`)
    },
    close() {
      closing ??= closeAll()
      return closing
    },
  }
}

