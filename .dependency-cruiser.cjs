// Layer rules (docs/design.md §2.2): dependencies point inward, SDKs stay at the edge.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment:
        'functions/domain imports only itself: no node builtins, no packages, no other layer.',
      severity: 'error',
      from: { path: '^functions/domain/' },
      to: { pathNot: '^functions/domain/' },
    },
    {
      name: 'domain-limits-below-scheduling',
      comment: 'The planner counts limits, so limits know nothing of planning.',
      severity: 'error',
      from: { path: '^functions/domain/limits/' },
      to: { path: '^functions/domain/scheduling/' },
    },
    {
      name: 'domain-resources-are-the-base',
      comment: 'Resource amounts are what limits and planning both count: they import neither.',
      severity: 'error',
      from: { path: '^functions/domain/resources\\.ts$' },
      to: { path: '^functions/domain/(limits|scheduling)/' },
    },
    {
      name: 'ports-are-types',
      comment: 'functions/ports may only import the domain.',
      severity: 'error',
      from: { path: '^functions/ports/' },
      to: { pathNot: '^functions/(domain|ports)/' },
    },
    {
      name: 'contract-is-names',
      comment:
        'functions/contract (the names the stack and the functions share) imports nothing: lib/ imports it, and must take no runtime code with it.',
      severity: 'error',
      from: { path: '^functions/contract/' },
      to: { pathNot: '^functions/contract/' },
    },
    {
      name: 'manifests-inward',
      comment:
        'functions/manifests (documents to domain objects) imports, of the project, the domain and the shared names only; of packages, its schema, YAML and JSON libraries.',
      severity: 'error',
      from: { path: '^functions/manifests/' },
      to: {
        pathNot:
          '^functions/(domain|manifests|contract)/|(^|/)node_modules/(zod|yaml|js-yaml|jsonc-parser)/',
      },
    },
    {
      name: 'use-cases-no-adapters',
      comment: 'use-cases orchestrate through ports, never adapters or handlers.',
      severity: 'error',
      from: { path: '^functions/use-cases/' },
      to: { path: '^functions/(adapters|handlers)/' },
    },
    {
      name: 'sdk-only-at-the-edge',
      comment: 'AWS SDK, client-node, middy and Powertools appear only in adapters and handlers.',
      severity: 'error',
      from: { pathNot: '^functions/(adapters|handlers)/' },
      to: {
        path: 'node_modules/(@aws-sdk|@smithy|@kubernetes/client-node|@middy|@aws-lambda-powertools)/',
      },
    },
    {
      name: 'no-cross-handler',
      comment: 'a handler never imports another handler.',
      severity: 'error',
      from: { path: '^functions/handlers/([^/]+)/' },
      to: { path: '^functions/handlers/', pathNot: '^functions/handlers/$1/' },
    },
    {
      name: 'lib-no-runtime-code',
      comment:
        'CDK code names function entry points as strings; it never imports them. It imports functions/contract alone, so that variable, key and limit names are written once for both sides.',
      severity: 'error',
      from: { path: '^lib/' },
      to: { path: '^functions/', pathNot: '^functions/contract/' },
    },
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
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
