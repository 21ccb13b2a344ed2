/**
 * The layers are kept by the tools (decision 025): each deliberate violation below, placed at a path
 * inside a layer, must be refused by ESLint's import rules or by the layer's TypeScript project, as
 * `npm test` would refuse it in a real file there.
 */
import path from 'node:path';
import { ESLint } from 'eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = path.resolve(import.meta.dirname, '../..');

// ESLint loads its config and TypeScript's parser on the first lint: seconds on a busy machine.
describe('ESLint import rules between the layers', { timeout: 60_000 }, () => {
  const eslint = new ESLint({ cwd: root });
  /** The layer refusals of `code` at `file`: static imports, and `import()` / `import('…').Type`. */
  const refusals = async (file: string, code: string) => {
    const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
    return result!.messages
      .filter((m) => m.ruleId === 'no-restricted-imports' || m.ruleId === 'no-restricted-syntax')
      .map((m) => m.message);
  };

  it.each([
    ['src/x.ts', "import { buildApp } from '../server/app';", 'Browser code does not import the server'],
    ['src/portal/x/y.tsx', "import type { Config } from '../../../server/config';", 'Browser code does not import the server'],
    ['src/x.ts', "import fs from 'node:fs';", 'Node modules are not there'],
    ['server/x.ts', "import { App } from '../src/App';", 'Node code does not import the browser app'],
    ['scripts/x.ts', "export { screenFor } from '../src/portal/screens';", 'Node code does not import the browser app'],
    ['server/routes/api/x/y.ts', "import { sql } from 'kysely';", 'A route never touches the database'],
    ['server/routes/api/x/y.ts', "import type { UsersTable } from '../../../db/schema';", 'A route never touches the database'],
    ['server/routes/x.ts', "import Database from 'better-sqlite3';", 'A route never touches the database'],
    ['server/routes/x.ts', "import pg from 'pg';", 'A route never touches the database'],
    ['server/routes/x.ts', "import { App } from '../../src/App';", 'Node code does not import the browser app'],
    ['server/services/x.ts', "import type { FastifyRequest } from 'fastify';", 'Services and server/db are free of HTTP'],
    ['server/services/billing/x.ts', "import cookie from '@fastify/cookie';", 'Services and server/db are free of HTTP'],
    ['server/services/x.ts', "import fp from 'fastify-plugin';", 'Services and server/db are free of HTTP'],
    ['server/services/x.ts', "import { sessionUser } from '../http/sessionCookie';", 'Services and server/db are free of HTTP'],
    ['server/plugins/x.ts', "import { isAdminRoute } from '../routes/access';", 'Nothing imports a route'],
    ['server/http/x.ts', "import { accountRoutes } from '../routes/api/account';", 'Nothing imports a route'],
    ['contract/x.ts', "import { sql } from 'kysely';", 'The contract depends on zod and its own files only'],
    ['contract/x.ts', "import { loadConfig } from '../server/config';", 'The contract depends on zod and its own files only'],
    // import() and import types cross the layers as much as an import declaration does.
    ['server/routes/api/x/y.ts', "const { db } = await import('../../../db');", 'A route never touches the database'],
    ['server/routes/x.ts', 'const { db } = await import(`../db/index`);', 'A route never touches the database'],
    ['server/routes/x.ts', "type Db = import('../db').Db;", 'A route never touches the database'],
    ['server/routes/x.ts', "const { sql } = await import('kysely');", 'A route never touches the database'],
    ['src/x.ts', "const { buildApp } = await import('../server/app');", 'Browser code does not import the server'],
    ['src/x.ts', "const fs = await import('node:fs');", 'Node modules are not there'],
    ['server/services/x.ts', "const fp = await import('fastify-plugin');", 'Services and server/db are free of HTTP'],
    ['server/services/x.ts', "const { routes } = await import('../routes');", 'Services and server/db are free of HTTP'],
    ['server/plugins/x.ts', "const { routes } = await import('../routes');", 'Nothing imports a route'],
    ['contract/x.ts', "const { sql } = await import('kysely');", 'The contract depends on zod and its own files only'],
    ['scripts/x.ts', "const { App } = await import('../src/App');", 'Node code does not import the browser app'],
    // Only server/app.ts registers the routes: no other server file reaches them.
    ['server/config.ts', "import { routes } from './routes';", 'Nothing imports a route'],
    ['server/logging.ts', "import type { isAdminRoute } from './routes/access';", 'Nothing imports a route'],
    ['server/services/x.ts', "import { routes } from '../routes';", 'Services and server/db are free of HTTP'],
    ['server/db/x.ts', "import { routes } from '../routes';", 'Services and server/db are free of HTTP'],
    ['server/db/migrations/x.ts', "import { isAdminRoute } from '../../routes/access';", 'Services and server/db are free of HTTP'],
    // The database layer knows nothing of HTTP nor of the services above it.
    ['server/db/x.ts', "import type { FastifyInstance } from 'fastify';", 'Services and server/db are free of HTTP'],
    ['server/db/x.ts', "import fp from 'fastify-plugin';", 'Services and server/db are free of HTTP'],
    ['server/db/x.ts', "import { authPlugin } from '../plugins/auth';", 'Services and server/db are free of HTTP'],
    ['server/db/x.ts', "import { sessionToken } from '../http/sessionCookie';", 'Services and server/db are free of HTTP'],
    ['server/db/x.ts', "import { usersService } from '../services/users';", 'The database layer sits below the services'],
    ['server/db/x.ts', "import { App } from '../../src/App';", 'Node code does not import the browser app'],
    // A Node-only package is refused by name in browser code (and in the contract, which takes zod only).
    ...[
      'better-sqlite3',
      'pg',
      'kysely',
      'fastify',
      '@fastify/cookie',
      'fastify-plugin',
      'nodemailer',
      'stripe',
      'pino',
      'ioredis',
    ].flatMap((name) => [
      ['src/admin/x.tsx', `import thing from '${name}';`, 'this package runs only in Node'],
      ['contract/x.ts', `import thing from '${name}';`, 'The contract depends on zod and its own files only'],
    ]),
    ['src/x.ts', "import type { Kysely } from 'kysely';", 'this package runs only in Node'],
    ['src/x.ts', "import type { Pool } from 'pg/lib';", 'this package runs only in Node'],
    ['src/x.ts', "import fs from 'fs';", 'Node modules are not there'],
    ['src/x.ts', "import { readFile } from 'fs/promises';", 'Node modules are not there'],
    ['src/x.ts', "import { Worker } from 'worker_threads';", 'Node modules are not there'],
  ])('%s: refuses %s', async (file, code, message) => {
    expect(await refusals(file, code)).toEqual([expect.stringContaining(message)]);
  });

  it.each([
    [
      'src/x.ts',
      "import { z } from 'zod';\nimport { pageFor } from '../contract/pages';\nimport { renderToString } from 'react-dom/server';",
    ],
    ['server/routes/api/x/y.ts', "import type { FastifyInstance } from 'fastify';\nimport type { Services } from '../../../services';"],
    [
      'server/services/x.ts',
      "import { sql } from 'kysely';\nimport { db } from '../db';\nimport { userSchema } from '../../contract/user';",
    ],
    [
      'server/plugins/x.ts',
      "import fp from 'fastify-plugin';\nimport { db } from '../db';\nimport { sessionToken } from '../http/sessionCookie';",
    ],
    ['server/app.ts', "import { registerRoutes } from './routes';"],
    ['server/main.ts', "const { startDevIdentityProvider } = await import('./devIdentityProvider');"],
    ['server/main.ts', "const { startDevStripe } = await import('./devStripe/start');"],
    ['server/routes/index.ts', "import { accountRoutes } from './api/account';\nimport { isAdminRoute } from './access';"],
    [
      'server/db/x.ts',
      "import { sql } from 'kysely';\nimport Database from 'better-sqlite3';\nimport * as m001 from './migrations/001_initial';",
    ],
    ['server/services/x.ts', "const { db } = await import('../db');\nconst { renderToString } = await import('react-dom/server');"],
    [
      'src/x.ts',
      "const { z } = await import('zod');\nconst { default: posthog } = await import('posthog-js');\nimport { Button } from '@mui/material';",
    ],
    ['contract/x.ts', "import { z } from 'zod/mini';\nimport { singleLine } from './text';"],
  ])('%s: allows what the layer may use', async (file, code) => {
    expect(await refusals(file, code)).toEqual([]);
  });
});

// Each program loads its platform's type declarations afresh: seconds, not milliseconds.
describe("each layer's TypeScript project", { timeout: 60_000 }, () => {
  const parse = (configFile: string) =>
    ts.getParsedCommandLineOfConfigFile(configFile, undefined, {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'));
      },
    })!;

  /** Type-checks the given files (path → code) as members of the project in `dir`; the error codes per file. */
  function typeErrors(dir: string, files: Record<string, string>) {
    const config = parse(path.join(root, dir, 'tsconfig.json'));
    const virtual = new Map(Object.entries(files).map(([file, code]) => [path.join(root, file), code]));
    const host = ts.createCompilerHost(config.options);
    host.fileExists = (file) => virtual.has(file) || ts.sys.fileExists(file);
    host.readFile = (file) => virtual.get(file) ?? ts.sys.readFile(file);
    const program = ts.createProgram({
      // The project's own ambient declarations (contract/url.d.ts) come along, as in `tsc -b`.
      rootNames: [...virtual.keys(), ...config.fileNames.filter((file) => file.endsWith('.d.ts'))],
      options: config.options,
      projectReferences: config.projectReferences,
      host,
    });
    const codes = (file: string) =>
      ts
        .getPreEmitDiagnostics(program, program.getSourceFile(path.join(root, file)))
        .filter((d) => d.file?.fileName === path.join(root, file))
        .map((d) => d.code)
        .sort();
    return Object.fromEntries(Object.keys(files).map((file) => [file, codes(file)]));
  }

  it('takes in every TypeScript file of the repository, so a new folder cannot go unchecked', () => {
    const projects = parse(path.join(root, 'tsconfig.json')).projectReferences!.map((ref) => ts.resolveProjectReferencePath(ref));
    const checked = new Set(projects.flatMap((project) => parse(project).fileNames));
    const files = ts.sys.readDirectory(
      root,
      ['.ts', '.tsx', '.mts', '.cts'],
      ['**/node_modules', 'dist', 'data', 'coverage', '.test-data'],
    );
    expect(files.length).toBeGreaterThan(300);
    expect(files.filter((file) => !checked.has(file))).toEqual([]);
  });

  // 2591: "Cannot find name 'process'… install type definitions for node"; 2584: "Cannot find name
  // 'document'… include 'dom'"; 6059 and 6307: a file outside the project's folder and references.
  it('gives browser code the DOM and not Node, and no way into the server', () => {
    expect(
      typeErrors('src', {
        'src/__nodeGlobal.ts': 'export const mode = process.env.NODE_ENV;',
        'src/__serverImport.ts': "export { loadConfig } from '../server/config';",
        'src/__browser.ts': 'export const title: string = document.title;',
      }),
    ).toEqual({ 'src/__nodeGlobal.ts': [2591], 'src/__serverImport.ts': [6059, 6307], 'src/__browser.ts': [] });
  });

  it('gives server code Node and not the DOM', () => {
    expect(
      typeErrors('server', {
        'server/__domGlobal.ts': 'export const title = document.title;',
        'server/__node.ts': 'export const cwd: string = process.cwd();',
      }),
    ).toEqual({ 'server/__domGlobal.ts': [2584], 'server/__node.ts': [] });
  });

  it('gives the contract neither, only the WHATWG URL both provide', () => {
    expect(
      typeErrors('contract', {
        'contract/__nodeGlobal.ts': 'export const mode = process.env.NODE_ENV;',
        'contract/__domGlobal.ts': 'export const title = document.title;',
        'contract/__url.ts': "export const host: string = new URL('http://localhost:1/').hostname;",
      }),
    ).toEqual({ 'contract/__nodeGlobal.ts': [2591], 'contract/__domGlobal.ts': [2584], 'contract/__url.ts': [] });
  });
});
