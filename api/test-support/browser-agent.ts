/**
 * A browser as far as redirects, cookies and forms go, over fetch: follows redirects one at a time (so a
 * test can stop at any of them), keeps cookies per host as browsers do (ports share them; Path respected)
 * and submits the provider's forms. For the OpenID Connect flows of the API tests; the e2e tests use Chromium.
 */
export interface AgentResponse {
  status: number;
  url: string;
  location: string | undefined;
  text: string;
  headers: Headers;
}

export class BrowserAgent {
  /** host → name → { value, path } */
  readonly #cookies = new Map<string, Map<string, { value: string; path: string }>>();
  /** Rewrites a URL before it is fetched (a provider recorded at its real address, served locally). */
  constructor(readonly rewrite: (url: URL) => URL = (url) => url) {}

  cookie(host: string, name: string): string | undefined {
    return this.#cookies.get(host)?.get(name)?.value;
  }
  setCookie(host: string, name: string, value: string, path = '/') {
    let jar = this.#cookies.get(host);
    if (!jar) this.#cookies.set(host, (jar = new Map()));
    jar.set(name, { value, path });
  }

  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<AgentResponse> {
    const target = this.rewrite(new URL(url));
    const headers: Record<string, string> = { Accept: 'text/html' };
    const jar = this.#cookies.get(target.hostname);
    const cookies = [...(jar?.entries() ?? [])]
      .filter(([, cookie]) => target.pathname.startsWith(cookie.path))
      .map(([name, cookie]) => `${name}=${cookie.value}`);
    if (cookies.length > 0) headers.Cookie = cookies.join('; ');
    let body: string | undefined;
    if (init.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(init.form).toString();
    }
    const response = await fetch(target, {
      method: init.method ?? (body ? 'POST' : 'GET'),
      headers,
      body,
      redirect: 'manual',
    });
    for (const line of response.headers.getSetCookie()) this.#store(target.hostname, line);
    const location = response.headers.get('location') ?? undefined;
    return {
      status: response.status,
      url,
      location: location && new URL(location, url).href,
      text: await response.text(),
      headers: response.headers,
    };
  }

  #store(host: string, line: string) {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const at = pair!.indexOf('=');
    const name = pair!.slice(0, at);
    const value = pair!.slice(at + 1);
    const path = attributes.find((attribute) => /^path=/i.test(attribute))?.slice(5) || '/';
    const expired = attributes.some(
      (attribute) => /^max-age=0$/i.test(attribute) || /^expires=Thu, 01 Jan 1970/i.test(attribute),
    );
    if (expired) this.#cookies.get(host)?.delete(name);
    else this.setCookie(host, name, value, path);
  }

  /**
   * Follows redirects from `url` until one leaves for `stopAt` (answered without fetching it) or a page
   * answers; submits oidc-provider's development login (as `login`) and consent forms on the way.
   */
  async follow(url: string, options: { login?: string; stopAt?: string } = {}): Promise<AgentResponse> {
    let response = await this.request(url);
    for (let hops = 0; hops < 20; hops += 1) {
      if (response.location) {
        if (options.stopAt && response.location.startsWith(options.stopAt)) return response;
        response = await this.request(response.location);
        continue;
      }
      const form = /<form[^>]*action="([^"]+)"[^>]*method="post"[\s\S]*?name="prompt" value="(login|consent)"/.exec(
        response.text,
      );
      if (response.status !== 200 || !form) return response;
      const action = new URL(form[1]!.replace(/&amp;/g, '&'), response.url).href;
      response = await this.request(action, {
        form:
          form[2] === 'login'
            ? { prompt: 'login', login: options.login ?? 'amal.haddad', password: 'any password' }
            : { prompt: 'consent' },
      });
    }
    throw new Error(`too many redirects from ${url}`);
  }
}
