import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * The layers' import rules (decision 015). Specifiers are matched as written: the code imports its
 * own modules by relative path, so `(../)+server/` is the server folder whatever the file's depth.
 */
const upTo = (folder) => `^(\\.\\./)+${folder}(/|$)`;
const forbid = {
  server: { regex: upTo('server'), message: 'Browser code does not import the server: share types and rules through contract/.' },
  src: { regex: upTo('src'), message: 'Node code does not import the browser app: share types and rules through contract/.' },
  nodeBuiltins: { regex: '^node:', message: 'Browser code runs in the browser: Node modules are not there.' },
  database: {
    regex: `${upTo('db')}|^(kysely|better-sqlite3|pg)(/|$)`,
    message: 'A route never touches the database: ask a service (server/services/).',
  },
  fastify: {
    regex: '^(fastify|fastify-[^/]+|@fastify/.+)(/|$)',
    message: 'A service is free of HTTP: Fastify belongs to routes, plugins and server/http/.',
  },
  http: {
    regex: upTo('(routes|plugins|http)'),
    message: 'A service is free of HTTP: it never imports routes, plugins or server/http/.',
  },
  routes: {
    regex: upTo('routes'),
    message: 'Nothing imports a route: only server/app.ts registers them; shared HTTP helpers live in server/http/.',
  },
  outsideContract: {
    regex: '^(?!\\./|zod(/|$))',
    message: 'The contract depends on zod and its own files only: browser and server both load it.',
  },
};
const restrict = (files, ...patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: patterns.map((p) => ({ ...p, caseSensitive: true })) }] },
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
  restrict(code('src'), forbid.server, forbid.nodeBuiltins),
  restrict(NODE_CODE, forbid.src),
  restrict(code('server/routes'), forbid.src, forbid.database),
  restrict(code('server/services'), forbid.src, forbid.fastify, forbid.http),
  restrict(code('server/plugins', 'server/http'), forbid.src, forbid.routes),
  restrict(code('contract'), forbid.outsideContract),
  {
    // React's rules for React code only: elsewhere `use…` is the vitest-hook convention (useTestServer).
    files: ['src/**/*.{ts,tsx}', 'tests/portal/**/*.{ts,tsx}', 'tests/admin/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
);
