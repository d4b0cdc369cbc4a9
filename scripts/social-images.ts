/**
 * Writes public/og-image.jpg (the 1200×630 link-preview card) and public/logo.png (the
 * Organization logo of the structured data) by rendering them in Debian's Chromium.
 * Run after changing the brand: `npx node scripts/social-images.ts`.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";

const root = path.resolve(import.meta.dirname, "..");
const nodeModules = `file://${path.join(root, "node_modules")}/`;

const CARD = `<!doctype html><html><head><style>
@font-face { font-family: "Cormorant"; src: url("NODE_MODULES/@fontsource/cormorant-garamond/files/cormorant-garamond-latin-700-normal.woff2"); font-weight: 700; }
@font-face { font-family: "Inter"; src: url("NODE_MODULES/@fontsource-variable/inter/files/inter-latin-wght-normal.woff2"); font-weight: 100 900; }
html,body{margin:0;width:1200px;height:630px;background:#120d1c;overflow:hidden}
.card{position:relative;width:1200px;height:630px;background:radial-gradient(ellipse at 50% 120%, rgba(122,47,102,.55), transparent 65%), linear-gradient(180deg,#120d1c 0%,#120d1c 45%,#2a1430 100%);display:flex;flex-direction:column;align-items:center;justify-content:center;color:#f4ede1;font-family:Inter}
.frame{position:absolute;inset:28px;border:1px solid rgba(216,174,94,.35);border-radius:18px}
.line{width:220px;height:2px;background:linear-gradient(90deg,transparent,#d8ae5e,transparent);margin:26px 0}
h1{font-family:Cormorant;font-weight:700;font-size:118px;margin:0;line-height:1}
p{font-size:32px;color:#b9ad9c;margin:0;letter-spacing:.2px}
.mark{width:112px;height:112px}
.tags{margin-top:34px;display:flex;gap:14px}
.tags span{border:1px solid rgba(216,174,94,.55);color:#d8ae5e;border-radius:999px;padding:8px 20px;font-size:22px;font-weight:600}
</style></head><body><div class="card"><div class="frame"></div>
<svg class="mark" viewBox="0 0 64 64"><circle cx="32" cy="32" r="31" fill="#120d1c" stroke="#d8ae5e" stroke-width="2"/><path d="M16 42h32l3-20-10 8-9-13-9 13-10-8z" fill="none" stroke="#d8ae5e" stroke-width="3" stroke-linejoin="round"/><path d="M18 47h28" stroke="#d8ae5e" stroke-width="3" stroke-linecap="round"/></svg>
<div class="line"></div>
<h1>Play as Empress</h1>
<div class="line"></div>
<p>Interactive stories narrated by an AI Game Master</p>
<div class="tags"><span>Court intrigue</span><span>Cultivation</span><span>Stardom</span><span>Campus</span></div>
</div></body></html>
`;

const LOGO = `<!doctype html><html><head><style>html,body{margin:0;width:512px;height:512px;background:#120d1c}svg{width:512px;height:512px;display:block}</style></head><body>
<svg viewBox="0 0 64 64"><rect width="64" height="64" fill="#120d1c"/><circle cx="32" cy="32" r="29" fill="#120d1c" stroke="#d8ae5e" stroke-width="2"/><path d="M16 42h32l3-20-10 8-9-13-9 13-10-8z" fill="none" stroke="#d8ae5e" stroke-width="3" stroke-linejoin="round"/><path d="M18 47h28" stroke="#d8ae5e" stroke-width="3" stroke-linecap="round"/></svg></body></html>
`;

// Pages opened from file:// may load the fonts from node_modules.
const workDirectory = mkdtempSync(path.join(tmpdir(), "social-images-"));
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--allow-file-access-from-files"],
});
try {
  const images = [
    { html: CARD.replaceAll("NODE_MODULES/", nodeModules), width: 1200, height: 630, file: "public/og-image.jpg" },
    { html: LOGO, width: 512, height: 512, file: "public/logo.png" },
  ];
  for (const image of images) {
    const page = await browser.newPage({ viewport: { width: image.width, height: image.height } });
    const source = path.join(workDirectory, "image.html");
    writeFileSync(source, image.html);
    await page.goto(`file://${source}`, { waitUntil: "load" });
    await page.evaluate(() => document.fonts.ready);
    const jpeg = image.file.endsWith(".jpg");
    await page.screenshot({ path: path.join(root, image.file), type: jpeg ? "jpeg" : "png", ...(jpeg ? { quality: 90 } : {}) });
    await page.close();
    console.log(`wrote ${image.file}`);
  }
} finally {
  await browser.close();
  rmSync(workDirectory, { recursive: true, force: true });
}
