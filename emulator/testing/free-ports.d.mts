export declare const FIRST_PORT: number
export declare const LAST_PORT: number
export declare function portFree(port: number, host?: string): Promise<boolean>
export declare function freePortBlock(count?: number, host?: string): Promise<number>
export declare function freePortPair(host?: string): Promise<number>
