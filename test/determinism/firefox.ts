/**
 * Firefox for the cross-engine test, driven by WebDriver BiDi (built into Firefox: no geckodriver,
 * no browser download; playwright-core cannot drive a stock Firefox). Debian's `firefox-esr`
 * (FIREFOX_PATH overrides) starts headless with a throw-away profile and `--remote-debugging-port 0`,
 * prints the BiDi WebSocket address on stderr; the test opens a session on it and evaluates scripts
 * in the first tab (about:blank). Skip rule as for the other engines (engines.ts): without the
 * binary and without CI=true the test is skipped with the reason; with CI=true it runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { IN_CI } from '../support/browser.js';
import { onPath } from './engines.js';

export const FIREFOX_PATH = process.env.FIREFOX_PATH || onPath('firefox-esr') || onPath('firefox');

export const FIREFOX_SKIP_REASON: string | undefined = FIREFOX_PATH !== undefined || IN_CI
  ? undefined
  : 'no firefox-esr (SpiderMonkey in Firefox) on PATH and CI is not set: apt-get install -y firefox-esr, or set FIREFOX_PATH';

/** Preferences of the throw-away profile: nothing that reaches the network on its own. */
const PREFS = [
  'user_pref("app.update.enabled", false);',
  'user_pref("browser.shell.checkDefaultBrowser", false);',
  'user_pref("datareporting.policy.dataSubmissionEnabled", false);',
  'user_pref("toolkit.telemetry.enabled", false);',
  'user_pref("services.settings.server", "http://127.0.0.1:9/");',
  'user_pref("network.captive-portal-service.enabled", false);',
  'user_pref("browser.newtabpage.enabled", false);',
].join('\n');

export interface FirefoxSession {
  /** Evaluates `expression` in the tab and returns its value (a string, number or boolean). */
  evaluate(expression: string): Promise<unknown>;
  close(): Promise<void>;
}

/** Starts headless Firefox and opens a BiDi session on its first tab; throws if it cannot. */
export async function launchFirefox(timeoutMs = 60_000): Promise<FirefoxSession> {
  if (FIREFOX_PATH === undefined) throw new Error(FIREFOX_SKIP_REASON ?? 'no firefox-esr (or firefox) on PATH: apt-get install -y firefox-esr, or set FIREFOX_PATH');
  const profile = mkdtempSync(join(tmpdir(), 'bitecs-collide-firefox-'));
  writeFileSync(join(profile, 'user.js'), PREFS);
  const child: ChildProcess = spawn(FIREFOX_PATH, ['--headless', '--no-remote', '--profile', profile, '--remote-debugging-port', '0', 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const cleanup = () => {
    child.kill('SIGKILL');
    rmSync(profile, { recursive: true, force: true });
  };
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let err = '';
      const timer = setTimeout(() => reject(new Error(`Firefox did not announce WebDriver BiDi within ${timeoutMs} ms:\n${err.slice(-2000)}`)), timeoutMs);
      child.stderr!.on('data', (d: Buffer) => {
        err += d.toString();
        const m = /WebDriver BiDi listening on (ws:\/\/\S+)/.exec(err);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]);
        }
      });
      child.once('exit', (code) => reject(new Error(`Firefox exited (${code}) before announcing WebDriver BiDi:\n${err.slice(-2000)}`)));
    });
    const ws = new WebSocket(`${url}/session`);
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve());
      ws.once('error', reject);
    });
    let nextId = 1;
    const pending = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>();
    ws.on('message', (data: Buffer) => {
      const msg = JSON.parse(data.toString()) as { id?: number; type: string; result?: unknown; error?: string; message?: string };
      if (msg.id === undefined) return; // events
      const p = pending.get(msg.id);
      pending.delete(msg.id);
      if (msg.type === 'success') p?.resolve(msg.result);
      else p?.reject(new Error(`WebDriver BiDi: ${msg.error}: ${msg.message}`));
    });
    const send = (method: string, params: object): Promise<unknown> => new Promise((resolve, reject) => {
      const id = nextId++;
      pending.set(id, { resolve, reject });
      ws.send(JSON.stringify({ id, method, params }));
    });
    await send('session.new', { capabilities: {} });
    const tree = (await send('browsingContext.getTree', {})) as { contexts: { context: string }[] };
    const context = tree.contexts[0].context;
    return {
      async evaluate(expression) {
        const r = (await send('script.evaluate', { expression, target: { context }, awaitPromise: false })) as
          { type: 'success'; result: { type: string; value?: unknown } } | { type: 'exception'; exceptionDetails: { text: string } };
        if (r.type === 'exception') throw new Error(`Firefox: ${r.exceptionDetails.text}`);
        return r.result.value;
      },
      async close() {
        await Promise.race([send('browser.close', {}).catch(() => undefined), new Promise((r) => setTimeout(r, 5000))]);
        ws.close();
        await Promise.race([new Promise((r) => child.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
        cleanup();
      },
    };
  } catch (e) {
    cleanup();
    throw e;
  }
}
