// SCIM's resource endpoints are case-insensitive (RFC 7644 §3.10 makes attribute names so, and directories and
// validators send `/users`) and a path may end in a slash (`/Users/?filter=…`): the URL is rewritten to the canonical
// spelling before routing (the app's `rewriteUrl`), so every route and log sees one form.
const prefix = '/scim/v2/';
const canonical = new Map(
  ['Users', 'Groups', 'ServiceProviderConfig', 'ResourceTypes', 'Schemas'].map((name) => [name.toLowerCase(), name]),
);

/** `/scim/v2/users/` → `/scim/v2/Users` (query kept as sent); any other URL unchanged. */
export function canonicalScimUrl(url: string): string {
  if (!url.startsWith(prefix)) return url;
  const queryAt = url.indexOf('?');
  let path = queryAt < 0 ? url : url.slice(0, queryAt);
  const query = queryAt < 0 ? '' : url.slice(queryAt);
  if (path.length > prefix.length && path.endsWith('/')) path = path.replace(/\/+$/, '');
  const rest = path.slice(prefix.length);
  const slash = rest.indexOf('/');
  const resource = slash < 0 ? rest : rest.slice(0, slash);
  const name = canonical.get(resource.toLowerCase());
  if (name) path = `${prefix}${name}${slash < 0 ? '' : rest.slice(slash)}`;
  return `${path}${query}`;
}
