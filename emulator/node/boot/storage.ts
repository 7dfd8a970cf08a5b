/**
 * The storage boot step of server mode: the options of the CRM service, and
 * the main CRM with its data location: taken (the lock), set aside for
 * --fresh, loaded or seeded, replaced by --import, and from then on every
 * commit journaled. A step that fails releases the lock it took.
 */
import { resolve } from 'node:path'
import { createCrmService, Outbound, type CrmService, type CrmServiceOptions } from '../../core/index.ts'
import { nodeTransport } from '../outbound-transport.ts'
import { START_PORT_ROLES } from '../bad-ports.ts'
import { DEFAULT_DATA } from '../start-options.ts'
import { REPO_ROOT } from '../package-info.ts'
import { StorageError } from '../storage/data-folder.ts'
import { DiskStorage } from '../storage/disk-storage.ts'
import type { LoadReport } from '../storage/load-data.ts'
import { importFile, ImportFileError } from '../storage/import-file.ts'
import type { Place, RingsideServerOptions } from './options.ts'

/** The options of the main CRM's service and of every sandbox's. */
export function crmServiceOptions(options: RingsideServerOptions, { port, widgetUrl }: Place): CrmServiceOptions {
  return {
    // The CRM's requests to calling apps' servers (recordings, channel connection): Node's http(s), each address
    // checked; one Outbound for the main CRM and every sandbox, so the cap on concurrent reads is the server's.
    outbound: new Outbound(nodeTransport({ ownPorts: START_PORT_ROLES.map((_role, i) => port + i) }), options.outboundRules),
    seedOptions: { widgetUrl, ...(options.widgetName && { widgetName: options.widgetName }), ...(options.redirectUrls && { redirectUrls: options.redirectUrls }) },
    ...(options.now && { now: options.now }),
  }
}

export interface OpenedData {
  service: CrmService
  storage: DiskStorage | null
  loaded: LoadReport | null
}

/** The main CRM and its storage (none for `data: null`); warnings and notes for the startup banner are added to the lists. */
export async function openData(options: RingsideServerOptions, serviceOptions: CrmServiceOptions, warnings: string[], notes: string[]): Promise<OpenedData> {
  // The main CRM: seeded only when there is nothing to load (or --fresh).
  const storage = options.data === null ? null : new DiskStorage(options.data ?? resolve(REPO_ROOT, DEFAULT_DATA), { compactEvery: options.compactEvery })
  let loaded: LoadReport | null = null
  let service: CrmService
  if (storage) {
    storage.lock()
    try {
      if (options.fresh) {
        const kept = storage.setAside()
        if (kept.length > 0) notes.push(`--fresh: the previous data was kept as ${kept.join(' and ')}.`)
      }
      const fromDisk = storage.hasData()
      service = createCrmService({ ...serviceOptions, seed: !fromDisk })
      if (fromDisk) loaded = storage.load(service.db)
      warnings.push(...(loaded?.warnings ?? []))
    } catch (error) {
      storage.releaseLockSync()
      throw error
    }
  } else {
    service = createCrmService(serviceOptions)
  }
  if (options.importFile) {
    try {
      await importFile(service.db, options.importFile)
    } catch (error) {
      storage?.releaseLockSync()
      throw error instanceof ImportFileError ? new StorageError(`--import ${options.importFile}: ${error.message}`) : error
    }
  }
  if (storage) {
    // From here every commit is journaled. A first run, an import or an older build's files start with a new snapshot.
    try {
      service.db.onCommit(await storage.start(service.db, { compact: loaded === null || options.importFile !== undefined }))
    } catch (error) {
      storage.releaseLockSync()
      throw error
    }
  }
  return { service, storage, loaded }
}
