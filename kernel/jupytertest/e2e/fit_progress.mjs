// End-to-end check of training progress as widgets in JupyterLab 4, in
// headless Chromium driven by playwright-core. test_jupyterlab_e2e.py
// starts the Jupyter server, writes a notebook whose first cell trains a
// small model with notebook.NewProgress, and runs this script with the
// variables of lab.mjs (E2E_SCREENSHOT: the cell's outputs after
// training) and E2E_EPOCHS (the epochs the cell trains for).
//
// In a freshly started kernel it waits for the progress bar widget, samples
// its width while training runs, waits for the bar to turn green at the
// end, and reads the epochs' labels and the loss plot (an Image widget), and notes whether the HTML
// fallback (<progress>) was drawn instead. With E2E_MODE=html (Lab without
// its widget manager) it checks the HTML fallback instead: a bar updated in
// place through the epochs, and no widget. It prints one JSON line with what
// it found (the last line of stdout) and exits 0 when the widgets were
// drawn and followed the training, 1 otherwise.
import path from 'node:path';
import { dismissNews, failed, labEnv, launch, openNotebook, runAllCells, stepper } from './lab.mjs';

const cfg = labEnv({ notebook: 'neurogo-fit.ipynb', screenshot: 'jupyterlab-fit-progress.png' });
const epochs = Number(process.env.E2E_EPOCHS || 6);
// E2E_MODE: "widgets" (the default: Lab draws widgets) or "html" (Lab runs
// without its widget manager and must show the HTML fallback bar).
const mode = process.env.E2E_MODE || 'widgets';

const result = {
  ok: false,
  steps: [],
  errors: [],
  console: [],
  mode,
  widths: [],
  htmlSamples: [],
  htmlText: '',
  widgetBars: 0,
  labels: [],
  htmlBars: 0,
  lossImage: null,
  screenshot: null,
};
const step = stepper(result);

async function main() {
  const browser = await launch(cfg, step);
  try {
    const page = await openNotebook(browser, cfg, result, step, { width: 1200, height: 900 });
    await runAllCells(page, result, step);

    const out = page.locator('.jp-NotebookPanel .jp-Notebook .jp-CodeCell').nth(0).locator('.jp-OutputArea-output');
    if (mode === 'html') {
      await htmlFallback(page, out);
      return;
    }
    const bar = out.locator('.widget-hprogress .progress-bar');
    await bar.first().waitFor({ state: 'visible' });
    step('progress bar widget visible');
    // The bar's width (percent of its track, as the widget sets it) while
    // training runs.
    const width = () => bar.first().evaluate((el) => Math.round(parseFloat(el.style.width)));
    const deadline = Date.now() + cfg.timeout;
    // Training has ended when the bar turns green (bar_style "success").
    const done = out.locator('.widget-hprogress .progress-bar-success');
    while (Date.now() < deadline) {
      const w = await width();
      if (result.widths[result.widths.length - 1] !== w) result.widths.push(w);
      if ((await done.count()) > 0) break;
      await page.waitForTimeout(100);
    }
    step(`bar widths seen: ${JSON.stringify(result.widths)}`);
    result.labels = await out.locator('.widget-label').allTextContents();
    result.htmlBars = await out.locator('progress').count();
    const img = out.locator('.widget-image');
    if ((await img.count()) > 0) {
      result.lossImage = await img.first().evaluate((el) => ({
        src: (el.getAttribute('src') || '').slice(0, 5),
        natural: [el.naturalWidth, el.naturalHeight],
      }));
    }
    step(`labels ${JSON.stringify(result.labels)}; loss image ${JSON.stringify(result.lossImage)}`);

    await shootOutputs(page);
    const partial = result.widths.filter((w) => w > 0 && w < 100);
    result.ok =
      result.widths.length > 0 && result.widths[result.widths.length - 1] >= 100 &&
      partial.length >= 2 &&
      result.labels.some((l) => l.includes(`Epoch ${epochs}/${epochs}`)) &&
      result.htmlBars === 0 &&
      result.lossImage !== null && result.lossImage.natural[0] > 0;
  } catch (e) {
    await failed(browser, result, e, cfg.screenshot);
  } finally {
    await browser.close();
  }
}

// shootOutputs saves a screenshot of the cell's outputs (the notebook
// scrolls inside its panel, so a page screenshot would show the code only).
async function shootOutputs(page) {
  await dismissNews(page);
  const area = page.locator('.jp-NotebookPanel .jp-Notebook .jp-CodeCell').nth(0).locator('.jp-OutputArea');
  await area.first().scrollIntoViewIfNeeded();
  await area.first().screenshot({ path: cfg.screenshot });
  result.screenshot = path.resolve(cfg.screenshot);
  step(`screenshot of the outputs ${result.screenshot}`);
}

// htmlFallback: without a widget manager Lab closes the widgets' comms and
// draws the display's HTML bar, which the kernel then updates in place.
// Samples the bar (its epoch and value) until the last epoch's bar is full.
async function htmlFallback(page, out) {
  const bar = out.locator('progress');
  await bar.first().waitFor({ state: 'visible' });
  step('HTML progress bar visible');
  const sample = () => out.first().evaluate((el) => {
    const bars = el.querySelectorAll('progress');
    const b = bars[bars.length - 1];
    const line = b ? (b.parentElement.textContent || '').trim() : '';
    return { epoch: (line.match(/^Epoch (\d+)\//) || [])[1] || '', value: b ? Number(b.getAttribute('value')) : -1 };
  });
  const deadline = Date.now() + cfg.timeout;
  while (Date.now() < deadline) {
    const s = await sample();
    const last = result.htmlSamples[result.htmlSamples.length - 1];
    if (!last || last.epoch !== s.epoch || last.value !== s.value) result.htmlSamples.push(s);
    if (s.epoch === String(epochs) && s.value >= 100) break;
    await page.waitForTimeout(100);
  }
  step(`HTML bar samples: ${JSON.stringify(result.htmlSamples)}`);
  result.htmlText = (await out.first().textContent()) || '';
  result.widgetBars = await page.locator('.widget-hprogress').count();
  await shootOutputs(page);
  const last = result.htmlSamples[result.htmlSamples.length - 1];
  const epochsSeen = new Set(result.htmlSamples.map((s) => s.epoch));
  result.ok = last !== undefined && last.epoch === String(epochs) && last.value >= 100 &&
    epochsSeen.size >= 3 && result.widgetBars === 0;
}

await main().catch((e) => result.errors.push(String(e && e.stack ? e.stack : e)));
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(result.ok ? 0 : 1);
