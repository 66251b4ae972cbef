// Opens every HTML page of the built documentation site in headless
// Chromium (run by scripts/docs check, which serves the site on a loopback
// port) and fails when
//   - a page does not load (HTTP status other than 200), throws or logs a
//     JavaScript error, or requests anything from another host;
//   - an <img> does not load (naturalWidth 0), or an executed tutorial page
//     shows fewer figures than its notebook's outputs hold (manifest written
//     by scripts/docs build);
//   - an internal link (same origin) points to a page or file that does not
//     exist, or its #fragment to no element of the target page.
// External links are listed, not fetched.
//
// usage: node check.mjs --base http://127.0.0.1:PORT/ --site DIR
//                       [--chromium /usr/bin/chromium] [--screenshot PAGE[#ID|#figure]=OUT.png]...
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

function parseArgs(argv) {
  const a = { chromium: "/usr/bin/chromium", screenshots: [] };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i], v = argv[i + 1];
    if (k === "--base") { a.base = v; i++; }
    else if (k === "--site") { a.site = v; i++; }
    else if (k === "--chromium") { a.chromium = v; i++; }
    else if (k === "--screenshot") { a.screenshots.push(v); i++; }
    else throw new Error(`unknown argument ${k}`);
  }
  if (!a.base || !a.site) throw new Error("usage: check.mjs --base URL --site DIR");
  if (!a.base.endsWith("/")) a.base += "/";
  return a;
}

// htmlPages lists the site's HTML files as URL paths relative to the root
// ("" for index.html, "guides/kernel/" for guides/kernel/index.html).
function htmlPages(site) {
  const out = [];
  const walk = (dir) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name.endsWith(".html")) {
        let rel = path.relative(site, p).split(path.sep).join("/");
        if (rel === "index.html") rel = "";
        else if (rel.endsWith("/index.html")) rel = rel.slice(0, -"index.html".length);
        out.push(rel);
      }
    }
  };
  walk(site);
  return out.sort();
}

// canonical maps a same-origin URL to the site-relative page key used by
// htmlPages, or null when it is not an HTML page.
function canonical(url, base) {
  let rel = decodeURIComponent(url.pathname).slice(new URL(base).pathname.length);
  if (rel === "index.html") rel = "";
  else if (rel.endsWith("/index.html")) rel = rel.slice(0, -"index.html".length);
  return rel;
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  const base = new URL(a.base);
  const manifestPath = path.join(a.site, ".docs-manifest.json");
  const manifest = fs.existsSync(manifestPath)
    ? JSON.parse(fs.readFileSync(manifestPath, "utf8")) : { tutorials: {} };
  const pages = htmlPages(a.site);
  const pageSet = new Set(pages);
  const failures = [];
  const fail = (page, msg) => failures.push(`${page || "/"}: ${msg}`);
  const ids = new Map();        // page key → Set of element ids
  const links = [];             // {from, url}
  const external = new Map();   // href → first page linking it
  let figures = 0, images = 0, tutorialPages = 0;

  const browser = await chromium.launch({
    executablePath: a.chromium,
    args: ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  // Anything from another host is refused: the site must work offline.
  await context.route("**/*", (route) => {
    const u = new URL(route.request().url());
    if (u.protocol === "data:" || u.origin === base.origin) return route.continue();
    return route.abort("blockedbyclient");
  });

  for (const key of pages) {
    const page = await context.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(`JavaScript error: ${e.message}`));
    page.on("console", (m) => { if (m.type() === "error") errors.push(`console error: ${m.text()}`); });
    page.on("requestfailed", (r) => {
      const u = new URL(r.url());
      errors.push(u.origin === base.origin
        ? `request failed: ${r.url()} (${r.failure()?.errorText})`
        : `requests another host: ${r.url()}`);
    });
    page.on("response", (r) => {
      const u = new URL(r.url());
      if (u.origin === base.origin && r.status() >= 400) errors.push(`HTTP ${r.status()} for ${r.url()}`);
    });
    const url = new URL(key, base).href;
    let resp;
    try {
      resp = await page.goto(url, { waitUntil: "load", timeout: 60000 });
    } catch (e) {
      fail(key, `does not load: ${e.message.split("\n")[0]}`);
      await page.close();
      continue;
    }
    if (!resp || resp.status() !== 200) fail(key, `HTTP status ${resp ? resp.status() : "none"}`);
    // Images: wait for each to settle, then require a decoded bitmap.
    const imgs = await page.evaluate(async () => {
      const list = [...document.images];
      await Promise.all(list.map((img) => (img.complete ? null
        : new Promise((res) => { img.onload = img.onerror = res; setTimeout(res, 10000); }))));
      return list.map((img) => ({
        src: img.currentSrc.startsWith("data:") ? img.currentSrc.slice(0, 30) + "…" : img.currentSrc,
        ok: img.complete && img.naturalWidth > 0,
        inNotebook: !!img.closest(".jupyter-wrapper"),
      }));
    });
    images += imgs.length;
    for (const img of imgs) if (!img.ok) fail(key, `image does not load: ${img.src}`);
    const info = await page.evaluate(() => ({
      ids: [...document.querySelectorAll("[id]")].map((e) => e.id)
        .concat([...document.querySelectorAll("a[name]")].map((e) => e.getAttribute("name"))),
      hrefs: [...document.querySelectorAll("a[href]")].map((e) => e.href),
      svgFigures: [...document.querySelectorAll(".jupyter-wrapper .jp-OutputArea-output svg")]
        .filter((s) => !s.parentElement.closest("svg")).length,
    }));
    ids.set(key, new Set(info.ids));
    for (const href of info.hrefs) {
      let u;
      try { u = new URL(href); } catch { fail(key, `malformed link ${href}`); continue; }
      if (u.origin === base.origin) links.push({ from: key, url: u });
      else if (!external.has(href)) external.set(href, key);
    }
    const expect = manifest.tutorials[key];
    if (expect) {
      tutorialPages++;
      const shown = imgs.filter((i) => i.inNotebook && i.ok).length + info.svgFigures;
      figures += shown;
      if (shown < expect.figures) {
        fail(key, `shows ${shown} figures, its notebook (${expect.notebook}) holds ${expect.figures}`);
      }
    }
    for (const e of errors) fail(key, e);
    for (const s of a.screenshots) {
      // PAGE[#ID|#figure]=OUT.png: the viewport, scrolled to an element (or
      // to the first notebook figure).
      const [want, out] = s.split("=");
      const [wantPage, frag] = want.replace(/^\//, "").split("#");
      if (wantPage !== key) continue;
      if (frag) {
        await page.evaluate((f) => {
          const el = f === "figure" ? document.querySelector(".jupyter-wrapper .jp-OutputArea-output img")
            : document.getElementById(f);
          if (el) el.scrollIntoView({ block: "center" });
        }, frag);
      }
      await page.screenshot({ path: out, fullPage: false });
      console.log(`screenshot of /${want} → ${out}`);
    }
    await page.close();
  }
  await browser.close();

  // Internal links and anchors.
  let anchors = 0;
  const fileOk = new Map();
  for (const { from, url } of links) {
    const key = canonical(url, a.base);
    let target = null;
    if (pageSet.has(key)) target = key;
    else if (pageSet.has(key + "/")) target = key + "/";
    if (target === null) {
      if (!fileOk.has(key)) {
        const p = path.join(a.site, key);
        fileOk.set(key, fs.existsSync(p) && fs.statSync(p).isFile());
      }
      if (!fileOk.get(key)) fail(from, `broken link ${url.href}`);
      continue;
    }
    if (url.hash && url.hash !== "#") {
      anchors++;
      const id = decodeURIComponent(url.hash.slice(1));
      if (!ids.get(target)?.has(id)) fail(from, `broken anchor ${url.href} (no id "${id}" on /${target})`);
    }
  }

  if (external.size) {
    console.log(`external links (listed, not fetched): ${external.size}`);
    for (const [href, from] of [...external.entries()].sort()) console.log(`  ${href}  (first on /${from})`);
  }
  const summary = `docs check: ${pages.length} pages, ${images} images, ${figures} figures on ` +
    `${tutorialPages} tutorial pages, ${links.length} internal links (${anchors} with anchors) ` +
    `checked, ${external.size} external links listed`;
  if (failures.length) {
    console.log(`${summary}; ${failures.length} FAILURES:`);
    for (const f of failures) console.log(`  ${f}`);
    process.exit(1);
  }
  console.log(`${summary}; all OK`);
}

main().catch((e) => { console.error(e); process.exit(2); });
