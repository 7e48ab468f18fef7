/**
 * The esbuild options every function's bundle is built with: the stack's NodejsFunction
 * (nodesmith-function.ts) and the cold-start benchmark (bench/handler-imports.ts) read them
 * here, so the bundles measured are the bundles deployed. Paths are relative to the project.
 */

/** CommonJS dependencies (node-fetch, form-data) `require` Node built-ins; ESM has no `require`. */
export const REQUIRE_SHIM =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** Packages replaced in the bundles; each replacement says why it is enough. */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  'whatwg-url': './functions/adapters/kubernetes/node-fetch-url.ts',
};

export const FUNCTION_BUNDLING = {
  format: 'esm',
  target: 'node22',
  minify: true,
  // Minified, with the names of functions and classes kept for stack traces.
  keepNames: true,
  banner: REQUIRE_SHIM,
  mainFields: ['module', 'main'],
  alias: BUNDLE_ALIASES,
} as const;
