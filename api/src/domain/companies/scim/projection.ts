// The `attributes` and `excludedAttributes` parameters of a SCIM read (RFC 7644 §3.4.2.5, §3.9): the resource narrowed
// to the attributes asked for, or without those left out. `id` and `schemas` are always returned (RFC 7643 §3.1, §7
// "returned: always"). Names are read without regard to case, with or without their schema's URN
// (`urn:ietf:params:scim:schemas:core:2.0:User:userName`), a sub-attribute as `name.givenName`; a value filter after an
// attribute (`emails[type eq "work"]`, which RFC 7644's grammar keeps for filters and PATCH paths but directories
// send here too) names the attribute it filters.

const alwaysReturned = new Set(['id', 'schemas']);
const coreSchemaPrefix = /^urn:ietf:params:scim:schemas:core:2\.0:(user|group):/i;

/** A parameter's list of attribute paths, each as [attribute, sub-attribute?] in lower case. */
export function attributePaths(parameter: unknown): [string, string | undefined][] {
  if (typeof parameter !== 'string') return [];
  return parameter
    .split(',')
    .map((name) =>
      name
        .trim()
        .replace(coreSchemaPrefix, '')
        .replace(/\[[^\]]*\]/, '')
        .toLowerCase(),
    )
    .filter((name) => name !== '')
    .map((name) => {
      const [attribute = '', sub] = name.split('.', 2);
      return [attribute, sub];
    });
}

const keyOf = (resource: Record<string, unknown>, lowerName: string) =>
  Object.keys(resource).find((key) => key.toLowerCase() === lowerName);

/** One sub-attribute of a multi-valued attribute's item (`emails.value`: `{ value }`). */
function pick(item: unknown, sub: string): unknown {
  if (item === null || typeof item !== 'object') return item;
  const subKey = keyOf(item as Record<string, unknown>, sub);
  return subKey ? { [subKey]: (item as Record<string, unknown>)[subKey] } : {};
}

/** The resource as a read with these parameters returns it (the resource itself when neither is given). */
export function projectResource<T extends object>(resource: T, attributes: unknown, excluded: unknown): Partial<T> {
  const asked = attributePaths(attributes);
  const left = attributePaths(excluded);
  const source = resource as Record<string, unknown>;
  if (asked.length > 0) {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(source)) if (alwaysReturned.has(key.toLowerCase())) out[key] = source[key];
    for (const [name, sub] of asked) {
      const key = keyOf(source, name);
      if (!key || alwaysReturned.has(name)) continue;
      const value = source[key];
      if (sub !== undefined && Array.isArray(value)) {
        out[key] = value.map((item) => pick(item, sub));
        continue;
      }
      if (sub === undefined || value === null || typeof value !== 'object') {
        out[key] = value;
        continue;
      }
      const subKey = keyOf(value as Record<string, unknown>, sub);
      if (!subKey) continue;
      const kept = (out[key] as Record<string, unknown> | undefined) ?? {};
      kept[subKey] = (value as Record<string, unknown>)[subKey];
      out[key] = kept;
    }
    return out as Partial<T>;
  }
  if (left.length === 0) return resource;
  const out: Record<string, unknown> = { ...source };
  for (const [name, sub] of left) {
    if (alwaysReturned.has(name)) continue;
    const key = keyOf(out, name);
    if (!key) continue;
    if (sub === undefined) {
      delete out[key];
      continue;
    }
    const value = out[key];
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const copy = { ...(value as Record<string, unknown>) };
    const subKey = keyOf(copy, sub);
    if (subKey) delete copy[subKey];
    out[key] = copy;
  }
  return out as Partial<T>;
}

/** A read's answer narrowed: a single resource, or each of a ListResponse's `Resources`. */
export function projectAnswer<T extends object>(answer: T, query: unknown): T {
  const { attributes, excludedAttributes } = (query ?? {}) as { attributes?: unknown; excludedAttributes?: unknown };
  if (attributes === undefined && excludedAttributes === undefined) return answer;
  const list = answer as { Resources?: object[] };
  if (Array.isArray(list.Resources))
    return { ...answer, Resources: list.Resources.map((one) => projectResource(one, attributes, excludedAttributes)) };
  return projectResource(answer, attributes, excludedAttributes) as T;
}
