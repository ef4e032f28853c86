// The backup file's container: a plain POSIX tar (ustar), so an operator can look inside with `tar tvf` and see the
// manifest and the files it names. Only regular files with short names are written or accepted; every header's
// checksum is verified, and a file that is not such a tar is refused whole.

const BLOCK = 512;

export interface ArchiveEntry {
  name: string;
  data: Buffer;
}

/** The archive could not be read: truncated, corrupt, or not a tar of this shape. */
export class ArchiveError extends Error {
  constructor(problem: string) {
    super(problem);
    this.name = 'ArchiveError';
  }
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

function header(name: string, size: number, mtime: Date): Buffer {
  if (Buffer.byteLength(name) > 100) throw new Error(`tar entry name too long: ${name}`);
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, 100, 'utf8');
  block.write(octal(0o600, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  block.write('        ', 148, 'ascii');
  block.write('0', 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  block.write(octal(checksum(block), 7), 148, 'ascii');
  return block;
}

/** The sum of the header's bytes with its own checksum field counted as spaces. */
function checksum(block: Buffer): number {
  let sum = 0;
  for (let index = 0; index < BLOCK; index++) sum += index >= 148 && index < 156 ? 0x20 : (block[index] ?? 0);
  return sum;
}

export function writeArchive(entries: ArchiveEntry[], mtime = new Date()): Buffer {
  const parts: Buffer[] = [];
  for (const { name, data } of entries) {
    parts.push(header(name, data.length, mtime), data);
    const padding = (BLOCK - (data.length % BLOCK)) % BLOCK;
    if (padding) parts.push(Buffer.alloc(padding));
  }
  parts.push(Buffer.alloc(2 * BLOCK));
  return Buffer.concat(parts);
}

function readOctal(block: Buffer, start: number, width: number): number {
  const text = block
    .subarray(start, start + width)
    .toString('ascii')
    .replace(/[\0 ]+$/, '')
    .trim();
  if (!/^[0-7]+$/.test(text)) throw new ArchiveError('una cabecera tar tiene un número ilegible');
  return Number.parseInt(text, 8);
}

/** Every file of the archive by name; refuses anything that is not a well-formed tar of regular files. */
export function readArchive(archive: Buffer): Map<string, Buffer> {
  const entries = new Map<string, Buffer>();
  let offset = 0;
  for (;;) {
    if (offset + BLOCK > archive.length) {
      throw new ArchiveError(offset === 0 ? 'no es un archivo tar' : 'el archivo está cortado');
    }
    const block = archive.subarray(offset, offset + BLOCK);
    if (block.every((byte) => byte === 0)) return entries;
    if (block.subarray(257, 262).toString('ascii') !== 'ustar') throw new ArchiveError('no es un archivo tar');
    if (readOctal(block, 148, 8) !== checksum(block)) throw new ArchiveError('una cabecera tar está dañada');
    const type = String.fromCharCode(block[156] ?? 0);
    if (type !== '0' && type !== '\0') throw new ArchiveError('contiene algo que no es un archivo normal');
    const name = block.subarray(0, 100).toString('utf8').replace(/\0.*$/s, '');
    const size = readOctal(block, 124, 12);
    const start = offset + BLOCK;
    if (start + size > archive.length) throw new ArchiveError('el archivo está cortado');
    if (entries.has(name)) throw new ArchiveError(`contiene dos veces ${name}`);
    entries.set(name, archive.subarray(start, start + size));
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
  }
}
