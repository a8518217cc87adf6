// Dependency-free test utilities: controllable clock, recording fetch, base64url JSON.

export function b64(value: unknown): string {
  return Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString(
    'base64url',
  );
}

export interface Clock {
  now: number;
  (): number;
  advance(ms: number): void;
}

export function makeClock(start = Date.now()): Clock {
  const clock = (() => clock.now) as Clock;
  clock.now = start;
  clock.advance = (ms: number) => {
    clock.now += ms;
  };
  return clock;
}

export const seconds = (clock: () => number): number => Math.floor(clock() / 1000);

export interface RecordingFetch {
  (input: string, init: RequestInit): Promise<Response>;
  urls: string[];
}

export function recordingFetch(inner: typeof fetch = fetch): RecordingFetch {
  const f = (async (input: string, init: RequestInit) => {
    f.urls.push(input);
    return inner(input, init);
  }) as RecordingFetch;
  f.urls = [];
  return f;
}
