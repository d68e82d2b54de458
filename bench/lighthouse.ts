import fs from 'node:fs';
import { launch } from 'chrome-launcher';
import lighthouse from 'lighthouse';

export interface LighthouseResult {
  performance: number;
  accessibility: number;
  /** First and largest contentful paint, speed index and total blocking time in ms; CLS unitless. */
  metrics: Record<string, number>;
  /** Titles of the performance and accessibility audits that did not pass (score below 0.9). */
  failing: string[];
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROME_FLAGS = [
  '--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];
const METRICS: Record<string, string> = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
};

/**
 * Lighthouse 12's default run (mobile, simulated throttling: what "the Lighthouse score" means)
 * on the panel's sign-in page: the performance and accessibility scores out of 100, the main
 * metrics and the failing audits. Null when no Chromium is installed.
 */
export async function measureLighthouse(baseUrl: string, reportPath?: string): Promise<LighthouseResult | null> {
  if (!fs.existsSync(CHROMIUM)) return null;
  // Lighthouse sometimes fails to record the trace of a load (NO_NAVSTART: "Please run Lighthouse
  // again"; once in CI's PostgreSQL smoke, 2026-11-28): it is run again, once, in a new Chromium.
  try {
    return await measureOnce(baseUrl, reportPath);
  } catch (err) {
    if (!/NO_NAVSTART/.test(String(err))) throw err;
    return measureOnce(baseUrl, reportPath);
  }
}

async function measureOnce(baseUrl: string, reportPath?: string): Promise<LighthouseResult> {
  const chrome = await launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS, logLevel: 'silent' });
  try {
    const result = await lighthouse(`${baseUrl}/signin`, {
      port: chrome.port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance', 'accessibility'],
    });
    if (!result) throw new Error('lighthouse returned no result');
    if (reportPath) fs.writeFileSync(reportPath, JSON.stringify(result.lhr, null, 1));
    const { categories, audits, runtimeError } = result.lhr;
    if (runtimeError) throw new Error(`lighthouse: ${runtimeError.code} ${runtimeError.message}`);
    const score = (id: string) => Math.round((categories[id]?.score ?? 0) * 100);
    const metrics = Object.fromEntries(
      Object.entries(METRICS).map(([name, id]) => [name, Number((audits[id]?.numericValue ?? NaN).toFixed(name === 'CLS' ? 3 : 0))]),
    );
    const failing = ['performance', 'accessibility'].flatMap((cat) =>
      (categories[cat]?.auditRefs ?? [])
        .map((ref) => audits[ref.id])
        .filter((a) => a && a.score !== null && a.score < 0.9 && a.scoreDisplayMode !== 'informative' && a.scoreDisplayMode !== 'notApplicable')
        .map((a) => `${cat}: ${a.title}${a.displayValue ? ` (${a.displayValue})` : ''}`),
    );
    return { performance: score('performance'), accessibility: score('accessibility'), metrics, failing };
  } finally {
    chrome.kill();
  }
}

// `node --import tsx bench/lighthouse.ts http://127.0.0.1:8009 [report.json]`: the scores, metrics and
// failing audits (and Lighthouse's whole JSON report when a file is named).
if (import.meta.url === `file://${process.argv[1]}`) {
  const url = process.argv[2];
  if (!url) {
    console.error('usage: node --import tsx bench/lighthouse.ts <base url>');
    process.exit(2);
  }
  const result = await measureLighthouse(url.replace(/\/+$/, ''), process.argv[3]);
  if (!result) {
    console.error(`no Chromium at ${CHROMIUM}`);
    process.exit(1);
  }
  console.log(`performance ${result.performance}, accessibility ${result.accessibility}`);
  console.log(Object.entries(result.metrics).map(([k, v]) => `${k} ${v}${k === 'CLS' ? '' : ' ms'}`).join(', '));
  for (const f of result.failing) console.log(`  failing: ${f}`);
}
