/**
 * The flags Lambda's Node.js runtime starts `node` with (the bootstrap of AWS Lambda's Node.js
 * base images, /var/runtime/bootstrap): a tenth of the function's memory for V8's young
 * generation, half of it per semi-space, and the rest for the old generation; `gc` exposed; HTTP
 * headers up to 80 KiB. The young generation matters to the twin beyond fidelity: with Node's
 * default semi-space of 16 MiB, the controller (2 GiB) spent 0.9 s collecting garbage in a
 * deployed burst of 300 pods, with Lambda's 102 MiB 0.5–0.8 s, on cores the other containers
 * share.
 */
export function lambdaNodeArguments(memorySize: number): string[] {
  const newSpace = Math.floor(memorySize / 10);
  return [
    '--expose-gc',
    '--max-http-header-size=81920',
    `--max-semi-space-size=${Math.floor(newSpace / 2)}`,
    `--max-old-space-size=${memorySize - newSpace}`,
  ];
}
