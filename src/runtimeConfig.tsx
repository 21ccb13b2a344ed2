import { createContext, useContext, type ReactNode } from 'react';
import type { RuntimeConfig } from '../contract/config';

const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

/** The server's public settings (marketing site, support address, default build), read once at start. */
export function RuntimeConfigProvider({ config, children }: { config: RuntimeConfig; children: ReactNode }) {
  return <RuntimeConfigContext.Provider value={config}>{children}</RuntimeConfigContext.Provider>;
}

export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig needs a RuntimeConfigProvider');
  return config;
}
