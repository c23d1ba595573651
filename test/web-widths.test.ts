/**
 * Every page fits a phone (issue 18 item 2): each page, signed out, signed in and as an organisation
 * admin, at 390 px and at 1280 px in Debian's Chromium, has no horizontal overflow (tables scroll
 * inside their own box), and is saved as test-output/screenshots/width-<page>-<width>.png to look at.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hash } from '@node-rs/argon2';
import type { Page } from 'playwright-core';
import { createApiClient, registerApp } from '../src/auth/clients.js';
import { billsCreateSavedFilter } from '../src/operations/bills-saved-filter-changes.js';
import { documentsCreate } from '../src/operations/documents-create.js';
import { OPERATIONS } from '../src/operations/index.js';
import { effectOf } from '../src/operations/operation.js';
import type { Store } from '../src/store/db.js';
import { buildBooks, TODAY } from './helpers/books.js';
import { call } from './helpers/call.js';
import { launchBrowser, screenshot, type PersonBrowser } from './helpers/chromium.js';
import { authorizationRequest, discover } from './helpers/oauth.js';
import { startServer } from './helpers/server.js';
import { openTestStore } from './helpers/store.js';

const PASSWORD = 'correct horse battery';
const REDIRECT = 'http://127.0.0.1:53682/callback';
const WIDTHS = [390, 1280];

/** How far the page is wider than the window, and the widest elements that stick out. */
async function overflow(page: Page): Promise<{ by: number; culprits: string[] }> {
  return page.evaluate(() => {
    // runs in the page; the test's own types have no DOM
    const document = (globalThis as any).document;
    const width = document.documentElement.clientWidth;
    const by = document.documentElement.scrollWidth - width;
    const culprits = ([...document.querySelectorAll('body *')] as any[])
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      // an element inside a box that scrolls sideways is allowed past the window: its box scrolls
      .filter((e) => !e.parentElement?.closest('.scroll, pre'))
      .slice(0, 5)
      .map((e) => `${e.tagName.toLowerCase()}${e.className ? `.${String(e.className).split(' ').join('.')}` : ''} (${Math.round(e.getBoundingClientRect().right)} px)`);
    return { by, culprits };
  });
}

describe('every page fits a phone and a desktop', () => {
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;
  let books: Awaited<ReturnType<typeof buildBooks>>;
  let browser: PersonBrowser;
  let pages: Array<[string, string]>;

  before(async () => {
    // the layout does not depend on the database: one dialect
    store = await openTestStore('sqlite');
    books = await buildBooks(store);
    await store.db.updateTable('users').set({ password_hash: await hash(PASSWORD) }).execute();
    // rows with long names and values, as real ones get
    await createApiClient(store.db, { organisationId: books.org.id, name: 'Nightly export to the finance data warehouse (eu-west)' });
    await registerApp(store.db, { name: 'Month-end Pack for Accountants', redirectUris: ['https://monthend.example/a/very/long/callback/path', 'http://127.0.0.1:7777/cb'] });
    // a document and a saved filter with long values, for the Documents and Bills to Pay filters pages
    await call(store, documentsCreate, books.org.id, {
      type: 'expense_claim', number: 'EXP-2026-11-000123-REVISED', supplier: 'International Conference Travel and Accommodation Services Ltd',
      date: '2026-11-02', currency: 'GBP', subtotal: 1234.5, tax: 246.9, total: 1481.4,
      file: { name: 'scanned-receipts-november-conference-trip-all-pages.pdf', data: Buffer.from('%PDF-1.4\n%%EOF\n').toString('base64') },
    }, { today: TODAY });
    const filter = await call(store, billsCreateSavedFilter, books.org.id, {
      name: 'Large foreign-currency bills due before the month-end payment run',
      description: 'Everything over a thousand pounds in another currency that the finance team pays by international transfer',
      criteria: { kinds: ['bill', 'expense_claim'], tagsAny: ['international-transfer', 'month-end'], suppliers: ['International Conference Travel and Accommodation Services Ltd'], dueWithinDays: 30, foreignCurrency: true, minAmountDue: 100000 },
    }, { today: TODAY });
    server = await startServer(store, { today: TODAY });
    browser = await launchBrowser();
    const org = `/orgs/${books.org.id}`;
    pages = [
      ['overview', `${org}/overview`],
      ['api-clients', `${org}/api-clients`],
      ['apps', `${org}/apps`],
      ['roles', `${org}/roles`],
      ['connections', `${org}/connections`],
      ['members', `${org}/members`],
      ['documents', `${org}/documents`],
      ['bill-filters', `${org}/bill-filters`],
      ['bill-filter-edit', `${org}/bill-filters/${filter.filter.id}`],
      ['bank-import', `${org}/bank-import`],
      ['ledger-import', `${org}/ledger-import`],
      ['audit', `${org}/audit`],
      ['account', '/account'],
      ['new-organisation', '/orgs/new'],
      ['not-found', '/no/such/page'],
      ['docs-reference', '/docs/reference'],
    ];
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  const check = async (name: string, problems: string[]) => {
    for (const width of WIDTHS) {
      await browser.page.setViewportSize({ width, height: 860 });
      const { by, culprits } = await overflow(browser.page);
      await screenshot(browser.page, `width-${name}-${width}`);
      if (by > 0) problems.push(`${name} at ${width} px: ${by} px too wide (${culprits.join(', ')})`);
    }
  };

  it('signed out, signing in to connect an app, and consenting', async () => {
    const problems: string[] = [];
    const { page } = browser;
    await page.goto(`${server.baseUrl}/signin`);
    await check('signin', problems);
    const app = await registerApp(store.db, { name: 'Books Viewer with a rather long app name', redirectUris: [REDIRECT] });
    const { url } = await authorizationRequest(await discover(server.baseUrl, app.clientId), REDIRECT, 'service.read service.write offline_access');
    await page.goto(url.href);
    await check('oauth-signin', problems);
    await page.getByLabel('Email').fill(books.users.admin.email);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Allow access' }).waitFor();
    await check('consent', problems);
    assert.deepEqual(problems, []);
  });

  it('the API reference renders every operation with its parameters described, from this server only', async () => {
    const page = await browser.context.newPage();
    const refused: string[] = [];
    page.on('console', (m) => m.type() === 'error' && refused.push(m.text()));
    page.on('request', (r) => !r.url().startsWith(server.baseUrl) && !r.url().startsWith('data:') && !r.url().startsWith('blob:') && refused.push(`request to ${r.url()}`));
    try {
      const problems: string[] = [];
      await page.goto(`${server.baseUrl}/docs`);
      // Scalar renders from /openapi.json in the browser, operation by operation as the reader scrolls:
      // scroll to the end, and every operation's summary and every parameter's description has appeared
      const expected = OPERATIONS.flatMap((op) => [
        op.summary,
        // Scalar 1.72.1 leaves out a request-body property named `tags` (renaming it shows it: checked
        // 2026-11-25); /docs/reference shows it, asserted below
        ...Object.entries(op.input.shape as Record<string, { description?: string }>).flatMap(([name, f]) =>
          f.description && !(name === 'tags' && effectOf(op) !== 'read' && effectOf(op) !== 'delete') ? [f.description.slice(0, 60)] : [],
        ),
      ]);
      await page.getByText(OPERATIONS[0]!.summary).first().waitFor({ timeout: 20_000 });
      const seen = new Set<string>();
      for (let step = 0; step < 200 && seen.size < expected.length; step++) {
        const text = ((await page.locator('body').textContent()) ?? '').replace(/\s+/g, ' ');
        for (const e of expected) if (text.includes(e.replace(/\s+/g, ' '))) seen.add(e);
        await page.mouse.wheel(0, 1500);
        await page.waitForTimeout(100);
      }
      assert.deepEqual(expected.filter((e) => !seen.has(e)), [], 'every operation and parameter described on the page');
      const plain = await (await fetch(`${server.baseUrl}/docs/reference`)).text();
      assert.match(plain, /<td><code>tags<\/code><\/td><td>no<\/td><td>string or null<\/td><td>bills and expense claims: tags that Bills to Pay filters match/);
      assert.equal(await page.getByText('Ask AI Agent').count(), 0, "Scalar's AI agent is off: it would send the document elsewhere");
      assert.ok((await page.getByText('Test Request').count()) > 0, 'the try-it console is there');
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 860 });
        await page.waitForTimeout(300);
        const { by, culprits } = await overflow(page);
        await screenshot(page, `width-docs-${width}`);
        if (by > 0) problems.push(`docs at ${width} px: ${by} px too wide (${culprits.join(', ')})`);
      }
      assert.deepEqual(problems, []);
      assert.deepEqual(refused, [], 'no request elsewhere, nothing the page policy refused');
    } finally {
      await page.close();
    }
  });

  it('every page of the account and of organisation settings, as an admin', async () => {
    const problems: string[] = [];
    const { page } = browser;
    // the consent step above signed this browser in to the pages too
    for (const [name, path] of pages) {
      await page.setViewportSize({ width: 1280, height: 860 });
      const response = await page.goto(`${server.baseUrl}${path}`);
      assert.equal(response?.status(), name === 'not-found' ? 404 : 200, `${path} opens`);
      await check(name, problems);
    }
    assert.deepEqual(problems, []);
  });
});
