// Redis URLs (pure): the four forms toolgate accepts, parsed once, and masked for logs and errors.
//
//   redis://[[user]:password@]host[:port][/db]            one server (ioredis reads it as it is)
//   rediss://…                                             the same over TLS
//   redis+sentinel://[[user]:password@]host[:port][,host[:port]…]/<masterName>[/<db>]
//        [?sentinelPassword=…&sentinelUsername=…]          sentinels (default port 26379); the credentials
//                                                          before `@` are the data nodes'
//   redis+cluster://[[user]:password@]host[:port][,host[:port]…]   cluster seed nodes (default port 6379)

export interface RedisHost {
  readonly host: string;
  readonly port: number;
}

interface Credentials {
  readonly username?: string;
  readonly password?: string;
}

export type RedisTarget =
  | { readonly kind: 'standalone'; readonly url: string }
  | (Credentials & {
      readonly kind: 'sentinel';
      readonly sentinels: readonly RedisHost[];
      readonly masterName: string;
      readonly db: number;
      readonly sentinelUsername?: string;
      readonly sentinelPassword?: string;
    })
  | (Credentials & { readonly kind: 'cluster'; readonly nodes: readonly RedisHost[] });

/** A Redis URL that cannot be used; the message never contains the URL's passwords. */
export class RedisUrlError extends Error {
  override readonly name = 'RedisUrlError';
}

const SCHEME = /^(redis|rediss|redis\+sentinel|redis\+cluster):\/\//i;
const SENTINEL_PARAMS = new Set(['sentinelPassword', 'sentinelUsername']);

/** Parses one of the accepted forms; throws RedisUrlError (password-free) otherwise. */
export function parseRedisUrl(url: string): RedisTarget {
  const scheme = SCHEME.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined)
    throw new RedisUrlError('expected redis://, rediss://, redis+sentinel:// or redis+cluster://');
  if (scheme === 'redis' || scheme === 'rediss') return standalone(url);
  const rest = url.slice(scheme.length + 3);
  if (rest.includes('#')) throw new RedisUrlError('a fragment (#…) is not allowed');
  const queryAt = rest.indexOf('?');
  const beforeQuery = queryAt === -1 ? rest : rest.slice(0, queryAt);
  const query = new URLSearchParams(queryAt === -1 ? '' : rest.slice(queryAt + 1));
  const at = beforeQuery.lastIndexOf('@');
  const credentials = at === -1 ? {} : userInfo(beforeQuery.slice(0, at));
  const afterUser = beforeQuery.slice(at + 1);
  const slash = afterUser.indexOf('/');
  const hostList = slash === -1 ? afterUser : afterUser.slice(0, slash);
  const path = slash === -1 ? '' : afterUser.slice(slash + 1);
  if (scheme === 'redis+cluster') {
    if (path !== '') throw new RedisUrlError('a cluster URL has no path (a cluster has only db 0)');
    if ([...query.keys()].length > 0) throw new RedisUrlError('a cluster URL takes no parameters');
    return { kind: 'cluster', nodes: hosts(hostList, 6379), ...credentials };
  }
  for (const name of query.keys())
    if (!SENTINEL_PARAMS.has(name))
      throw new RedisUrlError(
        `unknown parameter "${name.slice(0, 40)}" (expected sentinelPassword, sentinelUsername)`,
      );
  const [masterName, db, ...extra] = path.split('/');
  if (masterName === undefined || masterName === '')
    throw new RedisUrlError(
      'a sentinel URL names the master set: redis+sentinel://host:port/<masterName>',
    );
  if (extra.length > 0 || (db !== undefined && !/^[0-9]{1,2}$/.test(db)))
    throw new RedisUrlError('after the master name only a database number may follow (/<db>)');
  const sentinelUsername = query.get('sentinelUsername') ?? undefined;
  const sentinelPassword = query.get('sentinelPassword') ?? undefined;
  return {
    kind: 'sentinel',
    sentinels: hosts(hostList, 26379),
    masterName: decode(masterName),
    db: db === undefined || db === '' ? 0 : Number(db),
    ...credentials,
    ...(sentinelUsername ? { sentinelUsername } : {}),
    ...(sentinelPassword ? { sentinelPassword } : {}),
  };
}

function standalone(url: string): RedisTarget {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new RedisUrlError(
      'not a URL (one host[:port]; several hosts need redis+sentinel:// or redis+cluster://)',
    );
  }
  if (parsed.hostname === '') throw new RedisUrlError('the host is missing');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^[0-9]{1,2}$/.test(db))
    throw new RedisUrlError('the path must be a database number (/<db>)');
  return { kind: 'standalone', url };
}

function userInfo(info: string): Credentials {
  const colon = info.indexOf(':');
  const username = decode(colon === -1 ? info : info.slice(0, colon));
  const password = colon === -1 ? '' : decode(info.slice(colon + 1));
  return { ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

function decode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new RedisUrlError('bad percent-encoding');
  }
}

function hosts(list: string, defaultPort: number): RedisHost[] {
  if (list === '') throw new RedisUrlError('at least one host[:port] is required');
  return list.split(',').map((item) => {
    const m = /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9._-]+)(?::([0-9]{1,5}))?$/.exec(item);
    const port = m?.[2] === undefined ? defaultPort : Number(m[2]);
    if (!m?.[1] || port < 1 || port > 65535)
      throw new RedisUrlError(`"${item.slice(0, 60)}" is not host[:port]`);
    return { host: m[1].replace(/^\[(.*)\]$/, '$1'), port };
  });
}

/**
 * The URL with every password replaced by "…" (the data password before `@`, `sentinelPassword=`); safe
 * for logs and error messages even when the URL does not parse.
 */
export function maskRedisUrl(url: string): string {
  const queryAt = url.indexOf('?');
  const head = queryAt === -1 ? url : url.slice(0, queryAt);
  const query = queryAt === -1 ? '' : url.slice(queryAt);
  const schemeEnd = head.indexOf('://');
  const at = head.lastIndexOf('@');
  let masked = head;
  if (schemeEnd !== -1 && at > schemeEnd) {
    const info = head.slice(schemeEnd + 3, at);
    const colon = info.indexOf(':');
    const user = colon === -1 ? info : info.slice(0, colon);
    masked = `${head.slice(0, schemeEnd + 3)}${colon === -1 ? '…' : `${user}:…`}${head.slice(at)}`;
  }
  return masked + query.replace(/([?&][^=&#]*password=)[^&#]*/gi, '$1…');
}

/** The passwords a Redis URL carries (decoded), for the log redaction list. */
export function redisUrlSecrets(url: string): string[] {
  try {
    const target = parseRedisUrl(url);
    if (target.kind === 'standalone') {
      const password = decodeURIComponent(new URL(target.url).password);
      return password ? [password] : [];
    }
    const found = [target.password];
    if (target.kind === 'sentinel') found.push(target.sentinelPassword);
    return found.filter((p): p is string => p !== undefined && p !== '');
  } catch {
    return [];
  }
}
