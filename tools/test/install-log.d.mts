export declare function installWarnings(log: string): string[]
