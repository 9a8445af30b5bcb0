/**
 * Chromium for the browser tests, in one place: which binary, which launch flags, and when a browser
 * test runs.
 *
 * - The binary is Debian's package at /usr/bin/chromium; CHROMIUM_PATH overrides it.
 * - Without that binary and without CI=true, browser tests are skipped, each with the reason
 *   (`skipWithoutChromium(ctx)` first thing in the test), and the run's summary lists them with it.
 * - With CI=true they always run, so a missing Chromium fails them (.ci/run installs it).
 *
 * Chromium is driven through playwright-core (no browser download of its own), headless, with a
 * throw-away profile directory.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

/** The Chromium binary: CHROMIUM_PATH, else Debian's /usr/bin/chromium. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** CI=true (any value but empty, `false` or `0`): browser tests must run. */
export const IN_CI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

/** Why browser tests are skipped on this machine, or undefined when they run. */
export const CHROMIUM_SKIP_REASON: string | undefined =
  existsSync(CHROMIUM_PATH) || IN_CI
    ? undefined
    : `no Chromium at ${CHROMIUM_PATH} and CI is not set: apt-get install -y chromium, or set CHROMIUM_PATH`;

/**
 * Launch flags of every browser test: headless, no sandbox (root in containers), nothing that reaches
 * the network, and software WebGL (ANGLE on SwiftShader: a page gets WebGL 2 without a GPU; checked
 * with Debian's Chromium 156, whose WebGL renderer string then reads "... SwiftShader driver").
 */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--use-angle=swiftshader',
  '--enable-unsafe-swiftshader',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** Skips the calling test, with the reason, when Chromium is missing outside CI. Call it first in a browser test. */
export function skipWithoutChromium(ctx: { skip: (note?: string) => void }): void {
  if (CHROMIUM_SKIP_REASON !== undefined) ctx.skip(CHROMIUM_SKIP_REASON);
}

/** A running headless Chromium with one page; `close` also removes its profile directory. */
export interface ChromiumSession {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Launches Chromium (CHROMIUM_PATH, CHROMIUM_FLAGS) with a fresh profile; throws if it cannot start. */
export async function launchChromium(): Promise<ChromiumSession> {
  const userDataDir = mkdtempSync(join(tmpdir(), 'bitecs-collide-chromium-'));
  try {
    const context = await chromium.launchPersistentContext(userDataDir, {
      executablePath: CHROMIUM_PATH,
      headless: true,
      args: [...CHROMIUM_FLAGS],
    });
    const page = context.pages()[0] ?? (await context.newPage());
    return {
      context,
      page,
      async close() {
        await context.close();
        rmSync(userDataDir, { recursive: true, force: true });
      },
    };
  } catch (e) {
    rmSync(userDataDir, { recursive: true, force: true });
    throw e;
  }
}
