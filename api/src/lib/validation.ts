import type { FastifyError, FastifySchemaValidationError } from 'fastify';
import { HttpError, quoted } from './errors.js';

type RequestPart = NonNullable<FastifyError['validationContext']>;

const typeNames: Record<string, string> = {
  string: 'un texto',
  integer: 'un número entero',
  number: 'un número',
  boolean: 'verdadero o falso',
  object: 'un objeto',
  array: 'una lista',
  null: 'nulo',
};

const partNames: Record<string, string> = {
  body: 'el cuerpo de la petición',
  querystring: 'los parámetros de la consulta',
  params: 'la ruta',
  headers: 'las cabeceras',
};

function fieldPath(instancePath: string): string {
  return instancePath.replace(/^\//, '').replaceAll('/', '.');
}

/** Fastify's `schemaErrorFormatter`: the first schema violation as a Spanish sentence naming the field. */
export function validationError(errors: FastifySchemaValidationError[], part: RequestPart): HttpError {
  return new HttpError(400, describe(errors, part), 'VALIDATION_ERROR');
}

function describe(errors: FastifySchemaValidationError[], part: RequestPart): string {
  const [error] = errors;
  if (!error) return 'Datos inválidos';
  const params = error.params as Record<string, unknown>;
  const path = fieldPath(error.instancePath);
  const subject = path ? quoted(path) : (partNames[part] ?? 'la petición');
  const limit = params.limit;

  let problem: string;
  switch (error.keyword) {
    case 'required':
      problem = `falta el campo ${quoted([path, params.missingProperty].filter(Boolean).join('.'))}`;
      break;
    case 'additionalProperties':
      problem = `el campo ${quoted([path, params.additionalProperty].filter(Boolean).join('.'))} no está permitido`;
      break;
    case 'type': {
      const expected = String(params.type)
        .split(',')
        .map((type) => typeNames[type] ?? type)
        .join(' o ');
      problem = `${subject} debe ser ${expected}`;
      break;
    }
    case 'minimum':
      problem = `${subject} debe ser mayor o igual que ${limit}`;
      break;
    case 'maximum':
      problem = `${subject} debe ser menor o igual que ${limit}`;
      break;
    case 'minLength':
      problem = `${subject} debe tener al menos ${limit} ${limit === 1 ? 'carácter' : 'caracteres'}`;
      break;
    case 'maxLength':
      problem = `${subject} debe tener como máximo ${limit} caracteres`;
      break;
    case 'format':
      problem = `${subject} no tiene un formato válido`;
      break;
    case 'character':
      // U+FFFD stands where a client sent bytes that are not UTF-8: saying so tells the client what to fix.
      problem =
        params.character === '\ufffd'
          ? `${subject} contiene el carácter de reemplazo '\ufffd' (U+FFFD) de un texto mal codificado`
          : `${subject} contiene un carácter no admitido`;
      break;
    case 'enum':
    case 'const':
      problem = `${subject} no es un valor permitido`;
      break;
    default:
      problem = `${subject} no es válido`;
  }
  return `Datos inválidos: ${problem}`;
}
