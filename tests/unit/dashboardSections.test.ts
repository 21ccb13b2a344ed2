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
const usage = DASHBOARD_SECTIONS.find((s) => s.id === 'usage');

describe('dashboard sections (§2)', () => {
  it('defines General, Subscriptions, Usage, Organisations and Account, all enabled', () => {
    expect(DASHBOARD_SECTIONS.map((s) => [s.id, s.label, s.enabled])).toEqual([
      ['general', 'General', true],
      ['subscriptions', 'Subscriptions', true],
      ['usage', 'Usage', true],
      ['organisations', 'Organisations', true],
      ['account', 'Account', true],
    ]);
  });

  it('lists the enabled sections in the sidebar', () => {
    expect(visibleSections().map(sectionHash)).toEqual(['#general', '#subscriptions', '#usage', '#organisations', '#account']);
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
    ['#usage', { kind: 'show', section: usage! }],
    ['#Usage', { kind: 'redirect', hash: '#general' }],
    ['#organisations', { kind: 'show', section: DASHBOARD_SECTIONS.find((s) => s.id === 'organisations')! }],
  ])('resolveSection(%j)', (hash, expected) => {
    expect(resolveSection(hash)).toEqual(expected);
  });

  it('a disabled section stays known but is not found, and leaves the sidebar', () => {
    const sections = DASHBOARD_SECTIONS.map((s) => ({ ...s, enabled: s.id !== 'subscriptions' }));
    expect(resolveSection('#subscriptions', sections)).toEqual({ kind: 'not-found' });
    expect(visibleSections(sections).map(sectionHash)).toEqual(['#general', '#usage', '#organisations', '#account']);
  });
});
