import { describe, expect, it } from 'vitest';
import type { EngineVersion } from '../../contract/pluginVersions';
import { enginesOfInstalls, enginesText, releaseMailWanted } from '../../contract/releaseEmails';

const ALL: EngineVersion[] = ['5.5', '5.6', '5.7'];

describe('who a release e-mail is for (issue 41)', () => {
  it.each([
    { reported: [], ships: ALL, wanted: true, why: 'no install yet: every build' },
    { reported: [null, '4.27', 'UE5'], ships: ALL, wanted: true, why: 'no install with an engine the builds know: every build' },
    { reported: ['5.6.1'], ships: ALL, wanted: true, why: 'a patch release of an engine it ships for' },
    { reported: ['5.4'], ships: ALL, wanted: false, why: 'only an engine it does not ship for' },
    { reported: ['5.4', '5.7'], ships: ALL, wanted: true, why: 'one of several engines' },
    { reported: ['5.4', '4.27'], ships: ALL, wanted: false, why: 'a known engine it does not ship for, and an unknown one' },
    { reported: ['5.5'], ships: ['5.6'] as EngineVersion[], wanted: false, why: 'a build for another engine only' },
    { reported: [], ships: [] as EngineVersion[], wanted: false, why: 'a build that ships for nothing' },
  ])('$why', ({ reported, ships, wanted }) => {
    expect(releaseMailWanted(reported, ships)).toBe(wanted);
  });

  it.each([
    { reported: ['5.6.1', '5.5', '5.6', null, '4.27'], engines: ['5.5', '5.6'] },
    { reported: [' 5.7 '], engines: ['5.7'] },
    { reported: [], engines: [] },
  ])('reads the engines of installs $reported as $engines, once each, in order', ({ reported, engines }) => {
    expect(enginesOfInstalls(reported)).toEqual(engines);
  });

  it.each([
    { engines: [], text: 'every engine' },
    { engines: ['5.6'], text: 'Unreal Engine 5.6' },
    { engines: ['5.5', '5.6'], text: 'Unreal Engine 5.5 and 5.6' },
    { engines: ['5.5', '5.6', '5.7'], text: 'Unreal Engine 5.5, 5.6 and 5.7' },
  ] as { engines: EngineVersion[]; text: string }[])('names $engines as "$text"', ({ engines, text }) => {
    expect(enginesText(engines)).toBe(text);
  });
});
