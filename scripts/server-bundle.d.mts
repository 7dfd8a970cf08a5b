/** Bundles a server module (path relative to the repository root, default server/cli.ts) and returns the bundle's path. */
export function bundleServer(entry?: string): Promise<string>
