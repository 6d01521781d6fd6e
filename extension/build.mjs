// Builds Satchel Connector for Chromium and for Firefox from one source:
// dist/chromium and dist/firefox (each loadable unpacked), and a zip of each
// (what a store takes). The Chromium build carries the development key, so
// its id is always codbncmilehhbbmpfkfhobodieagnmca (the desktop tests load
// it by that id); a store build gets the store's key instead.
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, 'dist');
const manifest = JSON.parse(readFileSync(join(here, 'manifest.json'), 'utf8'));
const devKey = readFileSync(join(here, 'dev-key.pub.b64'), 'utf8').trim();

const icons = { 16: '16x16.png', 48: '48x48.png', 128: '128x128.png' };

const targets = {
  chromium: { ...manifest, key: devKey },
  firefox: {
    ...manifest,
    minimum_chrome_version: undefined,
    // Firefox runs the worker's script as an event page, after the link's
    // (Chromium's service worker imports it).
    background: { scripts: ['src/link.js', manifest.background.service_worker] },
    browser_specific_settings: { gecko: {
        id: 'connector@satchel.dev',
        strict_min_version: '128.0',
        data_collection_permissions: { required: ['none'] },
      }, },
  },
};

rmSync(dist, { recursive: true, force: true });
for (const [browser, built] of Object.entries(targets)) {
  const out = join(dist, browser);
  mkdirSync(join(out, 'icons'), { recursive: true });
  cpSync(join(here, 'src'), join(out, 'src'), { recursive: true });
  for (const [size, file] of Object.entries(icons)) {
    cpSync(join(here, '..', 'icons', file), join(out, 'icons', `${size}.png`));
  }
  writeFileSync(join(out, 'manifest.json'), `${JSON.stringify(built, null, 2)}\n`);
  const zip = join(dist, `satchel-connector-${browser}-${manifest.version}.zip`);
  execFileSync('zip', ['-qr', '-X', zip, '.'], { cwd: out });
  console.log(`built ${out} and ${zip}`);
}
