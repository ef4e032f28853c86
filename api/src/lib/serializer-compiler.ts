// Fastify compiles a serializer (fast-json-stringify) for every response schema of every route, in every app it
// builds. The routes' schemas are the modules' own objects, so a second app in the process (two instances in one
// process, the test suites' apps) can take the serializers compiled for the first instead of compiling them all again,
// as the validators do (lib/validator-compiler.ts).
import SerializerSelector, {
  type Serializer,
  type SerializerCompiler,
  type SerializerFactory,
} from '@fastify/fast-json-stringify-compiler';

const buildFactory = SerializerSelector();

/** Serializers by response schema, then by the shared schemas they were compiled against (their ids). */
const compiled = new WeakMap<object, Map<string, Serializer>>();

/** Fastify's `compilersFactory.buildSerializer`, compiling each response schema once per process. */
export const buildCachedSerializer: SerializerFactory = (externalSchemas, options): SerializerCompiler => {
  const compile = buildFactory(externalSchemas, options);
  const shared = Object.keys((externalSchemas as Record<string, unknown> | undefined) ?? {})
    .sort()
    .join(' ');
  return (route) => {
    const schema = route.schema;
    if (typeof schema !== 'object' || schema === null) return compile(route);
    let bySchema = compiled.get(schema);
    if (!bySchema) {
      bySchema = new Map();
      compiled.set(schema, bySchema);
    }
    let serialize = bySchema.get(shared);
    if (!serialize) {
      serialize = compile(route);
      bySchema.set(shared, serialize);
    }
    return serialize;
  };
};
