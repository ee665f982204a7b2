// Issue 7: the HTML report of the bundled example must be under 1 MB and render in under a second.
// Size is measured on the file `route-eval run --format html` writes; render time in Debian's
// chromium (headless, playwright-core) from navigation start to the first frame after load, best of 5.
import { existsSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const bin = fileURLToPath(new URL("../bin/route-eval.js", import.meta.url));
const config = fileURLToPath(new URL("../route-eval.yaml", import.meta.url));
const dir = mkdtempSync(join(tmpdir(), "route-eval-bench-html-"));
const CHROMIUM = "/usr/bin/chromium";

try {
  const started = process.hrtime.bigint();
  const run = spawnSync(
    process.execPath,
    [bin, "run", "-c", config, "--run-id", "bench", "--out-dir", dir, "-f", "html"],
    { encoding: "utf8" },
  );
  if (run.status !== 0) throw new Error(`route-eval run failed: ${run.stderr}`);
  const runMs = Number(process.hrtime.bigint() - started) / 1e6;
  const file = join(dir, "bench", "report.html");
  const size = statSync(file).size;
  console.log(
    `bundled example: route-eval run --format html took ${runMs.toFixed(0)} ms (whole CLI process)`,
  );
  console.log(
    `report.html size: ${(size / 1024).toFixed(0)} KiB; ratio to 1 MB: ${(size / 1e6).toFixed(2)} (target < 1)`,
  );

  if (!existsSync(CHROMIUM)) {
    console.log(`render time: skipped, ${CHROMIUM} is absent (apt-get install -y chromium)`);
  } else {
    const { chromium } = await import("playwright-core");
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu"],
    });
    const times = [];
    for (let i = 0; i < 5; i++) {
      const page = await browser.newPage({ viewport: { width: 1300, height: 1000 } });
      await page.goto(pathToFileURL(file).href, { waitUntil: "load" });
      times.push(
        await page.evaluate(
          () =>
            new Promise((done) =>
              requestAnimationFrame(() => setTimeout(() => done(performance.now()), 0)),
            ),
        ),
      );
      await page.close();
    }
    await browser.close();
    const best = Math.min(...times);
    console.log(
      `render time in chromium: ${times.map((t) => t.toFixed(0)).join(", ")} ms; best ${best.toFixed(0)} ms; ratio to 1 s: ${(best / 1000).toFixed(2)} (target < 1)`,
    );
    if (best >= 1000) process.exitCode = 1;
  }
  if (size >= 1e6) process.exitCode = 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
