// Layer rules (docs/design.md §2.2): dependencies point inward, SDKs stay at the edge.

/** A module matching `from` may not import one matching `to`; every rule fails the check. */
function forbid(name, comment, from, to) {
  return { name, comment, severity: 'error', from, to };
}

/** A folder of functions/ that imports, of the project, only the folders named (itself among them). */
function importsOnly(name, comment, folder, folders, packages = []) {
  const project = `^functions/(${folders.join('|')})/`;
  const allowed =
    packages.length === 0 ? project : `${project}|(^|/)node_modules/(${packages.join('|')})/`;
  return forbid(name, comment, { path: `^functions/${folder}/` }, { pathNot: allowed });
}

/** Modules matching `from` never import modules matching `to`. */
function never(name, comment, from, to) {
  return forbid(name, comment, { path: from }, { path: to });
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    importsOnly(
      'domain-is-pure',
      'functions/domain imports only itself: no node builtins, no packages, no other layer.',
      'domain',
      ['domain'],
    ),
    never(
      'domain-limits-below-scheduling',
      'The planner counts limits, so limits know nothing of planning.',
      '^functions/domain/limits/',
      '^functions/domain/scheduling/',
    ),
    never(
      'domain-resources-are-the-base',
      'Resource amounts are what limits and planning both count: they import neither.',
      '^functions/domain/resources\\.ts$',
      '^functions/domain/(limits|scheduling)/',
    ),
    importsOnly('ports-are-types', 'functions/ports may only import the domain.', 'ports', [
      'domain',
      'ports',
    ]),
    importsOnly(
      'contract-is-names',
      'functions/contract (the names the stack and the functions share) imports nothing: lib/ imports it, and must take no runtime code with it.',
      'contract',
      ['contract'],
    ),
    importsOnly(
      'manifests-inward',
      'functions/manifests (documents to domain objects) imports, of the project, the domain and the shared names only; of packages, its schema, YAML and JSON libraries.',
      'manifests',
      ['domain', 'manifests', 'contract'],
      ['zod', 'yaml', 'js-yaml', 'jsonc-parser'],
    ),
    never(
      'use-cases-no-adapters',
      'use-cases orchestrate through ports, never adapters or handlers.',
      '^functions/use-cases/',
      '^functions/(adapters|handlers)/',
    ),
    forbid(
      'sdk-only-at-the-edge',
      'AWS SDK, client-node, middy and Powertools appear only in adapters, handlers and the simulator (whose API server hands out kubeconfigs).',
      { pathNot: '^(functions/(adapters|handlers)|simulator)/' },
      {
        path: 'node_modules/(@aws-sdk|@smithy|@kubernetes/client-node|@middy|@aws-lambda-powertools)/',
      },
    ),
    forbid(
      'no-cross-handler',
      'a handler never imports another handler.',
      { path: '^functions/handlers/([^/]+)/' },
      { path: '^functions/handlers/', pathNot: '^functions/handlers/$1/' },
    ),
    forbid(
      'lib-no-runtime-code',
      'CDK code names function entry points as strings; it never imports them. It imports functions/contract alone, so that variable, key and limit names are written once for both sides.',
      { path: '^lib/' },
      { path: '^functions/', pathNot: '^functions/contract/' },
    ),
    never(
      'simulator-ships-nowhere',
      'simulator/ is the simulated world behind nodesmith simulate and the tests: nothing a Lambda bundle holds (functions/) or the stack deploys (lib/) imports it.',
      '^(functions|lib)/',
      '^simulator/',
    ),
    never(
      'simulator-inward',
      'simulator/ runs the real functions against a simulated cloud and cluster: it imports functions/ and packages, never the command line, the stack or the tests.',
      '^simulator/',
      '^(bin|lib|test|bench|scripts)/',
    ),
    { name: 'no-circular', severity: 'error', from: {}, to: { circular: true } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
