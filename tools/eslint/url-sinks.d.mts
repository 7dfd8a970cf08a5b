// Types of url-sinks.mjs for its TypeScript test (the config loads the .mjs as it is).
import type { ESLint, Rule } from 'eslint'

export declare const urlSinkRule: Rule.RuleModule
declare const plugin: ESLint.Plugin
export default plugin
