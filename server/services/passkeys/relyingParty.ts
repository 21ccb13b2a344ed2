/**
 * The WebAuthn relying party (decision 049): the site a passkey belongs to. Its id is PUBLIC_URL's
 * host name, so a passkey made here signs in here only; the origin is PUBLIC_URL's, which every
 * ceremony's client data must name. A host that is an IP address cannot be a relying party:
 * browsers refuse it, so such a deployment has no passkeys to offer (localhost works).
 */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

export const RELYING_PARTY_NAME = 'Sage';

export function relyingPartyOf(publicUrl: string): RelyingParty {
  const url = new URL(publicUrl);
  return { id: url.hostname, name: RELYING_PARTY_NAME, origin: url.origin };
}
