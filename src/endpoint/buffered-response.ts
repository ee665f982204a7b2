/**
 * What leanFetch resolves to: a Response whose body is already in memory (the whole reply was
 * read off the socket), answering text() and json() — what the SDKs call on every reply — straight
 * from those bytes instead of through a web stream, which costs a provider call a tenth of a
 * millisecond of CPU. Everything else a Response offers (`body` as a stream, blob, formData)
 * comes from a real Response built on first use, so a caller sees what fetch would have given it.
 */
export class BufferedResponse {
  readonly type = "basic";
  readonly status: number;
  readonly statusText: string;
  readonly headers: Headers;
  readonly url: string;
  readonly redirected: boolean;
  /** null: no body (204, 304, or nothing sent). */
  readonly #bytes: Buffer | null;
  #real: Response | null = null;
  #used = false;

  constructor(
    bytes: Buffer | null,
    init: {
      status: number;
      statusText: string;
      headers: Headers;
      url: string;
      redirected: boolean;
    },
  ) {
    this.#bytes = bytes;
    this.status = init.status;
    this.statusText = init.statusText;
    this.headers = init.headers;
    this.url = init.url;
    this.redirected = init.redirected;
  }

  get ok(): boolean {
    return this.status >= 200 && this.status <= 299;
  }

  get bodyUsed(): boolean {
    return this.#used || (this.#real?.bodyUsed ?? false);
  }

  get body(): ReadableStream<Uint8Array> | null {
    return this.#bytes === null ? null : this.#toReal().body;
  }

  async text(): Promise<string> {
    if (this.#real !== null) return this.#real.text();
    const text = this.#take().toString("utf8");
    // As fetch decodes: UTF-8, a leading byte order mark dropped.
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  async arrayBuffer(): Promise<ArrayBuffer> {
    if (this.#real !== null) return this.#real.arrayBuffer();
    return new Uint8Array(this.#take()).buffer;
  }

  async bytes(): Promise<Uint8Array> {
    if (this.#real !== null) return new Uint8Array(await this.#real.arrayBuffer());
    return new Uint8Array(this.#take());
  }

  /** Rare (the type is fetch's own MIME serialisation): a real Response answers. */
  async blob(): Promise<Blob> {
    if (this.#used) this.#take();
    return this.#toReal().blob();
  }

  async formData(): Promise<FormData> {
    if (this.#used) this.#take();
    return this.#toReal().formData();
  }

  clone(): BufferedResponse {
    if (this.bodyUsed) throw new TypeError("Response.clone: Body has already been consumed.");
    if (this.#real !== null)
      throw new TypeError("Response.clone: the body is being read as a stream.");
    return new BufferedResponse(this.#bytes, this);
  }

  /** The bytes, once: a body is read at most once, as with fetch. */
  #take(): Buffer {
    if (this.#used) throw new TypeError("Body is unusable: Body has already been read");
    this.#used = true;
    return this.#bytes ?? Buffer.alloc(0);
  }

  #toReal(): Response {
    this.#real ??= new Response(
      this.#bytes === null || this.#used ? null : new Uint8Array(this.#bytes),
      { status: this.status, statusText: this.statusText, headers: this.headers },
    );
    return this.#real;
  }
}
