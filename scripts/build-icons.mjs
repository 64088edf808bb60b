#!/usr/bin/env node
// Draws the web app's PNG icons (host/public/icons/) from host/public/favicon.svg with Chromium, the
// browser the e2e tests use (CHROME_PATH, else Debian's /usr/bin/chromium). Run by hand when the icon
// changes (`node scripts/build-icons.mjs`) and commit the PNGs: the build only copies them.
// - icon-192.png, icon-512.png: the favicon as it is (rounded square, transparent corners), purpose "any";
// - icon-maskable-512.png, apple-touch-icon.png (180): the teal filling the whole square and the vial
//   scaled into the middle 80 % (the safe zone a launcher's mask never cuts), purpose "maskable".
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromePath } from './chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const publicDir = path.join(root, 'host/public');
const favicon = readFileSync(path.join(publicDir, 'favicon.svg'), 'utf8');

/** The favicon's drawing without its rounded background, scaled about the centre of the square. */
function maskable(svg) {
  const glyph = svg
    .replace(/^<svg[^>]*>/, '')
    .replace(/<\/svg>\s*$/, '')
    .replace(/<rect[^>]*\/>/, '');
  const background = svg.match(/<rect[^>]*fill="([^"]+)"/)?.[1] ?? '#0f766e';
  // the vial spans y 14-58 in the 64 box: centred at (32, 36) before scaling
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" fill="${background}"/>` +
    `<g transform="translate(32 32) scale(0.72) translate(-32 -36)">${glyph}</g></svg>`
  );
}

const ICONS = [
  { file: 'icon-192.png', size: 192, svg: favicon },
  { file: 'icon-512.png', size: 512, svg: favicon },
  { file: 'icon-maskable-512.png', size: 512, svg: maskable(favicon) },
  { file: 'apple-touch-icon.png', size: 180, svg: maskable(favicon) },
];

const browser = await chromium.launch({ executablePath: chromePath(), args: CHROMIUM_ARGS });
try {
  for (const { file, size, svg } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const source = `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
    await page.setContent(
      `<html><body style="margin:0;background:transparent">` +
        `<img src="${source}" width="${size}" height="${size}" style="display:block"></body></html>`,
    );
    await page.locator('img').evaluate((image) => image.decode());
    await page.screenshot({ path: path.join(publicDir, 'icons', file), omitBackground: true });
    await page.close();
    console.log(`host/public/icons/${file} ${size}×${size}`);
  }
} finally {
  await browser.close();
}
