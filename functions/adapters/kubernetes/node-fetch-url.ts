/**
 * What the function bundles give node-fetch 2 (client-node's HTTP client) in place of the
 * whatwg-url package: node-fetch takes `URL` from `node:url` and reads whatwg-url's only where
 * Node.js has none, so in Lambda that package, with the 250 KiB Unicode table of tr46 that it
 * loads, is dead weight (node-fetch lib/index.mjs: `const URL = Url.URL || whatwgUrl.URL`).
 * The stack's bundling aliases the package to this module (lib/function-bundling.ts).
 */
export default { URL };
