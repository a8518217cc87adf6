// Every value a request carried for one header, from Node's raw (name, value, name, value …) list. Node's
// parsed `headers` keeps only the first `Authorization`; a credential check reads them all so that a second
// one (which a proxy or backend might read instead) is refused, not ignored.
export function rawHeaderValues(raw: readonly string[], name: string): string[] {
  const wanted = name.toLowerCase();
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2)
    if (raw[i]?.toLowerCase() === wanted) values.push(raw[i + 1] ?? '');
  return values;
}
