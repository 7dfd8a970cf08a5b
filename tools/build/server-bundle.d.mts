/** Bundles a server module (path relative to the repository root, default emulator/node/start-command.ts) and returns the bundle's path. */
export function bundleServer(entry?: string): Promise<string>
