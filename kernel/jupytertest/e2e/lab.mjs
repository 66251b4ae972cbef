// Shared steps of the JupyterLab end-to-end scripts (run_e2e.mjs,
// drag_slider.mjs, fit_progress.mjs): the environment they read, a step log, Chromium's
// launch, opening a notebook until its kernel is idle, and running all
// cells, dismissing Lab's news toast, and the screenshot of a failed run.
// It never downloads a browser.
import { chromium } from 'playwright-core';
import fs from 'node:fs';
import path from 'node:path';

// labEnv reads the variables every script takes: E2E_URL, E2E_TOKEN,
// E2E_NOTEBOOK, E2E_SCREENSHOT, E2E_TIMEOUT_MS, E2E_CHROMIUM,
// E2E_KERNEL_DISPLAY_NAME.
export function labEnv(defaults) {
  const env = process.env;
  return {
    base: env.E2E_URL,
    token: env.E2E_TOKEN || '',
    notebook: env.E2E_NOTEBOOK || defaults.notebook,
    screenshot: env.E2E_SCREENSHOT || defaults.screenshot,
    timeout: Number(env.E2E_TIMEOUT_MS || 120000),
    executablePath: env.E2E_CHROMIUM || '/usr/bin/chromium',
    kernelDisplayName: env.E2E_KERNEL_DISPLAY_NAME || '',
  };
}

// stepper returns step(msg): msg with the seconds since the start goes to
// result.steps and to stderr.
export function stepper(result) {
  const t0 = Date.now();
  return (msg) => {
    const s = `${((Date.now() - t0) / 1000).toFixed(1)}s ${msg}`;
    result.steps.push(s);
    process.stderr.write(`[e2e] ${s}\n`);
  };
}

function escapeRe(s) {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

// launch starts headless Chromium with a temporary user-data-dir of its own
// (removed when the browser closes), after making the screenshot's folder.
export async function launch(cfg, step) {
  if (!cfg.base) throw new Error('E2E_URL is not set');
  fs.mkdirSync(path.dirname(path.resolve(cfg.screenshot)), { recursive: true });
  step(`launch ${cfg.executablePath}`);
  return chromium.launch({
    executablePath: cfg.executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    timeout: cfg.timeout,
  });
}

// openNotebook opens cfg.notebook in a new page of the viewport's size,
// collecting console errors and page errors into result, and waits until
// the kernel has started, Lab is connected to it and it is idle (the status
// bar reads "<kernel display name> | Idle").
export async function openNotebook(browser, cfg, result, step, viewport) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  page.setDefaultTimeout(cfg.timeout);
  page.on('console', (m) => {
    if (m.type() === 'error' && result.console.length < 50) result.console.push(m.text());
  });
  page.on('pageerror', (e) => result.errors.push(`pageerror: ${e.message}`));
  const url = `${cfg.base}/lab/tree/${encodeURI(cfg.notebook)}?token=${encodeURIComponent(cfg.token)}`;
  step(`open ${url.replace(`token=${encodeURIComponent(cfg.token)}`, 'token=<token>')}`);
  await page.goto(url, { waitUntil: 'domcontentloaded' });
  await page.locator('.jp-NotebookPanel .jp-Notebook .jp-Cell').first().waitFor({ state: 'visible' });
  step('notebook visible');
  const idle = cfg.kernelDisplayName
    ? new RegExp(`^\\s*${escapeRe(cfg.kernelDisplayName)} \\| Idle\\s*$`)
    : /\| Idle\s*$/;
  await page.locator('.jp-StatusBar-TextItem', { hasText: idle }).first().waitFor({ state: 'visible' });
  step('status bar shows the kernel idle');
  // Lab may still be wiring the session up; give it a moment.
  await page.waitForTimeout(1500);
  return page;
}

// acceptKernelDialog: if Lab asks which kernel to use (it does when it
// thinks the notebook has none), accept its choice (the notebook's
// kernelspec) and note it in result.kernelDialog.
export async function acceptKernelDialog(page, result, step) {
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

// runAllCells runs the notebook: Run > Run All Cells from the menu bar, or,
// when the menu fails, Shift+Enter on every cell from the first one.
export async function runAllCells(page, result, step) {
  try {
    await page.locator('.lm-MenuBar-item', { hasText: /^Run$/ }).first().click({ timeout: 15000 });
    const item = page.locator('.lm-Menu-item', {
      has: page.locator('.lm-Menu-itemLabel', { hasText: /^Run All Cells$/ }),
    });
    await item.first().click({ timeout: 15000 });
    step('Run > Run All Cells clicked');
    await acceptKernelDialog(page, result, step);
    return;
  } catch (e) {
    step(`menu failed (${e.message.split('\n')[0]}); falling back to keyboard`);
    await page.keyboard.press('Escape');
  }
  await page.locator('.jp-Notebook .jp-Cell').first().click();
  await page.keyboard.press('Escape');
  const n = await page.locator('.jp-Notebook .jp-Cell').count();
  for (let i = 0; i < n; i++) {
    await page.keyboard.press('Shift+Enter');
  }
  step(`Shift+Enter pressed ${n} times`);
  await acceptKernelDialog(page, result, step);
}

// dismissNews answers "No" to Lab's "official Jupyter news?" toast if it is
// shown (best effort), so that it does not cover a screenshot.
export async function dismissNews(page) {
  await page
    .locator('.Toastify__toast button', { hasText: /^No$/ })
    .first()
    .click({ timeout: 2000 })
    .then(() => page.waitForTimeout(1000))
    .catch(() => {});
}

// failed records error e in result and, best effort, saves a screenshot of
// the first open page to file (noted in result.screenshot).
export async function failed(browser, result, e, file) {
  result.errors.push(String(e && e.stack ? e.stack : e));
  try {
    const pages = browser.contexts().flatMap((c) => c.pages());
    if (pages.length) {
      await pages[0].screenshot({ path: file, fullPage: true });
      result.screenshot = path.resolve(file);
    }
  } catch (_) {
    /* best effort */
  }
}
