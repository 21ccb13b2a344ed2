/**
 * The contract runs in the browser and in Node, so its project sees neither's types; of what lies
 * beyond ECMAScript it uses only the WHATWG URL both provide (loopbackRedirect.ts). This is the part
 * it reads. Browser and server code see their own platform's full URL instead.
 */
interface URL {
  readonly href: string;
  readonly origin: string;
  readonly protocol: string;
  readonly username: string;
  readonly password: string;
  readonly host: string;
  readonly hostname: string;
  readonly port: string;
  readonly pathname: string;
  readonly search: string;
  readonly hash: string;
  toString(): string;
}

declare const URL: { prototype: URL; new (url: string, base?: string): URL };
