import type { FastifyInstance, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { findUnstorableText } from '../contract/text';
import { AppError } from './errors';

/**
 * What every request's input passes before a route sees it (issue 24): JSON bodies bounded in
 * depth before anything parses or walks them, and text no database can store refused in every
 * validated part (body, query, path), whatever the route's own schema says.
 */

/** Deepest nesting of arrays and objects a JSON body may have; our documents need a handful. */
export const MAX_JSON_DEPTH = 64;

/** Whether JSON text nests arrays and objects deeper than `limit`: one pass, no parse, no recursion. */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/**
 * Replaces the JSON body parser with Fastify's own behind the depth bound. An empty body is no body
 * (issue 36): HTTP clients send `Content-Type: application/json` on a DELETE or a bare POST too, and
 * such a request answers as it would without the header; a route that takes a body then refuses
 * the missing one with its validation error (400 `invalid_request`), as it always did without it.
 */
export function useBoundedJsonBodies(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser('error', 'ignore');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if ((body as string).length === 0) {
      done(null, undefined);
      return;
    }
    if (nestsDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(new AppError(400, 'too_deeply_nested', `The request body is nested more than ${MAX_JSON_DEPTH} levels deep`), undefined);
      return;
    }
    parse(request, body as string, done);
  });
}

/** zod's validator compiler, after the storable-text rule (contract/text.ts) for every part. */
export const requestValidatorCompiler: FastifySchemaCompiler<Parameters<typeof validatorCompiler>[0]['schema']> = (route) => {
  const validate = validatorCompiler(route);
  return (data) => {
    const at = findUnstorableText(data);
    if (at !== null) {
      return { error: new AppError(400, 'invalid_text', `${at} must not contain U+0000 or an unpaired surrogate`) };
    }
    return validate(data);
  };
};
