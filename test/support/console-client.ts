/**
 * A browser stand-in for console tests without a browser: keeps the cookies the service sets,
 * reads the CSRF token from each page and posts forms as a same-origin page would.
 */
export class ConsoleClient {
  readonly cookies = new Map<string, string>();
  csrf = '';

  constructor(readonly base: string) {}

  get cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private keep(res: Response): void {
    for (const line of res.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at);
      const value = pair.slice(at + 1);
      if (value === '' || /max-age=0/i.test(line)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  async get(path: string): Promise<{ status: number; html: string; location: string | null; res: Response }> {
    const res = await fetch(`${this.base}${path}`, { redirect: 'manual', headers: { cookie: this.cookieHeader } });
    this.keep(res);
    const html = await res.text();
    const token = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
    if (token) this.csrf = token;
    return { status: res.status, html, location: res.headers.get('location'), res };
  }

  /** Posts a form with the page's CSRF token (unless `fields.csrf` says otherwise) and our Origin. */
  async post(path: string, fields: Record<string, string>, headers: Record<string, string> = {}): Promise<{ status: number; location: string | null; html: string; res: Response }> {
    const res = await fetch(`${this.base}${path}`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: this.cookieHeader, 'content-type': 'application/x-www-form-urlencoded', origin: this.base, 'sec-fetch-site': 'same-origin', ...headers },
      body: new URLSearchParams({ csrf: this.csrf, ...fields }),
    });
    this.keep(res);
    return { status: res.status, location: res.headers.get('location'), html: await res.text(), res };
  }

  async signUp(email: string, password = 'correct horse battery', project?: string): Promise<{ keys: string[] }> {
    await this.get('/dashboard/signup');
    const done = await this.post('/dashboard/signup', { email, password, ...(project ? { project } : {}) });
    if (done.status !== 303) throw new Error(`sign-up answered ${done.status}: ${done.html.slice(0, 300)}`);
    // Sign-up answers a new and a known email alike (no session): the first log-in shows the keys.
    const login = await this.logIn(email, password);
    if (login.status !== 303 || login.location !== '/dashboard/keys') throw new Error(`first log-in answered ${login.status} → ${login.location}: ${login.html.slice(0, 300)}`);
    const page = await this.get('/dashboard/keys');
    return { keys: page.html.match(/ak_(?:live|test)_[A-Za-z0-9_-]{43}/g) ?? [] };
  }

  async logIn(email: string, password = 'correct horse battery'): Promise<{ status: number; location: string | null; html: string; res: Response }> {
    await this.get('/dashboard/login');
    return this.post('/dashboard/login', { email, password });
  }

  /** The session cookie's value (whatever its name over HTTP or HTTPS). */
  get sessionId(): string | undefined {
    return this.cookies.get('addressd_session') ?? this.cookies.get('__Host-addressd_session');
  }
}

/** Key ids of the rows on the keys page, in order. */
export const keyIdsOn = (html: string): string[] => [...html.matchAll(/<tr data-key-id="([^"]+)"/g)].map((m) => m[1]!);
export const tokenIdsOn = (html: string): string[] => [...html.matchAll(/data-token-id="([^"]+)"/g)].map((m) => m[1]!);
