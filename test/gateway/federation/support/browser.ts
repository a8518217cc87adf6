// A user's browser without a browser, for sign-in flows across the gateway, its portal and other
// servers: one cookie jar per host name (cookies are not told apart by port; the tests put the servers
// of different parties on different host names), redirects and same-site meta refreshes followed, and
// HTML forms answered by a callback that picks the button (or fills the fields) as the user would.
export interface Page {
  readonly url: URL;
  readonly status: number;
  readonly body: string;
}

/** The fields to send for a page's form; undefined: stop here (the page is the result). */
export type FormAnswer = (page: Page) => Record<string, string> | undefined;

export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  constructor(readonly name: string) {}

  cookies(host: string): Map<string, string> {
    let jar = this.jars.get(host);
    if (jar === undefined) {
      jar = new Map();
      this.jars.set(host, jar);
    }
    return jar;
  }

  async request(
    url: URL,
    init: { method?: string; form?: Record<string, string> } = {},
  ): Promise<Response> {
    const jar = this.cookies(url.hostname);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const response = await fetch(url, {
      method: init.method ?? 'GET',
      redirect: 'manual',
      headers: {
        ...(cookie === '' ? {} : { cookie }),
        ...(init.form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(init.form === undefined ? {} : { body: new URLSearchParams(init.form).toString() }),
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /max-age=0/i.test(line)) jar.delete(name);
      else jar.set(name, value);
    }
    return response;
  }

  /**
   * Visits `start` and goes on as a user would: redirects and meta refreshes are followed, each page
   * with a form is shown to `answer`, which sends it (its hidden fields plus the answer) or stops.
   * The last page.
   */
  async browse(
    start: string | URL,
    answer: FormAnswer = () => undefined,
    /** Stop before requesting a URL this says yes to (its page is then status 0, body ''). */
    stopBefore: (url: URL) => boolean = () => false,
  ): Promise<Page> {
    let next = new URL(start);
    let method = 'GET';
    let form: Record<string, string> | undefined;
    for (let hop = 0; hop < 30; hop += 1) {
      if (hop > 0 && stopBefore(next)) return { url: next, status: 0, body: '' };
      const response = await this.request(next, { method, form });
      method = 'GET';
      form = undefined;
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location !== null) {
        next = new URL(location, next);
        continue;
      }
      const body = await response.text();
      const page = { url: next, status: response.status, body };
      const refresh = /<meta http-equiv="refresh" content="0;\s*url=([^"]+)"/i.exec(body);
      if (refresh?.[1] !== undefined) {
        next = new URL(decodeEntities(refresh[1]), next);
        continue;
      }
      const action = /<form[^>]*action="([^"]*)"[^>]*>/i.exec(body) ?? /<form[^>]*>/i.exec(body);
      if (action === null) return page;
      const fields = answer(page);
      if (fields === undefined) return page;
      const hidden: Record<string, string> = {};
      for (const input of body.matchAll(/<input[^>]*type="hidden"[^>]*>/gi)) {
        const name = /name="([^"]*)"/.exec(input[0])?.[1];
        const value = /value="([^"]*)"/.exec(input[0])?.[1];
        if (name !== undefined) hidden[name] = decodeEntities(value ?? '');
      }
      next = new URL(decodeEntities(action[1] ?? next.href), next);
      method = 'POST';
      form = { ...hidden, ...fields };
    }
    throw new Error(`${this.name}: too many hops from ${String(start)}`);
  }
}

function decodeEntities(value: string): string {
  return value
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>');
}
