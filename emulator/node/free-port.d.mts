export declare function portFree(port: number, host?: string): Promise<boolean>
export declare function freeBlockFrom(from: number, count: number, options?: { host?: string; tries?: number; allowed?: (port: number) => boolean }): Promise<number | null>
