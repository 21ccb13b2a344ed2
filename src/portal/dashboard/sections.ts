/** The dashboard's sidebar sections, chosen by URL hash (§2 Dashboard). */
export type SectionId = 'general' | 'subscriptions' | 'usage' | 'organisations' | 'account';

export interface DashboardSection {
  id: SectionId;
  label: string;
  /** Disabled sections stay defined (their hash is known) but are hidden from the sidebar. */
  enabled: boolean;
}

export const DASHBOARD_SECTIONS: readonly DashboardSection[] = [
  { id: 'general', label: 'General', enabled: true },
  { id: 'subscriptions', label: 'Subscriptions', enabled: true },
  { id: 'usage', label: 'Usage', enabled: true },
  // A studio's people and their roles (issue 38).
  { id: 'organisations', label: 'Organisations', enabled: true },
  { id: 'account', label: 'Account', enabled: true },
];

export const DEFAULT_SECTION_HASH = '#general';

export type SectionResolution = { kind: 'show'; section: DashboardSection } | { kind: 'redirect'; hash: string } | { kind: 'not-found' };

export const sectionHash = (section: DashboardSection): string => `#${section.id}`;

/** Sections listed in the sidebar. */
export function visibleSections(sections: readonly DashboardSection[] = DASHBOARD_SECTIONS): DashboardSection[] {
  return sections.filter((s) => s.enabled);
}

/**
 * What the dashboard shows for a location hash (with or without its `#`): an enabled section is
 * shown; a defined but disabled one is "not found"; an empty or unknown hash resets to #general.
 */
export function resolveSection(hash: string, sections: readonly DashboardSection[] = DASHBOARD_SECTIONS): SectionResolution {
  const id = hash.replace(/^#/, '');
  const section = sections.find((s) => s.id === id);
  if (!section) return { kind: 'redirect', hash: DEFAULT_SECTION_HASH };
  return section.enabled ? { kind: 'show', section } : { kind: 'not-found' };
}
