/**
 * How every function's code is built, for the stack (nodesmith-function.ts) and the cold-start
 * benchmark (bench/handler-imports.ts) alike, so the bundles measured are the bundles deployed:
 * esbuild from the handler folder's composition root, ESM for Node.js 22, minified with the
 * names of functions and classes kept for stack traces, the SDK inside.
 *
 * The bundle is split (docs/design.md §7.1): `index.mjs` holds what the function needs as it
 * starts, and each module it loads with `import()` on first use (the Kubernetes client, the EC2
 * side of the controller, the dry run) lands in a file of its own beside it, with the code those
 * share in further files. Lambda's init then reads and compiles `index.mjs` alone; in one file,
 * V8 would parse the deferred code at init as well.
 */
import { type BuildOptions, buildSync, type Metafile } from 'esbuild';

/** CommonJS dependencies (node-fetch, form-data) `require` Node built-ins; ESM has no `require`. */
export const REQUIRE_SHIM =
  "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);";

/** Packages replaced in the bundles; each replacement says why it is enough. */
export const BUNDLE_ALIASES: Readonly<Record<string, string>> = {
  'whatwg-url': './functions/adapters/kubernetes/node-fetch-url.ts',
};

/** The handler folders under functions/handlers. */
export type HandlerFolder = 'audit-relay' | 'controller' | 'interruption' | 'api';

/** The module Lambda loads, `index.mjs`: the handler is `index.<export>`. */
export const FUNCTION_ENTRY = 'index';

/** esbuild's options for one folder's bundle, written into `outdir`; `projectRoot` holds the code. */
export function functionBuildOptions(
  folder: HandlerFolder,
  outdir: string,
  projectRoot: string,
): BuildOptions {
  return {
    absWorkingDir: projectRoot,
    entryPoints: { [FUNCTION_ENTRY]: `./functions/handlers/${folder}/index.ts` },
    outdir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    splitting: true,
    platform: 'node',
    target: 'node22',
    format: 'esm',
    minify: true,
    keepNames: true,
    mainFields: ['module', 'main'],
    banner: { js: REQUIRE_SHIM },
    alias: { ...BUNDLE_ALIASES },
    metafile: true,
    logLevel: 'warning',
  };
}

/** Builds one folder's bundle into `outdir` and says what went into it. */
export function bundleFunction(
  folder: HandlerFolder,
  outdir: string,
  projectRoot: string,
): Metafile {
  const { metafile } = buildSync(functionBuildOptions(folder, outdir, projectRoot));
  if (metafile === undefined) throw new Error(`bundling ${folder}: esbuild wrote no metafile`);
  return metafile;
}
