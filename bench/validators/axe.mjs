// axe-core (WCAG 2.2 AA and best-practice rules) on pages of a running server, in Chromium
// through playwright-core. Usage: node axe.mjs BASE [PATH...], run in the directory where
// axe-core and playwright-core are installed (see bench/validators/README.md).
import { createRequire } from "node:module";

const require = createRequire(process.cwd() + "/");
const { chromium } = require("playwright-core");
const axeSource = require("fs").readFileSync(require.resolve("axe-core/axe.min.js"), "utf8");

const base = process.argv[2] ?? "http://127.0.0.1:8080";
const paths = process.argv.length > 3 ? process.argv.slice(3) : ["/", "/2026/12", "/2026/12/24", "/docs"];
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--no-first-run"],
});
let total = 0;
for (const width of [1280, 360]) {
  const page = await browser.newPage({ viewport: { width, height: 900 } });
  for (const path of paths) {
    await page.goto(base + path, { waitUntil: "networkidle" });
    if (path.startsWith("/docs")) {
      // Swagger UI renders after load: wait for the operations, and open one.
      await page.waitForSelector(".opblock", { timeout: 15000 });
      await page.click(".opblock-summary-control");
      await page.waitForTimeout(500);
    }
    await page.addScriptTag({ content: axeSource });
    const result = await page.evaluate(async () =>
      // eslint-disable-next-line no-undef
      axe.run(document, {
        runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"] },
      }),
    );
    total += result.violations.length;
    console.log(`axe ${width}px ${path}: ${result.violations.length} violations, ${result.passes.length} rules passed`);
    for (const v of result.violations) {
      console.log(`  ${v.id} (${v.impact}): ${v.help}; ${v.nodes.length} nodes, e.g. ${v.nodes[0].target.join(" ")}`);
      for (const n of v.nodes.slice(0, 3)) console.log(`     ${n.failureSummary.replace(/\n/g, " | ").slice(0, 300)}`);
    }
  }
  await page.close();
}
await browser.close();
process.exit(total ? 1 : 0);
