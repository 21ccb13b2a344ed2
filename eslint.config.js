import { builtinModules } from 'node:module';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers' import rules (decision 025). Specifiers are matched as written: the code imports its
 * own modules by relative path, so `(../)+server/` is the server folder whatever the file's depth.
 */
const upTo = (folder) => `^(\\.\\./)+${folder}(/|$)`;
/** Packages that run only in Node: the browser app never imports them, even for a type. */
const NODE_ONLY_PACKAGES = [
  'better-sqlite3',
  'pg',
  'kysely',
  'fastify',
  'fastify-[^/]+',
  '@fastify/.+',
  'nodemailer',
  'stripe',
  'pino',
  'pino-[^/]+',
  'ioredis',
  'oidc-provider',
  'prom-client',
];
const forbid = {
  server: { regex: upTo('server'), message: 'Browser code does not import the server: share types and rules through contract/.' },
  src: { regex: upTo('src'), message: 'Node code does not import the browser app: share types and rules through contract/.' },
  nodeBuiltins: {
    regex: `^(node:|(${builtinModules.filter((name) => /^[a-z][a-z_]*$/.test(name)).join('|')})(/|$))`,
    message: 'Browser code runs in the browser: Node modules are not there.',
  },
  nodeOnly: {
    regex: `^(${NODE_ONLY_PACKAGES.join('|')})(/|$)`,
    message: 'Browser code runs in the browser: this package runs only in Node, on the server; share types and rules through contract/.',
  },
  database: {
    regex: `${upTo('db')}|^(kysely|better-sqlite3|pg)(/|$)`,
    message: 'A route never touches the database: ask a service (server/services/).',
  },
  fastify: {
    regex: '^(fastify|fastify-[^/]+|@fastify/.+)(/|$)',
    message: 'Services and server/db are free of HTTP: Fastify belongs to routes, plugins and server/http/.',
  },
  http: {
    regex: upTo('(routes|plugins|http)'),
    message: 'Services and server/db are free of HTTP: they never import routes, plugins or server/http/.',
  },
  services: {
    regex: upTo('services'),
    message: 'The database layer sits below the services: a service uses server/db, never the reverse.',
  },
  // `./routes` too: a file at server/'s top (config.ts, logging.ts…) names the folder that way.
  routes: {
    regex: '^(\\./|(\\.\\./)+)routes(/|$)',
    message: 'Nothing imports a route: only server/app.ts registers them; shared HTTP helpers live in server/http/.',
  },
  outsideContract: {
    regex: '^(?!\\./|zod(/|$))',
    message: 'The contract depends on zod and its own files only: browser and server both load it.',
  },
};
/**
 * no-restricted-imports sees `import`/`export … from` only; the same patterns, as selectors, refuse
 * `import('…')` (a literal or a template without expressions) and a type's `import('…').Name`.
 */
const crossingsBy = ({ regex, message }) => {
  const value = `/${regex.replaceAll('/', '\\/')}/`;
  return [
    `ImportExpression > Literal[value=${value}]`,
    `ImportExpression > TemplateLiteral[expressions.length=0] > TemplateElement[value.cooked=${value}]`,
    `TSImportType > Literal.source[value=${value}]`,
  ].map((selector) => ({ selector, message }));
};
const restrict = (files, ...patterns) => ({
  files,
  rules: {
    'no-restricted-imports': ['error', { patterns: patterns.map((p) => ({ ...p, caseSensitive: true })) }],
    'no-restricted-syntax': ['error', ...patterns.flatMap(crossingsBy)],
  },
});

const CODE = '**/*.{ts,tsx,js,mjs}';
const code = (...dirs) => dirs.map((dir) => `${dir}/${CODE}`);
const NODE_CODE = code('server', 'scripts', 'bench');

export default tseslint.config(
  { ignores: ['dist', 'data', 'node_modules', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx}'],
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // Each layer's globals: the browser's, Node's, or (contract/) none beyond the language's.
  { files: code('src', 'tests/portal', 'tests/admin'), languageOptions: { globals: globals.browser } },
  {
    files: [...NODE_CODE, ...code('tests/unit', 'tests/server', 'tests/e2e', 'tests/fixtures'), '*.{ts,js}'],
    languageOptions: { globals: globals.node },
  },
  // Imports between the layers: later blocks replace earlier ones for their files, so each repeats
  // what still holds there.
  restrict(code('src'), forbid.server, forbid.nodeBuiltins, forbid.nodeOnly),
  restrict(NODE_CODE, forbid.src),
  // Only app.ts registers the routes (main.ts and cli.ts start the app); routes may share their own files.
  { ...restrict(code('server'), forbid.src, forbid.routes), ignores: ['server/routes/**', 'server/{app,main,cli}.ts'] },
  restrict(code('server/routes'), forbid.src, forbid.database),
  restrict(code('server/services'), forbid.src, forbid.fastify, forbid.http),
  restrict(code('server/db'), forbid.src, forbid.fastify, forbid.http, forbid.services),
  restrict(code('server/plugins', 'server/http'), forbid.src, forbid.routes),
  restrict(code('contract'), forbid.outsideContract),
  {
    // React's rules for React code only: elsewhere `use…` is the vitest-hook convention (useTestServer).
    files: ['src/**/*.{ts,tsx}', 'tests/portal/**/*.{ts,tsx}', 'tests/admin/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
