import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_SECTIONS,
  resolveSection,
  sectionHash,
  visibleSections,
  type SectionResolution,
} from '../../src/portal/dashboard/sections';

const general = DASHBOARD_SECTIONS.find((s) => s.id === 'general');

describe('dashboard sections (§2)', () => {
  it('defines General (enabled) and Subscriptions (disabled)', () => {
    expect(DASHBOARD_SECTIONS.map((s) => [s.id, s.label, s.enabled])).toEqual([
      ['general', 'General', true],
      ['subscriptions', 'Subscriptions', false],
    ]);
  });

  it('lists only enabled sections in the sidebar', () => {
    expect(visibleSections().map(sectionHash)).toEqual(['#general']);
  });

  it.each<[string, SectionResolution]>([
    ['#general', { kind: 'show', section: general! }],
    ['general', { kind: 'show', section: general! }],
    ['', { kind: 'redirect', hash: '#general' }],
    ['#', { kind: 'redirect', hash: '#general' }],
    ['#billing', { kind: 'redirect', hash: '#general' }],
    ['#General', { kind: 'redirect', hash: '#general' }],
    ['#subscriptions', { kind: 'not-found' }],
  ])('resolveSection(%j)', (hash, expected) => {
    expect(resolveSection(hash)).toEqual(expected);
  });

  it('shows a section once it is enabled', () => {
    const sections = DASHBOARD_SECTIONS.map((s) => ({ ...s, enabled: true }));
    expect(resolveSection('#subscriptions', sections)).toEqual({ kind: 'show', section: sections[1] });
    expect(visibleSections(sections)).toHaveLength(2);
  });
});
