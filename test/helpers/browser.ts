/**
 * A minimal browser for OAuth tests: follows redirects by hand, keeps cookies by path, reads our
 * forms and posts them with an Origin header the way a real browser does.
 */

interface Cookie {
  name: string;
  value: string;
  path: string;
}

export class Browser {
  private cookies: Cookie[] = [];
  lastPage = '';

  constructor(readonly origin: string) {}

  private cookieHeader(url: URL): string {
    return this.cookies
      .filter((c) => url.pathname.startsWith(c.path))
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const path =
        attrs
          .map((a) => a.trim())
          .find((a) => a.toLowerCase().startsWith('path='))
          ?.slice(5) ?? '/';
      const expired = attrs.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()));
      this.cookies = this.cookies.filter((c) => !(c.name === name && c.path === path));
      if (!expired && value) this.cookies.push({ name, value, path });
    }
  }

  async request(url: string, init: RequestInit = {}): Promise<Response> {
    const u = new URL(url, this.origin);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(u);
    if (cookie) headers.set('cookie', cookie);
    const response = await fetch(u, { ...init, headers, redirect: 'manual' });
    this.keep(response);
    return response;
  }

  /** GET, following redirects on this origin; stops at a redirect elsewhere (e.g. the app's redirect URI). */
  async follow(url: string, init: RequestInit = {}): Promise<{ response: Response; url: string; body: string }> {
    let current = new URL(url, this.origin).href;
    let response = await this.request(current, init);
    for (let hops = 0; hops < 10 && response.status >= 300 && response.status < 400; hops++) {
      const location = response.headers.get('location')!;
      const next = new URL(location, current);
      if (next.origin !== this.origin) return { response, url: next.href, body: '' };
      current = next.href;
      response = await this.request(current);
    }
    const body = await response.text();
    this.lastPage = body;
    return { response, url: current, body };
  }

  /** Posts the form on the last page with these fields (hidden fields such as csrf are kept). */
  async submit(fields: Record<string, string | string[]>, options: { origin?: string | null; action?: string } = {}) {
    const action = options.action ?? /<form[^>]*action="([^"]+)"/.exec(this.lastPage)?.[1];
    if (!action) throw new Error(`no form on the page:\n${this.lastPage.slice(0, 500)}`);
    const body = new URLSearchParams();
    for (const [, name, value] of this.lastPage.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) body.append(name!, decode(value!));
    for (const [name, value] of Object.entries(fields)) for (const v of Array.isArray(value) ? value : [value]) body.append(name, v);
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (options.origin !== null) headers.origin = options.origin ?? this.origin;
    return this.follow(decode(action), { method: 'POST', headers, body });
  }
}

function decode(s: string): string {
  return s
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
