// Loads the web testbed in headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core), runs a scene for a number of frames and saves a
// screenshot. Fails on a page error, a console error, or a testbed that did
// not finish its frames; scripts/png_not_blank.py then checks the picture.
//
// Usage: node browser-test.mjs URL OUT.png
import { chromium } from 'playwright-core';

const [url, out] = process.argv.slice(2);
if (!url || !out) {
  console.error('usage: node browser-test.mjs URL OUT.png');
  process.exit(2);
}
const executablePath = process.env.CHROMIUM ?? '/usr/bin/chromium';
const browser = await chromium.launch({
  executablePath,
  headless: true,
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
    '--disable-background-networking', '--disable-component-update', '--disable-sync',
  ],
});
let failed = false;
try {
  const page = await browser.newPage({ viewport: { width: 1000, height: 700 } });
  const errors = [];
  page.on('pageerror', (e) => errors.push(`page error: ${e.message}`));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(`console error: ${m.text()}`); });
  const t0 = Date.now();
  await page.goto(url);
  await page.waitForFunction(() => document.body.dataset.done || document.body.dataset.error, null, { timeout: 90_000 });
  const { done, error } = await page.evaluate(() => ({ done: document.body.dataset.done, error: document.body.dataset.error }));
  await page.screenshot({ path: out });
  const profile = await page.evaluate(() => document.getElementById('profile').textContent);
  console.log(`${url}: ${done ?? 0} frames in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  console.log(profile);
  if (error) errors.push(`testbed error: ${error}`);
  if (errors.length) {
    console.error(errors.join('\n'));
    failed = true;
  }
} finally {
  await browser.close();
}
process.exit(failed ? 1 : 0);
