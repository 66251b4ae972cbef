// End-to-end check of the neurogo kernel in JupyterLab 4, in headless
// Chromium driven by playwright-core. test_jupyterlab_e2e.py starts the
// Jupyter server, writes the notebook and runs this script with:
//
//   E2E_URL          http://127.0.0.1:PORT (no trailing slash)
//   E2E_TOKEN        the server's token
//   E2E_NOTEBOOK     notebook path relative to the server's root
//   E2E_SCREENSHOT   where to save the screenshot (PNG)
//   E2E_EXPECT_TEXT  text the first cell prints
//   E2E_TIMEOUT_MS   bound of each wait (default 120000)
//   E2E_CHROMIUM     Chromium executable (default /usr/bin/chromium)
//   E2E_KERNEL_DISPLAY_NAME  the kernel's display name (waited for in the status bar)
//
// It prints one JSON line with what it found (the last line of stdout) and
// exits 0 when both outputs appeared, 1 otherwise. It never downloads a
// browser: playwright-core only drives the Chromium given.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

const env = process.env;
const base = env.E2E_URL;
const token = env.E2E_TOKEN || '';
const notebook = env.E2E_NOTEBOOK || 'neurogo-e2e.ipynb';
const screenshot = env.E2E_SCREENSHOT || 'jupyterlab-e2e.png';
const expectText = env.E2E_EXPECT_TEXT || 'hello from neurogo';
const timeout = Number(env.E2E_TIMEOUT_MS || 120000);
const executablePath = env.E2E_CHROMIUM || '/usr/bin/chromium';
const kernelDisplayName = env.E2E_KERNEL_DISPLAY_NAME || '';

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

const result = {
  ok: false,
  steps: [],
  texts: [],
  images: [],
  errors: [],
  console: [],
  screenshot: null,
};

const t0 = Date.now();
function step(msg) {
  const s = `${((Date.now() - t0) / 1000).toFixed(1)}s ${msg}`;
  result.steps.push(s);
  process.stderr.write(`[e2e] ${s}\n`);
}

// If Lab asks which kernel to use (it does when it thinks the notebook has
// none), accept its choice (the notebook's kernelspec) and note it.
async function acceptKernelDialog(page) {
  const dialog = page.locator('.jp-Dialog', { hasText: 'Select Kernel' });
  try {
    await dialog.first().waitFor({ state: 'visible', timeout: 3000 });
  } catch (_) {
    return;
  }
  const choice = await dialog.locator('select').first().inputValue().catch(() => '?');
  step(`"Select Kernel" dialog appeared (choice ${JSON.stringify(choice)}); accepting`);
  result.kernelDialog = true;
  await dialog.locator('.jp-Dialog-button.jp-mod-accept').first().click();
}

async function runAllCells(page) {
  // The Run menu of the menu bar, then "Run All Cells".
  try {
    await page.locator('.lm-MenuBar-item', { hasText: /^Run$/ }).first().click({ timeout: 15000 });
    const item = page.locator('.lm-Menu-item', {
      has: page.locator('.lm-Menu-itemLabel', { hasText: /^Run All Cells$/ }),
    });
    await item.first().click({ timeout: 15000 });
    step('Run > Run All Cells clicked');
    await acceptKernelDialog(page);
    return;
  } catch (e) {
    step(`menu failed (${e.message.split('\n')[0]}); falling back to keyboard`);
    await page.keyboard.press('Escape');
  }
  // Fallback: run each cell with Shift+Enter from the first one.
  await page.locator('.jp-Notebook .jp-Cell').first().click();
  await page.keyboard.press('Escape');
  const n = await page.locator('.jp-Notebook .jp-Cell').count();
  for (let i = 0; i < n; i++) {
    await page.keyboard.press('Shift+Enter');
  }
  step(`Shift+Enter pressed ${n} times`);
  await acceptKernelDialog(page);
}

async function main() {
  if (!base) throw new Error('E2E_URL is not set');
  fs.mkdirSync(path.dirname(path.resolve(screenshot)), { recursive: true });
  step(`launch ${executablePath}`);
  // launch() runs Chromium with a new temporary user-data-dir of its own,
  // removed when the browser closes.
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
    timeout,
  });
  try {
    const context = await browser.newContext({ viewport: { width: 1400, height: 950 } });
    const page = await context.newPage();
    page.setDefaultTimeout(timeout);
    page.on('console', (m) => {
      if (m.type() === 'error' && result.console.length < 50) result.console.push(m.text());
    });
    page.on('pageerror', (e) => result.errors.push(`pageerror: ${e.message}`));

    const url = `${base}/lab/tree/${encodeURI(notebook)}?token=${encodeURIComponent(token)}`;
    step(`open ${url.replace(`token=${encodeURIComponent(token)}`, 'token=<token>')}`);
    await page.goto(url, { waitUntil: 'domcontentloaded' });

    await page.locator('.jp-NotebookPanel .jp-Notebook .jp-Cell').first().waitFor({ state: 'visible' });
    step('notebook visible');
    // Wait until the kernel has started, Lab is connected to it and it is
    // idle: the status bar reads "<kernel display name> | Idle".
    const idle = kernelDisplayName
      ? new RegExp(`^\\s*${escapeRe(kernelDisplayName)} \\| Idle\\s*$`)
      : /\| Idle\s*$/;
    await page.locator('.jp-StatusBar-TextItem', { hasText: idle }).first().waitFor({ state: 'visible' });
    step('status bar shows the kernel idle');
    // Lab may still be wiring the session up; give it a moment.
    await page.waitForTimeout(1500);

    await runAllCells(page);

    const cells = page.locator('.jp-NotebookPanel .jp-Notebook .jp-CodeCell');
    const textOut = cells.nth(0).locator('.jp-OutputArea-output', { hasText: expectText });
    await textOut.first().waitFor({ state: 'visible' });
    step('text output visible');
    const img = cells.nth(1).locator('.jp-OutputArea-output img[src^="data:image/png"]');
    await img.first().waitFor({ state: 'visible' });
    step('image output visible');

    // Best effort: dismiss the "official Jupyter news?" toast before the
    // screenshot.
    await page
      .locator('.Toastify__toast button', { hasText: /^No$/ })
      .first()
      .click({ timeout: 2000 })
      .then(() => page.waitForTimeout(1000))
      .catch(() => {});
    result.kernelName = await page
      .locator('.jp-NotebookPanel-toolbar [data-jp-item-name="kernelName"]')
      .first()
      .textContent({ timeout: 5000 })
      .then((t) => (t || '').trim())
      .catch(() => null);
    step(`kernel shown as ${JSON.stringify(result.kernelName)}`);

    const n = await cells.count();
    for (let i = 0; i < n; i++) {
      const outs = cells.nth(i).locator('.jp-OutputArea-output');
      result.texts.push((await outs.allTextContents()).join('\n'));
    }
    const imgs = page.locator('.jp-OutputArea-output img');
    const count = await imgs.count();
    for (let i = 0; i < count; i++) {
      const src = (await imgs.nth(i).getAttribute('src')) || '';
      const box = await imgs.nth(i).boundingBox();
      const natural = await imgs.nth(i).evaluate((el) => [el.naturalWidth, el.naturalHeight]);
      result.images.push({ srcPrefix: src.slice(0, 30), srcLength: src.length, box, natural });
    }
    const stderr = page.locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]');
    const errTexts = await stderr.allTextContents();
    for (const t of errTexts) result.errors.push(`cell error output: ${t.slice(0, 500)}`);

    await page.screenshot({ path: screenshot, fullPage: true });
    result.screenshot = path.resolve(screenshot);
    step(`screenshot ${result.screenshot}`);
    result.ok =
      result.texts.length >= 2 &&
      result.texts[0].includes(expectText) &&
      result.images.some((im) => im.srcPrefix.startsWith('data:image/png'));
  } catch (e) {
    result.errors.push(String(e && e.stack ? e.stack : e));
    try {
      const pages = browser.contexts().flatMap((c) => c.pages());
      if (pages.length) {
        await pages[0].screenshot({ path: screenshot, fullPage: true });
        result.screenshot = path.resolve(screenshot);
      }
    } catch (_) {
      /* best effort */
    }
  } finally {
    await browser.close();
  }
}

await main().catch((e) => result.errors.push(String(e && e.stack ? e.stack : e)));
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(result.ok ? 0 : 1);
