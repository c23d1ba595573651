/**
 * Debian's Chromium (/usr/bin/chromium) driven by playwright-core, each launch with a fresh
 * profile: one launch is one person's browser, with its own cookies. Never a downloaded browser.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const SCREENSHOTS = 'test-output/screenshots';

const ARGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export interface PersonBrowser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Debian's package; CHROMIUM_PATH names another build of Chromium (never a downloaded one). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** One line, no stack: what is missing and how to get it. */
function chromiumMissing(): Error {
  const message = `Chromium is not installed (${CHROMIUM}); the browser tests need Debian's package: apt-get install -y chromium (.ci/run installs it)`;
  const error = new Error(message);
  error.stack = message;
  return error;
}

export async function launchBrowser(): Promise<PersonBrowser> {
  if (!existsSync(CHROMIUM)) throw chromiumMissing();
  const profile = await mkdtemp(join(tmpdir(), 'ledgerline-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 860 },
  });
  await context.grantPermissions(['clipboard-read', 'clipboard-write']).catch(() => {});
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}

/** Saves the whole page under test-output/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
