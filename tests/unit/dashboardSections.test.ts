import { describe, expect, it } from 'vitest';
import {
  DASHBOARD_SECTIONS,
  resolveSection,
  sectionHash,
  visibleSections,
  type SectionResolution,
} from '../../src/portal/dashboard/sections';

const general = DASHBOARD_SECTIONS.find((s) => s.id === 'general');
const subscriptions = DASHBOARD_SECTIONS.find((s) => s.id === 'subscriptions');

describe('dashboard sections (§2)', () => {
  it('defines General and Subscriptions, both enabled', () => {
    expect(DASHBOARD_SECTIONS.map((s) => [s.id, s.label, s.enabled])).toEqual([
      ['general', 'General', true],
      ['subscriptions', 'Subscriptions', true],
    ]);
  });

  it('lists the enabled sections in the sidebar', () => {
    expect(visibleSections().map(sectionHash)).toEqual(['#general', '#subscriptions']);
  });

  it.each<[string, SectionResolution]>([
    ['#general', { kind: 'show', section: general! }],
    ['general', { kind: 'show', section: general! }],
    ['', { kind: 'redirect', hash: '#general' }],
    ['#', { kind: 'redirect', hash: '#general' }],
    ['#billing', { kind: 'redirect', hash: '#general' }],
    ['#General', { kind: 'redirect', hash: '#general' }],
    ['#subscriptions', { kind: 'show', section: subscriptions! }],
    ['#Subscriptions', { kind: 'redirect', hash: '#general' }],
  ])('resolveSection(%j)', (hash, expected) => {
    expect(resolveSection(hash)).toEqual(expected);
  });

  it('a disabled section stays known but is not found, and leaves the sidebar', () => {
    const sections = DASHBOARD_SECTIONS.map((s) => ({ ...s, enabled: s.id !== 'subscriptions' }));
    expect(resolveSection('#subscriptions', sections)).toEqual({ kind: 'not-found' });
    expect(visibleSections(sections).map(sectionHash)).toEqual(['#general']);
  });
});
