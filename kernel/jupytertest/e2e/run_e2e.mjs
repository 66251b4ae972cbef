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
import path from 'node:path';
import { dismissNews, failed, labEnv, launch, openNotebook, runAllCells, stepper } from './lab.mjs';

const cfg = labEnv({ notebook: 'neurogo-e2e.ipynb', screenshot: 'jupyterlab-e2e.png' });
const screenshot = cfg.screenshot;
const expectText = process.env.E2E_EXPECT_TEXT || 'hello from neurogo';

const result = {
  ok: false,
  steps: [],
  texts: [],
  images: [],
  errors: [],
  console: [],
  screenshot: null,
};
const step = stepper(result);

async function main() {
  const browser = await launch(cfg, step);
  try {
    const page = await openNotebook(browser, cfg, result, step, { width: 1400, height: 950 });
    await runAllCells(page, result, step);

    const cells = page.locator('.jp-NotebookPanel .jp-Notebook .jp-CodeCell');
    const textOut = cells.nth(0).locator('.jp-OutputArea-output', { hasText: expectText });
    await textOut.first().waitFor({ state: 'visible' });
    step('text output visible');
    const img = cells.nth(1).locator('.jp-OutputArea-output img[src^="data:image/png"]');
    await img.first().waitFor({ state: 'visible' });
    step('image output visible');

    await dismissNews(page);
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
    await failed(browser, result, e, screenshot);
  } finally {
    await browser.close();
  }
}

await main().catch((e) => result.errors.push(String(e && e.stack ? e.stack : e)));
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(result.ok ? 0 : 1);
