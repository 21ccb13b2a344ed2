import { describe, expect, it } from 'vitest';
import { PASSKEY_CANCELLED, PASSKEY_UNSUPPORTED } from '../../contract/passkeys';
import { HttpError } from '../../src/api/client';
import { PASSKEY_ALREADY_HERE, passkeyProblem } from '../../src/portal/passkeys/passkeyProblem';

/** A browser error as @simplewebauthn/browser throws it: a WebAuthnError with a code, or the DOMException itself. */
function browserError(name: string, code?: string, message = 'The operation failed') {
  const error = new Error(message) as Error & { code?: string };
  error.name = name;
  if (code) error.code = code;
  return error;
}

describe('what a failed passkey ceremony tells the user', () => {
  const FALLBACK = 'Failed to authenticate. Please try again.';
  const cases: [string, unknown, string][] = [
    ['a cancelled or timed-out ceremony', browserError('NotAllowedError'), PASSKEY_CANCELLED],
    ['an aborted one', browserError('AbortError', 'ERROR_CEREMONY_ABORTED'), PASSKEY_CANCELLED],
    [
      'a device that holds a passkey of the account already',
      browserError('InvalidStateError', 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED'),
      PASSKEY_ALREADY_HERE,
    ],
    ['a browser without WebAuthn', new Error('WebAuthn is not supported in this browser'), PASSKEY_UNSUPPORTED],
    [
      "the server's refusal of an unknown passkey, in its words",
      new HttpError({ status: 401, code: 'passkey_unknown', message: 'This passkey is not registered with Sage.' }),
      'This passkey is not registered with Sage.',
    ],
    ['a refusal without words', new HttpError({ status: 401, message: '' }), FALLBACK],
    ['anything else', browserError('UnknownError'), FALLBACK],
    ['something that is no error', 'boom', FALLBACK],
  ];
  it.each(cases)('%s', (_what, error, said) => {
    expect(passkeyProblem(error, FALLBACK)).toBe(said);
  });
});
