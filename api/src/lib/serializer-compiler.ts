// Fastify compiles a serializer (fast-json-stringify) for every response schema of every route, in every app it
// builds. The routes' schemas are the modules' own objects, so a second app in the process (two instances in one
// process, the test suites' apps) can take the serializers compiled for the first instead of compiling them all again,
// as the validators do (lib/validator-compiler.ts).
import SerializerSelector from '@fastify/fast-json-stringify-compiler';

type Serialize = (data: unknown) => string;
type RouteSchema = { schema: object; method: string; url: string; httpStatus?: string; contentType?: string };
type Compile = (route: RouteSchema) => Serialize;

const buildFactory = SerializerSelector() as unknown as (externalSchemas: unknown, options: unknown) => Compile;

/** Serializers by response schema, then by the shared schemas they were compiled against (their ids). */
const compiled = new WeakMap<object, Map<string, Serialize>>();

/** Fastify's `compilersFactory.buildSerializer`, compiling each response schema once per process. */
export function buildCachedSerializer(externalSchemas: Record<string, object> | undefined, options: unknown): Compile {
  const compile = buildFactory(externalSchemas, options);
  const shared = Object.keys(externalSchemas ?? {})
    .sort()
    .join(' ');
  return (route) => {
    let bySchema = compiled.get(route.schema);
    if (!bySchema) {
      bySchema = new Map();
      compiled.set(route.schema, bySchema);
    }
    let serialize = bySchema.get(shared);
    if (!serialize) {
      serialize = compile(route);
      bySchema.set(shared, serialize);
    }
    return serialize;
  };
}
