// End-to-end check of a live explorer (notebook.Explore) in JupyterLab 4,
// in headless Chromium driven by playwright-core: a slider drawn by
// JupyterLab's widget manager is dragged with the mouse, and the plot (an
// Image widget redrawn by the kernel) and the model's decoded value follow.
// test_jupyterlab_e2e.py starts the Jupyter server, writes the notebook
// (cell 1: the explorer; cell 2: prints the slider's value and the decoded
// value) and runs this script with:
//
//   E2E_URL, E2E_TOKEN, E2E_NOTEBOOK, E2E_TIMEOUT_MS, E2E_CHROMIUM,
//   E2E_KERNEL_DISPLAY_NAME   as for run_e2e.mjs
//   E2E_SCREENSHOT            the screenshot after the drag (PNG)
//   E2E_PLOT_SCREENSHOT       the plot alone after the drag (PNG)
//
// It prints one JSON line (the last line of stdout) and exits 0 when the
// drag moved the slider, the plot kept changing and the decoded value
// followed, 1 otherwise. It never downloads a browser.
import path from 'node:path';
import { dismissNews, failed, labEnv, launch, openNotebook, runAllCells, stepper } from './lab.mjs';

const cfg = labEnv({ notebook: 'neurogo-explorer.ipynb', screenshot: 'jupyterlab-explorer-drag.png' });
const { screenshot, timeout } = cfg;
const plotShot = process.env.E2E_PLOT_SCREENSHOT || 'jupyterlab-explorer-plot.png';

const result = { ok: false, steps: [], errors: [], console: [], texts: [] };
const step = stepper(result);

// countSrcChanges counts the changes of the img's src over ms milliseconds
// (each is a new frame: the widget sets a new blob URL per PNG).
async function countSrcChanges(img, ms) {
  return img.evaluate(
    (el, ms) =>
      new Promise((resolve) => {
        let n = 0;
        const obs = new MutationObserver((muts) => {
          for (const m of muts) if (m.attributeName === 'src') n++;
        });
        obs.observe(el, { attributes: true });
        setTimeout(() => {
          obs.disconnect();
          resolve(n);
        }, ms);
      }),
    ms,
  );
}

// probeText runs the notebook's second cell again and returns its output.
async function probeText(page, cells, previous) {
  const cell = cells.nth(1);
  await cell.locator('.jp-InputArea-editor').first().click();
  await page.keyboard.press('Shift+Enter');
  const out = cell.locator('.jp-OutputArea-output');
  const deadline = Date.now() + timeout;
  for (;;) {
    const t = (await out.allTextContents()).join('\n');
    if (t.includes('slider=') && t !== previous) return t;
    if (Date.now() > deadline) throw new Error(`cell 2 printed no new line (last: ${JSON.stringify(t)})`);
    await page.waitForTimeout(200);
  }
}

function parseProbe(t) {
  const m = /slider=(-?[\d.]+) decoded=(-?[\d.]+) frontend=(\w+)/.exec(t);
  return m ? { slider: Number(m[1]), decoded: Number(m[2]), frontEnd: m[3] === 'true' } : null;
}

async function main() {
  const browser = await launch(cfg, step);
  try {
    const page = await openNotebook(browser, cfg, result, step, { width: 1200, height: 1000 });
    await runAllCells(page, result, step);

    const cells = page.locator('.jp-NotebookPanel .jp-Notebook .jp-CodeCell');
    const handle = cells.nth(0).locator('.widget-slider .noUi-handle').first();
    const img = cells.nth(0).locator('img.widget-image').first();
    const readout = cells.nth(0).locator('.widget-slider .widget-readout').first();
    await handle.waitFor({ state: 'visible' });
    await img.waitFor({ state: 'visible' });
    step('slider and plot visible');
    const first = await probeTextOrWait(page, cells);
    result.before = parseProbe(first);
    step(`before the drag: ${first.trim()}`);

    // frames delivered to the page (changes of the img's src) over 3 s
    result.labFrames = await countSrcChanges(img, 3000);
    result.labFPS = result.labFrames / 3;
    step(`${result.labFrames} frames in 3 s in the page`);

    result.readoutBefore = (await readout.textContent()).trim();
    const srcBefore = await img.getAttribute('src');
    const box = await handle.boundingBox();
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 10; i++) await page.mouse.move(x + 12 * i, y);
    await page.mouse.up();
    step(`dragged the handle from x=${x.toFixed(0)} by 120 px`);
    await page.waitForFunction(
      ([sel, before]) => {
        const el = document.querySelectorAll(sel)[0];
        return el && el.getAttribute('src') !== before;
      },
      ['.jp-NotebookPanel .jp-CodeCell img.widget-image', srcBefore],
    );
    result.readoutAfter = (await readout.textContent()).trim();
    step(`slider readout ${result.readoutBefore} → ${result.readoutAfter}; the plot changed`);
    // let the window fill with the new value, then look
    await page.waitForTimeout(1500);
    const after = await probeText(page, cells, first);
    result.after = parseProbe(after);
    step(`after the drag: ${after.trim()}`);
    await img.screenshot({ path: plotShot });
    await dismissNews(page);
    await page.screenshot({ path: screenshot, fullPage: true });
    result.screenshot = path.resolve(screenshot);
    result.plotScreenshot = path.resolve(plotShot);
    const errTexts = await page
      .locator('.jp-OutputArea-output[data-mime-type="application/vnd.jupyter.stderr"]')
      .allTextContents();
    for (const t of errTexts) result.errors.push(`cell error output: ${t.slice(0, 500)}`);
    const b = result.before;
    const a = result.after;
    result.ok =
      !!b && !!a && result.readoutAfter !== result.readoutBefore && a.slider > b.slider + 0.1 &&
      Math.abs(a.decoded - a.slider) < 0.25 && errTexts.length === 0;
  } catch (e) {
    await failed(browser, result, e, screenshot);
  } finally {
    await browser.close();
  }
}

// probeTextOrWait waits for the second cell's first output (Run All ran it).
async function probeTextOrWait(page, cells) {
  const out = cells.nth(1).locator('.jp-OutputArea-output', { hasText: 'slider=' });
  await out.first().waitFor({ state: 'visible' });
  return (await out.allTextContents()).join('\n');
}

await main().catch((e) => result.errors.push(String(e && e.stack ? e.stack : e)));
process.stdout.write(JSON.stringify(result) + '\n');
process.exit(result.ok ? 0 : 1);
