/**
 * The one line printed when the product cannot start. A port already taken names the variable that
 * chooses it (PORT, or DEV_IDP_PORT / DEV_STRIPE_PORT for the development stand-ins), so the
 * operator knows what to set; anything else is its own message, never a stack trace.
 */
export function startFailureMessage(error: unknown, portVariables: Readonly<Record<string, number>>): string {
  if (!(error instanceof Error)) return String(error);
  const { code, port } = error as NodeJS.ErrnoException & { port?: number };
  if (code === 'EADDRINUSE' && typeof port === 'number') {
    const variable = Object.keys(portVariables).find((name) => portVariables[name] === port) ?? 'PORT';
    return `Port ${port} is already in use: stop what is using it, or set ${variable} to a free port (for example ${variable}=${port + 1}).`;
  }
  return error.message;
}
