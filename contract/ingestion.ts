import { z } from 'zod';
import { singleLine } from './text';

/**
 * The ingestion API through which the AI service stores chat messages and AI threads
 * (docs/ingestion-api.md). Bodies are JSON of at most 64 KiB (the server's body limit).
 */

/** A chat session id as the AI service makes them: letters, digits and `-_.:`. */
export const sessionIdSchema = z
  .string()
  .trim()
  .min(1, 'sessionId is required')
  .max(200, 'sessionId must be at most 200 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'sessionId may only contain letters, digits and - _ . :');

/** Largest stored message, in characters of its JSON text. */
export const MAX_MESSAGE_CHARS = 60_000;

const isoTime = z.iso.datetime({ offset: true, error: 'createdAt must be an ISO 8601 date-time' });

export const ingestMessageSchema = z.object({
  sessionId: sessionIdSchema,
  /** Any JSON value: what the AI service keeps of one exchange. */
  message: z
    .unknown()
    .refine((value) => value !== undefined && value !== null, 'message is required')
    .refine(
      (value) => value == null || JSON.stringify(value).length <= MAX_MESSAGE_CHARS,
      `message must be at most ${MAX_MESSAGE_CHARS} characters of JSON`,
    ),
  /** The user the message is for; only the service token may name one (a license token is its user). */
  userId: z.string().check(singleLine('userId')).trim().min(1).max(100).optional(),
  /** With a license token, a date after the time of arrival is stored as the time of arrival. */
  createdAt: isoTime.optional(),
});
export type IngestMessage = z.infer<typeof ingestMessageSchema>;

export const MAX_THREAD_MESSAGES = 500;
export const MAX_THREAD_MESSAGE_CHARS = 20_000;

export const threadIdSchema = z
  .string()
  .trim()
  .min(1)
  .max(100, 'threadId must be at most 100 characters')
  .regex(/^[A-Za-z0-9._:-]+$/, 'threadId may only contain letters, digits and - _ . :');

/** `PUT /api/ingest/threads/{threadId}`: the whole thread, which replaces what was stored of it. */
export const ingestThreadSchema = z.object({
  userId: z.string().check(singleLine('userId')).trim().min(1).max(100).optional(),
  createdAt: isoTime.optional(),
  messages: z
    .array(
      z.object({
        role: z.string().check(singleLine('role')).trim().min(1, 'role is required').max(32, 'role must be at most 32 characters'),
        content: z.string().max(MAX_THREAD_MESSAGE_CHARS, `content must be at most ${MAX_THREAD_MESSAGE_CHARS} characters`),
      }),
    )
    .max(MAX_THREAD_MESSAGES, `a thread has at most ${MAX_THREAD_MESSAGES} messages`),
});
export type IngestThread = z.infer<typeof ingestThreadSchema>;

/** `PUT /api/ingest/threads/{threadId}` on success: the thread's id and how many messages it now holds. */
export const threadStoredSchema = z.object({ ok: z.literal(true), id: z.string(), messages: z.number().int() });
