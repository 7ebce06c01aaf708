// The layering of ARCHITECTURE.md, checked on every `npm test`: bridges -> router -> domain <- infra/jobs, and db/
// below them all. A wrong-way import fails the run. Type-only imports count: they are arrows too.
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-stays-inward',
      comment: 'The domain declares ports; it never reaches a surface, an adapter, the queue, the database or the composition root.',
      severity: 'error',
      from: { path: '^src/domain/', pathNot: '\\.test\\.ts$' },
      to: { path: ['^src/(router|bridges|infra|jobs|web)/', '^src/(deps|build-deps|main|cli|config)\\.ts$', '^db/'] },
    },
    {
      name: 'domain-uses-no-sdks',
      comment: 'Rules and verbs only: no SDK, driver or HTTP library in the domain (zod for schemas is fine).',
      severity: 'error',
      from: { path: '^src/domain/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['npm', 'npm-dev', 'npm-optional', 'npm-peer', 'npm-no-pkg', 'npm-unknown'], pathNot: '^node_modules/zod/' },
    },
    {
      name: 'db-imports-no-src',
      comment: 'Schema, migrations and the client are the bottom layer.',
      severity: 'error',
      from: { path: '^db/' },
      to: { path: '^src/' },
    },
    {
      name: 'router-not-bridges',
      comment: 'Procedures do not know how they are served.',
      severity: 'error',
      from: { path: '^src/router/' },
      to: { path: '^src/bridges/' },
    },
    {
      name: 'router-not-jobs',
      comment: 'Procedures reach the queue through the domain port (deps.jobs), never through pg-boss code.',
      severity: 'error',
      from: { path: '^src/router/' },
      to: { path: '^src/jobs/' },
    },
    {
      name: 'infra-not-surfaces',
      comment: 'Adapters implement domain ports; they never call a procedure, a bridge or a worker.',
      severity: 'error',
      from: { path: '^src/infra/', pathNot: '\\.test\\.ts$' },
      to: { path: '^src/(router|bridges|jobs|web)/' },
    },
    {
      name: 'jobs-not-surfaces',
      comment: 'Workers call the domain; they never go through a procedure or a bridge.',
      severity: 'error',
      from: { path: '^src/jobs/' },
      to: { path: '^src/(router|bridges|web)/' },
    },
    {
      name: 'no-test-code-in-the-service',
      comment: 'Test helpers live in test/support; the service never imports them.',
      severity: 'error',
      from: { path: '^(src|db)/', pathNot: '\\.test\\.ts$' },
      to: { path: '^test/' },
    },
    {
      name: 'no-circular-layers',
      comment: 'A cycle through a layer boundary would make the arrows meaningless.',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { circular: true, path: '^src/(router|bridges|infra|jobs)/' },
    },
    {
      name: 'no-cycles',
      comment: 'No module reaches itself, type-only imports included: a shared type lives in its own file (keys/caller.ts, accounts/session.ts, cli/io.ts).',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'config-stays-below',
      comment: 'Every layer reads the configuration; the configuration reads no layer (allowed-networks.ts parses what it validates).',
      severity: 'error',
      from: { path: '^src/(config|allowed-networks)\\.ts$' },
      to: { path: '^src/(domain|router|bridges|infra|jobs|web|cli|mcp-app)/' },
    },
    {
      name: 'no-unresolvable',
      comment:
        'An import the checker cannot follow would slip past every rule above. The client package names its generated declarations (app-router.d.ts) by their .js path, as NodeNext wants; tsc checks those.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^\\./generated/app-router\\.js$' },
    },
  ],
  options: {
    // TypeScript 7 has no compiler API for dependency-cruiser to use; swc parses the .ts files instead.
    parser: 'swc',
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // A separate package that imports the packed client (test/clients/client-package.test.ts installs it).
    exclude: { path: '^test/clients/consumer/' },
    enhancedResolveOptions: {
      extensions: ['.ts', '.js', '.mjs', '.cjs', '.json'],
      // Packages that only declare "exports" (the MCP SDK, youtubei.js, hono) resolve as Node resolves them.
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['module', 'main', 'types'],
    },
  },
};
