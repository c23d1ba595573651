/**
 * The API reference (/docs) as a person reads it in Debian's Chromium (issue 37, item 5): the
 * quickstart at the top; scrolling down, every operation under its name with its parameters, their
 * types, bounds and allowed values, a request and an example answer; the errors catalogue with every
 * code and status; none of Scalar's own buttons (Developer Tools, Configure, Share, Deploy,
 * Generate MCP, Ask AI); nothing requested from anywhere but this server; no sideways overflow at
 * 390 and 1280 px, down to the last operation; a try-it call that reaches this server with the
 * reader's token. Screenshots: test-output/screenshots/docs-*.png.
 */
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { createApiClient } from '../../src/auth/clients.js';
import { PROBLEM_CODES, PROBLEMS } from '../../src/domain/problems.js';
import { OPERATIONS } from '../../src/operations/index.js';
import { effectOf, HTTP_METHOD, restPathOf, type AnyOperation } from '../../src/operations/operation.js';
import type { Store } from '../../src/store/db.js';
import { buildBooks } from '../helpers/books.js';
import { launchBrowser, SCREENSHOTS, type PersonBrowser } from '../helpers/chromium.js';
import { startServer } from '../helpers/server.js';
import { openTestStore } from '../helpers/store.js';

type Json = Record<string, any>;

/** Scalar's own controls, which publish to or call its services, or open its separate app. */
const VENDOR_BUTTONS = [
  'Developer Tools',
  'Configure',
  'Share',
  'Deploy',
  'Generate MCP',
  'Ask AI',
  'Ask AI Agent',
  'Open API Client',
  'Download OpenAPI Document',
  'VS Code',
  'Cursor',
];

const squash = (text: string) => text.replace(/\s+/g, ' ').trim();
const keyOf = (op: AnyOperation) => `${HTTP_METHOD[effectOf(op)]} ${restPathOf(op)}`;

/** The first value in an example that is not an object or a list, with its key, as the page prints it. */
function firstLeaf(value: unknown, key = ''): string | undefined {
  if (Array.isArray(value)) {
    for (const v of value) {
      const leaf = firstLeaf(v, key);
      if (leaf) return leaf;
    }
    return undefined;
  }
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      const leaf = firstLeaf(v, k);
      if (leaf) return leaf;
    }
    return undefined;
  }
  return key ? `"${key}": ${JSON.stringify(value)}` : undefined;
}

/** The JSON types a parameter's schema allows, null aside. */
function typesOf(schema: Json): string[] {
  if (schema.anyOf) return (schema.anyOf as Json[]).flatMap(typesOf);
  return [schema.type].flat().filter((t) => t && t !== 'null');
}

async function overflow(page: Page): Promise<number> {
  return page.evaluate(() => {
    const d = (globalThis as any).document.documentElement;
    return d.scrollWidth - d.clientWidth;
  });
}

describe('the API reference page, read in Chromium', () => {
  let store: Store;
  let server: Awaited<ReturnType<typeof startServer>>;
  let browser: PersonBrowser;
  let doc: Json;
  let token: string;
  const elsewhere: string[] = [];
  const errors: string[] = [];

  before(async () => {
    // the page shows the document, which does not depend on the database; the try-it console reads a small book
    store = await openTestStore('sqlite');
    const books = await buildBooks(store);
    server = await startServer(store);
    const client = await createApiClient(store.db, { organisationId: books.org.id, name: 'Reference try-it' });
    const form = new URLSearchParams({
      grant_type: 'client_credentials',
      client_id: client.clientId,
      client_secret: client.clientSecret,
      scope: 'service.read',
    });
    token = ((await (await fetch(`${server.baseUrl}/oauth/token`, { method: 'POST', body: form })).json()) as { access_token: string }).access_token;
    doc = (await (await fetch(`${server.baseUrl}/openapi.json`)).json()) as Json;
    browser = await launchBrowser();
    browser.page.on('request', (r) => {
      const url = r.url();
      if (!url.startsWith(server.baseUrl) && !url.startsWith('data:') && !url.startsWith('blob:')) elsewhere.push(url);
    });
    browser.page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    mkdirSync(SCREENSHOTS, { recursive: true });
  });
  after(async () => {
    await browser?.close();
    await server?.close();
    await store?.close();
  });

  const shot = (name: string) => browser.page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) });

  it(
    'at 1280 px: the quickstart first, then every operation under its name with its parameters, types, allowed values and examples, and the errors ' +
      'catalogue',
    async () => {
      const { page } = browser;
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.goto(`${server.baseUrl}/docs`);
      await page.getByRole('heading', { name: 'Quickstart' }).waitFor({ timeout: 20_000 });
      await shot('docs-quickstart-1280');

      const intro = squash(await page.locator('body').innerText());
      assert.ok(intro.indexOf('Quickstart') < intro.indexOf('Errors'), 'the quickstart comes first');
      assert.ok(intro.includes('ledgerline clients create --org "Northwind Studio Ltd"'), 'step 1: an API client');
      assert.ok(
        intro.includes(`curl -s -X POST ${server.baseUrl}/oauth/token`) && intro.includes('-d grant_type=client_credentials'),
        'step 2: a token with curl',
      );
      assert.ok(intro.includes(`curl -s "${server.baseUrl}/v1/operations/reports.profit_and_loss?period=last_month"`), 'step 3: the first call');
      const missingCodes = PROBLEM_CODES.filter((code) => !intro.includes(`${PROBLEMS[code].status} ${code}: ${squash(PROBLEMS[code].meaning)}`));
      assert.deepEqual(missingCodes, [], 'the errors catalogue lists every code with its status and meaning');
      await page.getByRole('heading', { name: 'Errors' }).first().scrollIntoViewIfNeeded();
      await shot('docs-errors-1280');

      // the sidebar lists every operation by name, in its group
      const sidebar = page.getByRole('complementary', { name: /^Sidebar/ });
      for (const op of OPERATIONS) assert.ok((await sidebar.getByText(op.name, { exact: true }).count()) > 0, `${op.name} in the sidebar`);
      for (const tag of doc.tags as Json[]) assert.ok((await sidebar.getByText(tag.name, { exact: true }).count()) > 0, `group ${tag.name} in the sidebar`);

      // scroll down as a reader does; Scalar renders each operation as it comes near, and a body's
      // optional fields once "Show additional properties" is pressed
      const seen = new Map<string, string>();
      const expanded = new Set<string>();
      let lastY = -1;
      for (let step = 0; step < 400; step++) {
        const sections: Record<string, string> = await page.evaluate(() => {
          const found: Record<string, string> = {};
          for (const el of (globalThis as any).document.querySelectorAll('section[id]')) {
            const m = /^[^/]+\/tag\/[^/]+\/(GET|POST|PATCH|DELETE)(\/.+)$/.exec(el.id);
            if (m) found[`${m[1]} ${m[2]}`] = el.innerText;
          }
          return found;
        });
        for (const [key, text] of Object.entries(sections)) if (text.length > (seen.get(key)?.length ?? 0)) seen.set(key, text);
        for (const op of OPERATIONS.filter((o) => effectOf(o) === 'create' || effectOf(o) === 'update')) {
          const key = keyOf(op);
          if (!sections[key] || expanded.has(key)) continue;
          const more = page.locator(`section[id$="/${HTTP_METHOD[effectOf(op)]}${restPathOf(op)}"]`).getByRole('button', { name: /additional properties/i });
          if (await more.count()) await more.first().click();
          expanded.add(key);
        }
        const y = await page.evaluate(() => (globalThis as any).scrollY as number);
        if (seen.size === OPERATIONS.length && expanded.size === 4 && y === lastY) break;
        lastY = y;
        await page.mouse.wheel(0, 800);
        await page.waitForTimeout(80);
      }

      const problems: string[] = [];
      for (const op of OPERATIONS) {
        const key = keyOf(op);
        const text = squash(seen.get(key) ?? '');
        if (!text) {
          problems.push(`${op.name}: never shown`);
          continue;
        }
        const published = doc.paths[restPathOf(op)][HTTP_METHOD[effectOf(op)].toLowerCase()];
        if (!text.startsWith(op.name)) problems.push(`${op.name}: not headed by its name (${text.slice(0, 40)})`);
        if (!text.includes(squash(op.summary))) problems.push(`${op.name}: its summary line`);
        // parameters, or the body's fields, each with its type, bounds and allowed values
        const fields: [string, Json][] = published.requestBody
          ? Object.entries<Json>(published.requestBody.content['application/json'].schema.properties)
          : (published.parameters as Json[]).filter((p) => p.in === 'query').map((p) => [p.name, p.schema]);
        for (const [name, schema] of fields) {
          const start = text.indexOf(`${name} Type: `);
          if (start < 0) {
            problems.push(`${op.name}: ${name} with its type`);
            continue;
          }
          const shown = text.slice(start, text.indexOf(`Copy link to ${name}`, start));
          if (schema.enum) {
            for (const value of schema.enum) if (!text.includes(String(value))) problems.push(`${op.name}: ${name} may be ${value}`);
          } else if (!typesOf(schema).some((t) => shown.includes(t))) problems.push(`${op.name}: ${name} shown as "${shown}", not ${typesOf(schema)}`);
          if (typeof schema.minimum === 'number' && !shown.includes(`min: ${schema.minimum}`)) problems.push(`${op.name}: ${name} from ${schema.minimum}`);
          if (typeof schema.maximum === 'number' && !shown.includes(`max: ${schema.maximum}`)) problems.push(`${op.name}: ${name} to ${schema.maximum}`);
        }
        // the request: its example parameters in the curl line, or its example body
        const request = published.requestBody?.content['application/json'].example;
        if (published.requestBody && !(request && text.includes(squash(firstLeaf(request) ?? '\u0000')))) problems.push(`${op.name}: the example body`);
        for (const p of (published.parameters as Json[]).filter((x) => x.in === 'query' && x.example !== undefined)) {
          const value = encodeURIComponent(String(p.example));
          if (!text.includes(`${p.name}=${value}`) && !text.includes(`${p.name}=${value.replaceAll('%20', '+')}`))
            problems.push(`${op.name}: ${p.name}=${p.example} in the request`);
        }
        // the example answer, not a schema's placeholders
        const status = effectOf(op) === 'create' ? '201' : '200';
        const answer = firstLeaf(published.responses[status].content['application/json'].example);
        if (!answer || !text.includes(squash(answer))) problems.push(`${op.name}: the example answer (${answer ?? 'none published'})`);
        if (/-9007199254740991/.test(text)) problems.push(`${op.name}: an unbounded integer`);
      }
      assert.deepEqual(problems, []);
      assert.ok((await page.getByText('Test Request').count()) > 0, 'the try-it console is there');
    },
  );

  it("has none of Scalar's own buttons at either width, asks nothing of anywhere else, and fits 390 px", async () => {
    const { page } = browser;
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 860 });
      await page.goto(`${server.baseUrl}/docs`);
      await page.getByRole('heading', { name: 'Quickstart' }).waitFor({ timeout: 20_000 });
      await page.waitForTimeout(500);
      for (const name of VENDOR_BUTTONS) {
        const count =
          (await page.getByRole('button', { name, exact: true }).count()) +
          (await page.getByRole('link', { name, exact: true }).count()) +
          (await page.getByText(name, { exact: true }).count());
        assert.equal(count, 0, `no "${name}" at ${width} px`);
      }
      if (width === 390) {
        await shot('docs-quickstart-390');
        await page.getByRole('button', { name: 'Open Menu', exact: true }).filter({ visible: true }).first().click();
        await page
          .getByRole('complementary', { name: /^Sidebar/ })
          .getByText('reports.profit_and_loss', { exact: true })
          .waitFor();
        await shot('docs-sidebar-390');
        await page.getByRole('button', { name: 'Close Menu', exact: true }).filter({ visible: true }).first().click();
      }
      await page.goto(`${server.baseUrl}/docs#tag/reports/GET/v1/operations/reports.profit_and_loss`);
      await page.getByRole('heading', { name: 'reports.profit_and_loss' }).first().waitFor({ timeout: 20_000 });
      await page.waitForTimeout(800);
      await shot(`docs-operation-${width}`);
      assert.equal(await overflow(page), 0, `nothing wider than the window at ${width} px`);
      await page.getByRole('heading', { name: 'Errors' }).first().scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      if (width === 390) await shot('docs-errors-390');
      assert.equal(await overflow(page), 0, `the errors catalogue fits ${width} px`);
      // down to the end, every operation rendered on the way: none is wider than the window
      let lastY = -1;
      for (let step = 0; step < 600; step++) {
        await page.mouse.wheel(0, 1500);
        await page.waitForTimeout(40);
        const y = await page.evaluate(() => (globalThis as any).scrollY as number);
        if (y === lastY) break;
        lastY = y;
      }
      assert.equal(await overflow(page), 0, `the whole page fits ${width} px`);
    }
    assert.deepEqual(elsewhere, [], 'no request to anywhere but this server');
    assert.deepEqual(errors, [], 'nothing the page policy refused, no failed load');
  });

  it("the try-it console sends the example request to this server with the reader's token and shows the answer", async () => {
    const { page } = browser;
    await page.setViewportSize({ width: 1280, height: 860 });
    await page.goto(`${server.baseUrl}/docs#tag/accounts-ledger-and-bank/GET/v1/operations/accounts.list`);
    const section = page.locator('section[id$="/GET/v1/operations/accounts.list"]');
    await section.waitFor({ timeout: 20_000 });
    await page.getByPlaceholder('Token').first().fill(token);
    await section.getByRole('button', { name: /Test Request/ }).click();
    const sent = page.waitForResponse((r) => r.url().startsWith(`${server.baseUrl}/v1/operations/accounts.list`));
    await page.getByRole('button', { name: /^Send/ }).filter({ visible: true }).first().click();
    const response = await sent;
    assert.equal(response.status(), 200);
    assert.equal(new URL(response.url()).searchParams.get('search'), 'bank', 'the example parameter');
    await page.getByText('200 OK').first().waitFor();
    await shot('docs-try-it-1280');
    assert.deepEqual(elsewhere, [], 'the call went to this server, through no proxy');
  });
});
