// An incremental parser of a text/event-stream body (WHATWG HTML, "Server-sent events", §9.2.6 "Event
// stream interpretation"): chunks in, complete events out. Pure: the upstream MCP client feeds it the
// bytes of an answer as they arrive, so a response can be picked out of a stream that stays open.

export interface SseEvent {
  /** The `event:` field; "message" when none was given. */
  readonly event: string;
  /** The `data:` lines joined with "\n". */
  readonly data: string;
  /** The `id:` field, when the event carried one. */
  readonly id?: string | undefined;
}

export class SseParser {
  #buffer = '';
  #data: string[] = [];
  #event = '';
  #id: string | undefined;
  #decoder = new TextDecoder('utf-8');
  #first = true;

  /** Feeds a chunk of the body; answers the events it completed (possibly none). */
  push(chunk: Uint8Array | string): SseEvent[] {
    let text = typeof chunk === 'string' ? chunk : this.#decoder.decode(chunk, { stream: true });
    // A UTF-8 byte order mark at the very start of the stream is not part of the first line.
    if (this.#first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      this.#first = false;
    }
    this.#buffer += text;
    const events: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.#buffer);
      if (match === null) break;
      // A lone "\r" at the end of the buffer may be the first half of "\r\n": wait for the next chunk.
      if (match[0] === '\r' && match.index === this.#buffer.length - 1) break;
      const line = this.#buffer.slice(0, match.index);
      this.#buffer = this.#buffer.slice(match.index + match[0].length);
      const event = this.#line(line);
      if (event !== undefined) events.push(event);
    }
    return events;
  }

  #line(line: string): SseEvent | undefined {
    if (line === '') return this.#dispatch();
    if (line.startsWith(':')) return undefined; // a comment (keep-alive)
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\0')) this.#id = value;
    // `retry` and unknown fields are ignored: the client does not reconnect a POST's stream.
    return undefined;
  }

  #dispatch(): SseEvent | undefined {
    const data = this.#data;
    const event = this.#event;
    this.#data = [];
    this.#event = '';
    if (data.length === 0) return undefined;
    return { event: event === '' ? 'message' : event, data: data.join('\n'), id: this.#id };
  }
}
