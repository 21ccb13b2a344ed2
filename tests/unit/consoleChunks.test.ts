import { describe, expect, it } from 'vitest';
import { startFiles, type BuildManifest } from '../../server/plugins/consoleChunks';

// The files the console's Home has the browser fetch ahead (decisions 032 and 033).
const manifest: BuildManifest = {
  'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js'] },
  '_react.js': { file: 'assets/react.js' },
  '_mui.js': { file: 'assets/mui.js', imports: ['_react.js'] },
  '_admin.js': { file: 'assets/admin.js', imports: ['_mui.js', '_cycle.js'] },
  '_cycle.js': { file: 'assets/cycle.js', imports: ['_admin.js'] },
  'src/start/startApp.tsx': { file: 'assets/startApp.js', imports: ['_react.js', '_mui.js'] },
  'src/admin/AdminApp.tsx': { file: 'assets/AdminApp.js', imports: ['index.html', '_admin.js', '_mui.js'] },
};

describe('the files a module needs, less what the page loads', () => {
  it.each<[string, string[], string[]]>([
    ['a module and the chunk it imports', ['src/start/startApp.tsx'], ['assets/startApp.js', 'assets/mui.js']],
    [
      'chunks shared by two modules, once',
      ['src/start/startApp.tsx', 'src/admin/AdminApp.tsx'],
      ['assets/startApp.js', 'assets/mui.js', 'assets/AdminApp.js', 'assets/admin.js', 'assets/cycle.js'],
    ],
    ['chunks that import each other, once each', ['_admin.js'], ['assets/admin.js', 'assets/mui.js', 'assets/cycle.js']],
    ['the page’s own script and what it imports, never', ['index.html', '_react.js'], []],
    ['nothing asked, nothing', [], []],
  ])('%s', (_case, modules, files) => {
    expect(startFiles(manifest, modules)).toEqual(files);
  });

  it('stops on a module the build does not have: the server and the build would not match', () => {
    expect(() => startFiles(manifest, ['src/admin/Gone.tsx'])).toThrow('the build manifest has no src/admin/Gone.tsx');
    expect(() =>
      startFiles({ ...manifest, '_mui.js': { file: 'assets/mui.js', imports: ['_missing.js'] } }, ['src/start/startApp.tsx']),
    ).toThrow('the build manifest has no _missing.js');
  });
});
